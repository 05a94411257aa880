"""The session pool: which server answers a path, and one session per project's server,
made on first need (started only by a question)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.workspace import Workspace


def _workspace(root: Path) -> Workspace:
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "pool"\n')
    (root / "pkg").mkdir()
    (root / "app.py").write_text("import pkg\n")
    (root / "pkg" / "__init__.py").write_text("")
    return Workspace(root, log_dir=root.parent / "logs")


def test_the_files_of_one_project_share_one_session_not_started(tmp_path: Path) -> None:
    ws = _workspace(tmp_path / "root")
    try:
        pool = ws.pool
        app, init = ws.root / "app.py", ws.root / "pkg" / "__init__.py"
        session = pool.session_for(app)
        assert pool.session_for(init) is session
        assert (session.state, session.pid, session.folders) == ("stopped", None, [ws.root])
        definition = pool.definition_for(app)
        assert pool.session(definition, ws.root) is session
        assert pool.sessions == {pool.key(definition, ws.root): session}
        assert ws.sessions is pool.sessions  # the workspace's are the pool's
    finally:
        asyncio.run(ws.close())


def test_a_file_no_server_handles_is_refused_naming_the_extensions_known(tmp_path: Path) -> None:
    ws = _workspace(tmp_path / "root")
    try:
        notes = ws.root / "notes.xyz"
        assert ws.pool.handler(notes) is None
        with pytest.raises(InvalidInput) as refused:
            ws.pool.session_for(notes)
        message = str(refused.value)
        assert message.startswith(
            "no language server handles notes.xyz (.xyz); lspd knows these extensions: "
        )
        assert ".py" in message.rpartition(": ")[2].split(", ")
        assert ws.pool.sessions == {}
    finally:
        asyncio.run(ws.close())
