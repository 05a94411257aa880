"""The gate's files of a project whose mypy `files` name part of it are those mypy reports
errors of: the sources and the project's modules it follows into (`mypy_follow`). Each
module below holds an error, so the files mypy reports are the files it checks and says;
asserted against the pinned mypy run as the project runs it (`mypy` in its directory).
The reviewer's repro: `files = ["app/main.py"]` importing app.helper, whose `return "x"`
mypy says, and lspd said "0 errors ... 2 source files no gate checks left out"."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.workspace.mypy_scope import mypy_scopes
from tests.workspace.mypy_env import cli_errors, project

BAD = 'bad: int = "x"\n'
STRICT = "[tool.mypy]\nstrict = true\n"
LAYOUTS: dict[str, dict[str, str]] = {
    "repro": {
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": "from app.helper import h\n\nX: int = h()\n",
        "app/helper.py": 'def h() -> int:\n    return "x"\n',
        "app/unused.py": BAD,
    },
    "relative": {
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": "from . import helper\nfrom .sub.deep import d\n",
        "app/helper.py": BAD,
        "app/sub/__init__.py": BAD,
        "app/sub/deep.py": "from .. import helper\nd = 1\n" + BAD,
        "app/sub/other.py": BAD,
    },
    "package": {
        "pyproject.toml": STRICT + 'files = ["main.py"]\n',
        "main.py": "import pkg\nfrom tools import mod\n",
        "pkg/__init__.py": BAD,
        "pkg/inner.py": BAD,
        "tools/__init__.py": "",
        "tools/mod.py": BAD,
        "tools/spare.py": BAD,
    },
    "overrides": {
        "pyproject.toml": STRICT
        + 'files = ["app/main.py"]\n'
        + '[[tool.mypy.overrides]]\nmodule = "app.skipped"\nfollow_imports = "skip"\n'
        + '[[tool.mypy.overrides]]\nmodule = ["app.quiet.*"]\nfollow_imports = "silent"\n',
        "app/__init__.py": "",
        "app/main.py": "import app.skipped\nimport app.quiet.mod\n",
        "app/skipped.py": "import app.behind_skip\n" + BAD,
        "app/behind_skip.py": BAD,
        "app/quiet/__init__.py": BAD,
        "app/quiet/mod.py": "import app.behind_silent\n" + BAD,
        "app/behind_silent.py": BAD,
    },
    "conditional": {
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from app.typed import T\n"
            "def f() -> None:\n"
            "    import app.late\n"
        ),
        "app/typed.py": "T = int\n" + BAD,
        "app/late.py": BAD,
    },
    "error": {
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\nfollow_imports = "error"\n',
        "app/__init__.py": "",
        "app/main.py": "import app.helper\n",
        "app/helper.py": BAD,
    },
    "bases": {  # module names from mypy_path (namespace folders), a stub before its module
        "pyproject.toml": STRICT
        + 'files = ["src/acme/api.py"]\nmypy_path = "src"\nexplicit_package_bases = true\n'
        + '[[tool.mypy.overrides]]\nmodule = ["acme.legacy.*"]\nfollow_imports = "skip"\n',
        "src/acme/api.py": "from .core import c\nimport acme.legacy.old\nimport acme.fast\n",
        "src/acme/core.py": "c = 1\n",
        "src/acme/fast.py": BAD,
        "src/acme/fast.pyi": "def f() -> int: ...\n",
        "src/acme/legacy/old.py": BAD,
        "src/acme/spare.py": BAD,
    },
    "lines": {  # an import line in a string is none; a parenthesized one's names all are
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": (
            '"""Use:\n\n    import app.unseen\n"""\nfrom app import (\n    one,\n    two,\n)\n'
        ),
        "app/one.py": BAD,
        "app/two.py": BAD,
        "app/unseen.py": BAD,
    },
    "near_miss": {  # a package all the way before a namespace folder found first
        "pyproject.toml": STRICT + 'files = ["src/app/main.py"]\n',
        "src/app/__init__.py": "",
        "src/app/main.py": "import lib.util\n",
        "lib/util.py": BAD,
        "src/lib/__init__.py": "",
        "src/lib/util.py": BAD,
    },
    "no_namespaces": {
        "pyproject.toml": STRICT + 'files = ["main.py"]\nnamespace_packages = false\n',
        "main.py": "import ns.mod\n",
        "ns/mod.py": BAD,
    },
    "unreachable": {  # branches mypy decides: their imports are not followed
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\nalways_false = ["LEGACY"]\n',
        "app/__init__.py": "",
        "app/main.py": (
            "import sys\nfrom typing import TYPE_CHECKING\n"
            'if sys.platform == "win32":\n    import app.win\n'
            "if sys.version_info < (3, 8):\n    import app.old\nelse:\n    import app.new\n"
            "LEGACY = False\nif LEGACY:\n    import app.legacy\n"
            "if not TYPE_CHECKING:\n    import app.runtime\n"
            "if TYPE_CHECKING:\n    import app.typed\nelse:\n    import app.untyped\n"
        ),
        **{f"app/{name}.py": BAD for name in ("win", "old", "new", "legacy", "runtime")},
        **{f"app/{name}.py": BAD for name in ("typed", "untyped")},
    },
    "ini": {
        "mypy.ini": (
            "[mypy]\nstrict = True\nfiles = app/main.py\n"
            "[mypy-app.skipped]\nfollow_imports = skip\n"
        ),
        "app/__init__.py": "",
        "app/main.py": "import app.skipped\nimport app.helper\n",
        "app/skipped.py": BAD,
        "app/helper.py": BAD,
    },
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_the_scope_is_what_mypy_reports(tmp_path: Path, layout: dict[str, str]) -> None:
    """Every module holds an error (`BAD` added where it has none), so the files mypy says
    are the files it checks and reports."""
    python_file = (".py", ".pyi")
    bad = {n: t if BAD in t or not n.endswith(python_file) else t + BAD for n, t in layout.items()}
    root = project(tmp_path / "proj", bad)
    python = sorted(p for p in root.rglob("*.py*") if ".venv" not in p.parts)
    python = [p for p in python if p.suffix in python_file]
    [scope] = mypy_scopes([root], python, "project", False)
    said = {file for file, *_ in cli_errors(root)}
    assert {p.relative_to(root).as_posix() for p in scope.files} == said
