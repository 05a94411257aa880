"""mypy run once (`dmypy_answer.run_once`) is read once: its answer (`mypy_said.output_of`) is
made where it ran, and the cache slot it ran on is dropped only after a crash. A stop mypy
1.13 makes at a file shadowing a library module (exit 2, on stderr) is its answer, read
with one look for that stop (two before: the crash test and the answer each made it), its
slot kept. Real mypy 1.13, against its own run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lspd.engine.mypy_check import MypyRun, run_mypy
from lspd.engine.mypy_project import project_of
from lspd.workspace import Workspace, mypy_once, mypy_said
from lspd.workspace.mypy_said import shadowing
from tests.conftest import answer
from tests.ops.test_mypy_held_files import mypy_113
from tests.workspace.mypy_env import mypy_ran, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app", "scripts"]\nstrict = true\n',
    "app/__init__.py": "",
    # an ignore under `strict` (unused ignores reported): mypy run once (`needs_once`)
    "app/main.py": "x: int = 1  # type: ignore[assignment]\n",
    "scripts/types.py": "version = 1\n",
}


def test_a_shadowing_stop_is_read_once_and_its_cache_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path / "p", FILES, mypy_113())
    done = mypy_ran(root, exits=(2,))
    assert 'mypy: "scripts/types.py" shadows library module "types"' in done.stderr
    looks: list[int] = []
    drops: list[Path] = []

    def counted(*outputs: str) -> list[str]:
        looks.append(len(outputs))
        return shadowing(*outputs)

    monkeypatch.setattr(mypy_said, "shadowing", counted)
    monkeypatch.setattr(mypy_once.Caches, "drop", lambda _, slot: drops.append(slot))

    async def ask(ws: Workspace) -> MypyRun:
        judged = project_of(ws, root / "app/main.py")
        assert judged is not None
        return await run_mypy(ws, judged)

    run = answer(root, ask)
    assert run.once and run.stopped
    said = [(e.path, e.line, e.column, e.message) for es in run.errors.values() for e in es]
    message = '"scripts/types.py" shadows library module "types"'
    assert said == [(root / "scripts/types.py", 1, 1, message)]
    assert (looks, drops) == ([2], [])


def test_a_crash_drops_its_cache_slot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin failing at its import: mypy's exit 2, its words on stderr, a failure said
    (`MypyFailed`), its slot dropped."""
    config = '[tool.mypy]\nfiles = ["app"]\nstrict = true\nplugins = ["crash.py"]\n'
    files = {"pyproject.toml": config, "app/main.py": FILES["app/main.py"]}
    files["crash.py"] = "raise RuntimeError('the plugin fails')\n"
    root = project(tmp_path / "p", files, mypy_113())
    drops: list[Path] = []
    monkeypatch.setattr(mypy_once.Caches, "drop", lambda _, slot: drops.append(slot))

    async def ask(ws: Workspace) -> MypyRun:
        judged = project_of(ws, root / "app/main.py")
        assert judged is not None
        return await run_mypy(ws, judged)

    failed = 'Error importing plugin "crash.py": the plugin fails'
    with pytest.raises(mypy_said.MypyFailed, match=re.escape(failed)):
        answer(root, ask)
    assert len(drops) == 1
