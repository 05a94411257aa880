"""Which files import a Python module, read from their import statements (never a word)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine.python_imports import importers, imports, module_parts, touched

LAYOUT = ["lib/pkg/__init__.py", "lib/pkg/sub/__init__.py", "lib/pkg/sub/json.py", "tools/x.py"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in LAYOUT:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    return tmp_path


def sees(root: Path, importer: str, text: str, module: str) -> bool:
    parts, shortest = module_parts(root, root / module)
    return imports(touched(root, root / importer, text), parts, shortest)


def test_a_module_is_named_from_its_top_package(root: Path) -> None:
    assert module_parts(root, root / "lib/pkg/sub/json.py") == (("lib", "pkg", "sub", "json"), 3)
    assert module_parts(root, root / "lib/pkg/sub/__init__.py") == (("lib", "pkg", "sub"), 2)
    assert module_parts(root, root / "tools/x.py") == (("tools", "x"), 1)  # no package


@pytest.mark.parametrize(
    ("text", "seen"),
    [
        ("import json\ntext = json.dumps({'json': 1})  # json\n", False),  # the stdlib's
        ('"""json json"""\nfrom other.json import loads\n', False),
        ("import pkg.sub.json\n", True),
        ("import os, pkg.sub.json as j\n", True),
        ("from pkg.sub import json\n", True),
        ("from pkg.sub import (\n    other,  # a comment\n    json,\n)\n", True),
        ("from pkg.sub import other, \\\n    json\n", True),
        ("from pkg.sub.json import loads\n", True),
        ("from pkg.sub import *\n", True),
        ("from pkg import *\n", False),  # a submodule of pkg, not of pkg.sub
        ("def f():\n    from .sub import json\n", True),  # relative, from lib/pkg
        ("from . import sub\n", False),
        ("importlib.import_module('pkg.sub.json')\n", True),
        ('__import__("pkg.sub.json")\n', True),
    ],
)
def test_an_importer_is_told_by_its_imports(root: Path, text: str, seen: bool) -> None:
    assert sees(root, "lib/pkg/user.py", text, "lib/pkg/sub/json.py") is seen


def test_a_package_is_seen_by_importers_of_what_is_in_it(root: Path) -> None:
    package = "lib/pkg/sub/__init__.py"
    assert sees(root, "lib/pkg/user.py", "from pkg.sub.json import loads\n", package)
    assert sees(root, "lib/pkg/user.py", "from .sub import json\n", package)
    assert not sees(root, "lib/pkg/user.py", "import json\n", package)


def test_files_beside_each_other_outside_packages_import_by_the_short_name(root: Path) -> None:
    (root / "tools/y.py").write_text("")
    assert sees(root, "tools/y.py", "import x\n", "tools/x.py")
    assert sees(root, "tools/y.py", "from x import run\n", "tools/x.py")
    assert not sees(root, "tools/y.py", "import xx\n", "tools/x.py")


CHAIN = {
    "lib/pkg/sub/json.py": "x: int = 1\n",
    "lib/pkg/sub/__init__.py": "from .json import *\n",  # a star re-export
    "lib/pkg/user.py": "from pkg.sub import x\n",  # through the package
    "lib/pkg/far.py": "import pkg.user\n",  # two steps away
    "lib/pkg/lazy.py": "import importlib\nm = importlib.import_module('pkg.sub.json')\n",
    "lib/pkg/apart.py": "import json\nfrom pkg import far as _\n",  # far's importer
    "tools/x.py": "import os\n",  # nothing of it
}


def test_importers_follow_imports_transitively(root: Path) -> None:
    for name, text in CHAIN.items():
        (root / name).write_text(text)
    names = {root / n: touched(root, root / n, t) for n, t in CHAIN.items()}
    found = importers(root, [root / "lib/pkg/sub/json.py"], names)
    assert sorted(str(p.relative_to(root)) for p in found) == [
        "lib/pkg/apart.py",
        "lib/pkg/far.py",
        "lib/pkg/lazy.py",
        "lib/pkg/sub/__init__.py",
        "lib/pkg/user.py",
    ]
    # A package's __init__ runs for every import of a module in it.
    found = importers(root, [root / "lib/pkg/__init__.py"], names)
    assert root / "tools/x.py" not in found
    assert {root / "lib/pkg/user.py", root / "lib/pkg/lazy.py", root / "lib/pkg/far.py"} <= found
    assert importers(root, [root / "tools/x.py"], names) == set()


def test_an_import_after_a_semicolon_or_a_one_line_block_is_one() -> None:
    """Found by a review: each of these imports `m`, and basedpyright shows it."""
    root = Path("/project")
    for text in ("x = 1; import m\n", "if True: import m\n", "try: import m\n"):
        assert touched(root, root / "f.py", text) == {("m",)}
    assert touched(root, root / "f.py", "from proto import P; import m\n") == {
        ("proto",),
        ("proto", "P"),
        ("m",),
    }
    assert touched(root, root / "f.py", "if TYPE_CHECKING: from m import Alias\n") == {
        ("m",),
        ("m", "Alias"),
    }


def test_imports_a_third_review_found() -> None:
    root = Path("/project")
    listed = "from pkg import (\n    a,  # see (docs)\n    sub,\n)\n"
    assert ("pkg", "sub") in touched(root, root / "f.py", listed)
    assert touched(root, root / "pkg" / "f.py", "from .import m\n") == {("pkg",), ("pkg", "m")}
    assert touched(root, root / "pkg" / "f.py", "from.m import f\n") == {
        ("pkg",),
        ("pkg", "m"),
        ("pkg", "m", "f"),
    }
