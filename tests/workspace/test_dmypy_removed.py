"""A state that removes Python files the warm dmypy holds is answered as mypy answers it:
dmypy's fine-grained update of a removal keeps what mypy, run on the state, never says
(`from app import models` after app/models.py went: a stale `import-not-found` beside
mypy's `attr-defined`) and loses what it does (app/sub/__init__.py gone: `Module "app.sub"
has no attribute "X"`). A module renamed, a package folder deleted, and a module added
back are each mypy's answer too (the real mypy 2.4.1, and 1.19.1); a module nothing names
goes in an update of the same server."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.workspace.dmypy import Dmypy
from tests.workspace.mypy_env import cli_errors, environment, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/models.py": "class User:\n    name: str = ''\n",
    "app/sub/__init__.py": "X = 1\n",
    "app/sub/m.py": "Y = 2\n",
    "app/use.py": (
        "from app import models\nfrom app.sub import X\nfrom app.sub.m import Y\n\n"
        "z: int = models.User().name\n"
    ),
    "app/more.py": "import app.sub.m\n\nw: str = app.sub.m.Y\n",
}

Shown = list[tuple[str, int, int, str | None, str]]


def answers(
    root: Path, daemon: Dmypy, states: list[dict[str, bytes]]
) -> tuple[list[Shown], list[int | None]]:
    """Each state's errors by the same daemon object, in turn, and its server's pid after
    each (its server stopped after)."""

    async def run() -> tuple[list[Shown], list[int | None]]:
        found, pids = [], []
        try:
            for state in states:
                output = await daemon.check([], state)
                found.append(sorted(shown(root, parse(output, root, daemon.mirror.directory))))
                pids.append(daemon.pid)
        finally:
            await daemon.stop()
        return found, pids

    return asyncio.run(run())


def truth(root: Path) -> tuple[dict[str, bytes], Shown]:
    """The disk's state and the errors of the project's own mypy on it."""
    return held(root), sorted(cli_errors(root))


@pytest.mark.parametrize("version", ["2.4.1", "1.19.1"])
def test_a_removal_is_answered_as_mypy_answers_it(tmp_path: Path, version: str) -> None:
    env = mypy_env() if version == "2.4.1" else environment(f"mypy-{version}", f"mypy=={version}")
    root = project(tmp_path / "p", FILES, env)
    head, head_errors = truth(root)
    assert [row[1:4] for row in head_errors] == [(3, 10, "assignment"), (5, 10, "assignment")]
    kept = {name: (root / name).read_text() for name in ("app/models.py", "app/sub/__init__.py")}
    (root / "app/models.py").unlink()
    (root / "app/sub/__init__.py").unlink()
    deleted, deleted_errors = truth(root)
    # mypy's own: the package's attribute, not the module's import, and X gone with it
    assert [row[1:4] for row in deleted_errors] == [
        (3, 10, "assignment"),
        (1, 1, "attr-defined"),
        (2, 1, "attr-defined"),
    ]
    (root / "app/sub/__init__.py").write_text(kept["app/sub/__init__.py"])
    (root / "app/domain.py").write_text(kept["app/models.py"])  # renamed: models -> domain
    renamed, renamed_errors = truth(root)
    shutil.rmtree(root / "app/sub")  # the package folder deleted
    folder, folder_errors = truth(root)
    assert folder_errors != renamed_errors
    (root / "app/sub").mkdir()
    for name, text in {**kept, "app/sub/m.py": FILES["app/sub/m.py"]}.items():  # back
        (root / name).write_text(text)
    back, back_errors = truth(root)
    assert back_errors == head_errors
    # in turn: models.py renamed (git mv), then it and app/sub/__init__.py deleted, then
    # app/sub's folder, then the modules back
    states = [head, renamed, deleted, folder, back]
    found, pids = answers(root, daemon_of(root, tmp_path), states)
    assert found == [head_errors, renamed_errors, deleted_errors, folder_errors, back_errors]
    assert len(set(pids[:4])) == 4  # a new server at each state removing a file
    assert pids[4] == pids[3]  # modules added back: the same server, warm


def test_a_module_nothing_names_goes_warm(tmp_path: Path) -> None:
    """A removal no other file names (an unimported leaf) stays an update of the same
    server, and is mypy's answer: its errors go with it."""
    root = project(tmp_path / "p", {**FILES, "app/leaf.py": "broken: int = 'leaf'\n"})
    head, head_errors = truth(root)
    assert [row[0] for row in head_errors] == ["app/leaf.py", "app/more.py", "app/use.py"]
    (root / "app/leaf.py").unlink()
    gone, gone_errors = truth(root)
    assert gone_errors == head_errors[1:]
    found, pids = answers(root, daemon_of(root, tmp_path), [head, gone])
    assert found == [head_errors, gone_errors]
    assert pids[0] == pids[1]
