"""The files mypy checks in a project follow its environment's `.pth` files (an editable
install: `mypy_scope._reached`), also when one comes with no Python file coming or going:
`mypy_check.project_files` kept its answer by the workspace's Python files alone, so with
the project installed editable after the first check (`files = ["tests/typing"]`, src/app
reached through the install alone), src/app/core.py stayed "outside the files mypy checks"
(`diagnostics` said so; a held state's answer left it out). Real mypy, against its own
run on the disk, a warm watched workspace."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.mypy_check import project_files
from lspd.engine.mypy_project import MypyProject, project_of
from lspd.ops.check import workspace_diagnostics
from lspd.ops.mypy_answers import mypy_file
from tests.conftest import Warm, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import mypy_env
from tests.workspace.test_mypy_site import LAYOUT, editable, truth

CONFIG = '[tool.mypy]\nstrict = true\nfiles = ["tests/typing"]\n'
FILES = {**LAYOUT, ".gitignore": ".venv/\n"}
OUTSIDE = "this file is outside the files mypy checks"


def _checked(warm: Warm) -> set[tuple[str | None, int, str | None]]:
    found = warm.run(workspace_diagnostics(warm.ws)).diagnostics
    return {(d.path, d.line, d.code) for d in found}


def _files(warm: Warm, project: MypyProject) -> list[str]:
    return [p.relative_to(warm.root).as_posix() for p in project_files(warm.ws, project)[0]]


def _why(warm: Warm, path: Path) -> str:
    judged = warm.run(mypy_file(warm.ws, path, None))
    assert judged is not None
    return judged.why


def test_an_editable_install_added_later_is_in_the_files_checked(tmp_path: Path) -> None:
    root = committed(editable(tmp_path / "proj", FILES, CONFIG, mypy_env()))
    (install,) = root.glob(".venv/lib/python*/site-packages/_editable_impl_app.pth")
    line = install.read_text()
    install.unlink()  # not installed yet
    core = root / "src/app/core.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        project = project_of(warm.ws, root / "tests/typing/use.py")
        assert project is not None
        before = truth(root)
        assert ("tests/typing/use.py", 1, "import-not-found") in before
        assert _checked(warm) == before
        assert _files(warm, project) == ["tests/typing/use.py"]
        assert OUTSIDE in _why(warm, core)
        install.write_text(line)  # `pip install -e .`: a .pth, no Python file came or went
        assert _checked(warm) == truth(root) == set()
        assert _files(warm, project) == [
            "src/app/__init__.py",
            "src/app/core.py",
            "src/app/errors.py",
            "tests/typing/use.py",
        ]
        assert OUTSIDE not in _why(warm, core)
