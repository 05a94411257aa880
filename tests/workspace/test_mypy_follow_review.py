"""The review of mypy's gate as its files and the modules it follows into (487e0fa): more
layouts against the pinned mypy run as the project runs it (each module holding an error, so
the files mypy says are the files it checks and reports): `import a.b as c`, an
`__init__.py`'s re-export, a `try:` / `except ImportError:` pair, `importlib.import_module`
(mypy does not follow it), a namespace folder inside a package, a per-module section over a
pattern, `exclude` (mypy follows into it). Its near_miss and nsoff
layouts went to tests/workspace/test_mypy_follow.py with 65a17bd's fix; imports under
conditions mypy finds unreachable are another engineer's work in flight."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.workspace.test_mypy_follow import BAD, STRICT
from tests.workspace.test_mypy_follow import test_the_scope_is_what_mypy_reports as scope_is_mypys

LAYOUTS: dict[str, dict[str, str]] = {
    "mid_namespace": {
        "pyproject.toml": STRICT + 'files = ["pkg/sub/mod.py"]\n',
        "pkg/__init__.py": "",
        "pkg/sub/mod.py": "import helper\n",
        "pkg/sub/helper.py": BAD,
    },
    "reexport": {
        "pyproject.toml": STRICT + 'files = ["main.py"]\n',
        "main.py": "from pkg import thing\nimport pkg.a.b as c\n",
        "pkg/__init__.py": "from .impl import thing\n",
        "pkg/impl.py": "thing = 1\n",
        "pkg/a/__init__.py": "",
        "pkg/a/b.py": "",
        "pkg/other.py": BAD,
    },
    "tryimport": {
        "pyproject.toml": STRICT + 'files = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": (
            "import importlib\ntry:\n    import app.fast\nexcept ImportError:\n"
            "    import app.slow\nimportlib.import_module('app.dyn')\n"
        ),
        "app/fast.py": "import app.main\n",
        "app/slow.py": BAD,
        "app/dyn.py": BAD,
    },
    "excluded": {
        "pyproject.toml": STRICT + 'files = ["app"]\nexclude = ["app/gen/"]\n',
        "app/__init__.py": "",
        "app/main.py": "import app.gen.models\n",
        "app/gen/__init__.py": "",
        "app/gen/models.py": BAD,
        "app/gen/spare.py": BAD,
    },
    "patterns": {
        "mypy.ini": (
            "[mypy]\nstrict = True\nfiles = main.py\n"
            "[mypy-app.*]\nfollow_imports = skip\n"
            "[mypy-app.keep]\nfollow_imports = normal\n"
        ),
        "main.py": "import app.keep\nimport app.gone\n",
        "app/__init__.py": "",
        "app/keep.py": BAD,
        "app/gone.py": BAD,
    },
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_the_scope_is_what_mypy_reports(tmp_path: Path, layout: dict[str, str]) -> None:
    scope_is_mypys(tmp_path, layout)
