"""A preview whose patch holds a file no language server handles answers instead of
refusing the whole patch: a file no checker reads (README.rst beside a .py) is left out, a
`py.typed` mark is held (with a package added or deleted beside it), and the answer is the
checker's on the tree the patch writes. Before (the examiner's F4), exit 2: "no language
server handles newpkg/py.typed (.typed)"; and a package's deletion held its emptied folder
in basedpyright's copy, a namespace package (`"f" is unknown import symbol` where the CLI
says `Import "dep" could not be resolved`). Real basedpyright against its CLI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.preview import previewed
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import Row, cli, rows

FILES = {
    "pyrightconfig.json": '{"typeCheckingMode": "standard"}\n',
    "app/__init__.py": "",
    "app/main.py": "from dep import f\n\nx: int = f()\n",
    "dep/__init__.py": "def f() -> int:\n    return 1\n",
    "dep/py.typed": "",
    "README.rst": "lib\n",
}
BAD = "\n\ndef g() -> int:\n    return 'x'\n"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    yield from watched(written(tmp_path / "py", FILES), tmp_path / "logs")


def said(warm: Warm, change: dict[str, str | None]) -> tuple[list[Row], list[str]]:
    items = [{"path": name, "content": text} for name, text in change.items()]
    changes = warm.run(previewed(warm.ws, items)).changes
    assert changes.fixed == []
    return rows(changes.introduced), changes.changed


def truth(tmp_path: Path, change: dict[str, str | None]) -> list[Row]:
    """The CLI's errors on a tree the patch wrote (an emptied folder gone, as git leaves it)."""
    root = written(tmp_path, {k: v for k, v in {**FILES, **change}.items() if v is not None})
    return [r for r in cli(root) if r[0] != "README.rst"]


def test_a_patch_with_files_no_server_handles_is_answered(project: Warm, tmp_path: Path) -> None:
    readme: dict[str, str | None] = {
        "README.rst": "lib, documented\n",
        "app/main.py": FILES["app/main.py"] + BAD,
    }
    found, changed = said(project, readme)
    assert found == truth(tmp_path / "readme", readme) and len(found) == 1
    assert changed == ["app/main.py"]  # the README left out: no checker reads it
    new: dict[str, str | None] = {
        "new/__init__.py": "def h(x: int) -> int:\n    return x\n",
        "new/py.typed": "",
        "app/main.py": FILES["app/main.py"] + "\nfrom new import h\n\ny: int = h('a')\n",
    }
    found, changed = said(project, new)
    assert found == truth(tmp_path / "new", new) and len(found) == 1
    assert changed == ["app/main.py", "new/__init__.py", "new/py.typed"]
    gone: dict[str, str | None] = {"dep/__init__.py": None, "dep/py.typed": None}
    found, _ = said(project, gone)
    assert found == truth(tmp_path / "gone", gone)
    assert [(r[0], r[1], r[3]) for r in found] == [("app/main.py", 1, "reportMissingImports")]
