"""A module's held text reaches an importer another server process answers
(`engine/python_across.py`): tool.py at the root (the root's basedpyright) imports
api/app/core.py, of a project with a basedpyright of its own (api/pyrightconfig.json and
api/.venv, another interpreter) or one mypy judges (api/pyproject.toml's [tool.mypy]); core's
return type changes from int to str. basedpyright's CLI says 0 errors at HEAD and
tool.py:3 reportAssignmentType now. Before, HEAD's state and a preview held core's other
text in its own process alone (or mypy's copy): `check --baseline HEAD` said 0 new,
1 unchanged (`diagnostics tool.py --baseline HEAD` the same), the preview 0 new, and the stop
gate let the error through. Real basedpyright, real mypy 2.4.1, a one-shot question and a
warm watched workspace, the hook on a daemon."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import python_across
from lspd.engine.python_across import across
from lspd.engine.python_imports import Name, touched
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import Changes
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from lspd.workspace.overlay import overlaid
from tests.cli.test_hook import edit, hook, said, stop
from tests.conftest import answer, warm_root
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.engine.test_affected import written
from tests.engine.test_configured import pyright_rows
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, environment, mypy_env

OWN = {"api/pyrightconfig.json": "{}\n"}  # api/ a basedpyright process of its own
MYPY = {"api/pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n'}  # mypy judges api/
FILES = {
    ".gitignore": ".venv\n",
    "api/app/__init__.py": "",
    "api/app/core.py": "def name(x: int) -> int:\n    return x\n",
    "tool.py": "from api.app.core import name\n\nv: int = name(1)\n",
}
CHANGED = {"api/app/core.py": "def name(x: int) -> str:\n    return str(x)\n"}
NEW = [("tool.py", 3, "reportAssignmentType")]
READ = ["core.py", "tool.py"]  # the files asked whose imports `across` reads


def layout(tmp_path: Path, config: dict[str, str]) -> Path:
    """`FILES` and `config` committed, api/.venv another interpreter than the root's (mypy's
    environment where mypy judges api/)."""
    root = written(tmp_path / "p", FILES | config)
    env = mypy_env() if config == MYPY else environment("no-mypy")
    os.symlink(env, root / "api/.venv")
    return committed(root.resolve())


def rows(changes: Changes) -> list[tuple[str, int, str]]:
    return [(d.path or "", d.line, d.code or "") for d in changes.introduced]


def truth(root: Path) -> Counter[tuple[str, int, str]]:
    """basedpyright's CLI errors at the root (tool.py's)."""
    return Counter((p, line, rule) for (p, line, rule, _), n in pyright_rows(root).items())


async def since_head(ws: Workspace) -> Changes:
    changes = (await workspace_diagnostics(ws, baseline="HEAD")).changes
    assert changes is not None
    return changes


async def tool_since_head(ws: Workspace) -> Changes:
    """`diagnostics tool.py --baseline HEAD`'s comparison."""
    changes = (await diagnostics(ws, "tool.py", baseline="HEAD")).changes
    assert changes is not None
    return changes


@pytest.mark.parametrize("config", [OWN, MYPY], ids=["own-process", "mypy"])
def test_head_s_text_reaches_the_importer(tmp_path: Path, config: dict[str, str]) -> None:
    root = layout(tmp_path, config)
    before = truth(root)
    written(root, CHANGED)
    after = truth(root)
    assert after - before == Counter(NEW)  # the checker's own runs at HEAD and now
    if config == MYPY:
        assert cli_errors(root / "api") == []  # mypy: core.py is fine either way
    one_shot = answer(root, since_head)  # before: [], unchanged 1
    assert (rows(one_shot), one_shot.fixed, one_shot.unchanged) == (NEW, [], 0)
    file = answer(root, tool_since_head)
    assert (rows(file), file.fixed, file.unchanged) == (NEW, [], 0)  # before: the same


@pytest.mark.parametrize("config", [OWN, MYPY], ids=["own-process", "mypy"])
def test_a_warm_workspace_s_head_and_preview(tmp_path: Path, config: dict[str, str]) -> None:
    """A watched workspace: the preview of the change (before: 0 new), then HEAD's state
    after it is written; the root's server holds the disk's text again afterwards."""
    root = layout(tmp_path, config)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        change: list[dict[str, str | None]] = [
            {"path": p, "content": t} for p, t in CHANGED.items()
        ]
        previewed = warm.run(preview(warm.ws, change)).changes
        assert (rows(previewed), previewed.fixed) == (NEW, [])
        written(root, CHANGED)
        since = warm.run(since_head(warm.ws))
        assert (rows(since), since.fixed, since.unchanged) == (NEW, [], 0)
        disk = warm.run(workspace_diagnostics(warm.ws, ["tool.py"]))
        assert [(d.path, d.line, d.code) for d in disk.diagnostics] == NEW


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The own-process layout, its daemon running."""
    root = layout(tmp_path, OWN)
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        yield daemon


def test_the_stop_gate_blocks_on_the_importer_s_error(served: ThreadDaemon) -> None:
    """Before: the stop let it through (HEAD's state held the error too)."""
    root = served.daemon.root
    written(root, CHANGED)
    hook("claude-code", edit(root / "api/app/core.py"), root)
    blocked = said(hook("claude-code", stop(root), root))
    assert blocked["decision"] == "block", blocked
    assert "introduced 1 new error(s) since HEAD:\ntool.py:3:10:" in blocked["reason"]
    assert "[reportAssignmentType]" in blocked["reason"]


@pytest.mark.parametrize("config", [{}, OWN], ids=["one-process", "own-process"])
def test_one_process_reads_no_import(
    tmp_path: Path, config: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One server process answering core.py and tool.py (the common case) holds HEAD's
    text already: `across` reads no file's imports (before, every asked file's, each held
    question: SQLAlchemy's 255 files, 0.6-3 s). api/ a process of its own: both read, the
    root's server to hold core's text."""
    root = layout(tmp_path, config)
    core, tool, text = root / "api/app/core.py", root / "tool.py", CHANGED["api/app/core.py"]
    read: list[str] = []

    def reading(at: Path, path: Path, source: str) -> set[Name]:
        read.append(path.name)
        return touched(at, path, source)

    async def held(ws: Workspace) -> dict[Path, list[Path]]:
        async with ws.gate.exclusive(), overlaid(ws, {core: text}, [tool]):
            found = across(ws, [core, tool], {core: text})
        return {session.root: sorted(texts) for session, texts in found.items()}

    monkeypatch.setattr(python_across, "touched", reading)
    for warm in warm_root(root, tmp_path / "logs"):
        want = ({}, []) if not config else ({root: [core]}, READ)
        assert (warm.run(held(warm.ws)), sorted(read)) == want
