"""A stub of the configuration's `stubPath` (typings/, outside the gate's `include`) deleted,
its folder left or removed, and restored: the daemon's basedpyright answers as its CLI does
on the same disk, and HEAD's comparison says what the deletion introduced and, restored,
nothing. Before (the examiner's F1, F2: funcy typed by typings/funcy/__init__.pyi), a plain
`rm` of the stub was not seen (check --baseline HEAD 0 new where the CLI says the untyped
library's reportReturnType), and the folder's deletion gave `"first" is not a known
attribute of module` (the server kept typings/lib as a namespace package) that stayed once
the stub was back. Real basedpyright against its CLI, a real venv holding the untyped
library."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed

STUB = "def first(x: list[int]) -> int: ...\n"
FILES = {
    "pyrightconfig.json": '{"include": ["app"], "stubPath": "typings", "venv": ".venv",'
    ' "venvPath": ".", "typeCheckingMode": "standard"}\n',
    "app/__init__.py": "",
    "app/main.py": "from lib import first\n\n\ndef f() -> int:\n    return first([1])\n",
    "typings/lib/__init__.pyi": STUB,
    ".gitignore": ".venv\n",
}
UNTYPED = 'def first(x):\n    return "s"\n'
Listed = tuple[str | None, int, str | None]
RETURN: list[Listed] = [("app/main.py", 5, "reportReturnType")]


def rows(root: Path) -> list[Listed]:
    return [(p, line, rule) for p, line, _, rule, _ in cli(root) if rule != "reportUnusedImport"]


def said(warm: Warm) -> tuple[list[Listed], int, int]:
    """`lspd check`'s list, and `check --baseline HEAD`'s introduced and fixed counts."""
    now = warm.run(workspace_diagnostics(warm.ws))
    since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert since is not None
    listed = [(d.path, d.line, d.code) for d in now.diagnostics]
    return listed, len(since.introduced), len(since.fixed)


def stubbed(root: Path) -> Path:
    """`FILES` under `root`, committed, its `.venv` holding the untyped library."""
    root = written(root, FILES)
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    written(site, {"lib/__init__.py": UNTYPED})
    return committed(root)


def test_a_stub_path_stub_deleted_and_restored_is_the_clis(tmp_path: Path) -> None:
    root = stubbed(tmp_path / "p")
    stub = root / "typings/lib/__init__.pyi"
    assert rows(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], 0, 0)
        for folder in (False, True):  # F2: `rm` of the stub, its folder stays; F1: it goes
            shutil.rmtree(root / "typings") if folder else stub.unlink()
            assert rows(root) == RETURN
            assert said(warm) == (RETURN, 1, 0)
            written(root, {"typings/lib/__init__.pyi": STUB})  # restored: the tree is HEAD's
            assert rows(root) == []
            assert said(warm) == ([], 0, 0)
