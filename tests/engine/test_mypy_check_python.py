"""lspd.toml's `python` is read as docs/configuration.md says it (its path from the root,
anywhere: `retool.settings_of`), by the mypy lspd runs and by the files it checks: a
venv's `bin/python` (a symlink to the base interpreter) and an environment beside the
project (`../shared-env`) were refused ("outside the workspace": `Workspace.resolve`), and
the files of a run were read in the `.pth` files of an environment found alone (the gate's
scope read lspd.toml's). Real mypy, against its own run in that environment."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from lspd.engine.mypy_check import project_files
from lspd.engine.mypy_project import project_of
from lspd.ops.check import workspace_diagnostics
from lspd.ops.mypy_answers import mypy_file
from lspd.workspace import Workspace
from lspd.workspace.scope import gate_scope
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import mypy_env
from tests.workspace.test_mypy_site import LAYOUT, editable, truth

STRICT = {
    "pyproject.toml": '[tool.mypy]\nstrict = true\nfiles = ["app"]\n',
    "app/__init__.py": "",
    "app/main.py": "def size() -> int:\n    return 1\n\n\ncount: str = size()\n",
    ".gitignore": ".venv/\n",
}
EXPECTED = {("app/main.py", 5, "assignment")}


def _venv(where: Path) -> Path:
    """A venv at `where` (no pip) reaching the pinned mypy through a `.pth`; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    shared = Path(sysconfig.get_path("purelib", vars={"base": str(mypy_env())}))
    (site / "mypy.pth").write_text(f"{shared}\n")
    return where / "bin/python"


PLACES = {".venv/bin/python": ".venv", "../shared-env": "../shared-env"}


@pytest.mark.parametrize(("configured", "place"), PLACES.items(), ids=PLACES.keys())
def test_lspd_toml_python_through_a_symlink_or_beside_the_root(
    tmp_path: Path, configured: str, place: str
) -> None:
    """`python = ".venv/bin/python"` (the venv's python a symlink leading out of the
    root) or `"../shared-env"`: lspd check says mypy's error there, as mypy run by that
    interpreter says it. Before: 'outside the workspace'."""
    root = tmp_path / "proj"
    for name, text in {**STRICT, "lspd.toml": f'python = "{configured}"\n'}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    interpreter = _venv(root / place)
    assert interpreter.is_symlink()
    assert truth(root, interpreter) == EXPECTED
    found = answer(root, workspace_diagnostics)
    assert {(d.path, d.line, d.code) for d in found.diagnostics} == EXPECTED


def test_the_files_of_a_run_are_read_in_lspd_toml_python(tmp_path: Path) -> None:
    """`python = "envs/dev"`, the project installed editable there and `files =
    ["tests/typing"]`: src/app is reached through that environment's `.pth` alone (mypy
    run by it reads src/app/core.py: its edit breaks tests/typing/use.py), so the run's
    files are the gate's, and `diagnostics src/app/core.py` does not say mypy left it out.
    Before: the run's files were read through python3 on PATH's `.pth` files (tests/typing
    alone), 'this file is outside the files mypy checks'."""
    config = '[tool.mypy]\nstrict = true\nfiles = ["tests/typing"]\n'
    root = editable(
        tmp_path / "proj", {**LAYOUT, ".gitignore": ".venv/\nenvs/\n"}, config, mypy_env()
    )
    (root / "envs").mkdir()
    (root / ".venv").rename(root / "envs/dev")
    (root / "lspd.toml").write_text('python = "envs/dev"\n')
    committed(root)
    core = root / "src/app/core.py"
    assert truth(root, root / "envs/dev/bin/python") == set()

    async def ask(ws: Workspace) -> tuple[list[Path], tuple[Path, ...], str]:
        project = project_of(ws, core)
        assert project is not None
        files, _ = project_files(ws, project)
        judged = await mypy_file(ws, core, None)
        assert judged is not None and judged.items == []
        return files, (await gate_scope(ws)).files, judged.why

    files, gate, why = answer(root, ask)
    assert [p.relative_to(root).as_posix() for p in files] == [
        "src/app/__init__.py",
        "src/app/core.py",
        "src/app/errors.py",
        "tests/typing/use.py",
    ]
    assert tuple(files) == gate
    assert "outside the files mypy checks" not in why
