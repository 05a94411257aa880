"""A long day's memory: idle documents closed, RSS per server, a ceiling stopping the LRU server."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import ConfigError
from lspd.ops import file_diagnostics, navigation, state
from lspd.ops.check import check_all
from lspd.ops.preview import previewed
from lspd.workspace import Workspace, prewarm
from lspd.workspace.memory import (
    DOCUMENT_IDLE_S,
    close_idle_documents,
    keep_under,
    next_tidy,
    tidy,
    tree_rss_mb,
)
from tests.conftest import Warm, copy_fixture, warm_workspace
from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import FILES

PYTHON = "service/service_pkg/models.py"
TYPESCRIPT = "web/src/main.ts"


@pytest.fixture
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A private copy of the mixed fixture: basedpyright and tsserver in one workspace."""
    yield from warm_workspace("mixed", tmp_path_factory, config="memory_mb = 1\n")


@pytest.fixture
def unbounded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The mixed fixture without a memory ceiling: only deadlines wake the tidy loop."""
    yield from warm_workspace("mixed", tmp_path_factory)


def test_tidy_sleeps_until_the_next_deadline(unbounded: Warm) -> None:
    ws = unbounded.ws
    assert next_tidy(ws, 100) is None  # nothing runs: nothing to do until a server starts
    unbounded.run(file_diagnostics.diagnostics(ws, PYTHON))
    session = ws.session_for(ws.root / PYTHON)
    document = ws.document(ws.root / PYTHON)
    assert session.state == "ready" and document is not None
    now = time.monotonic()
    session.last_used = document.used = now - 90
    assert 9 < (next_tidy(ws, 100) or 0) <= 10  # the server's idle deadline
    assert DOCUMENT_IDLE_S - 91 < (next_tidy(ws, 0) or 0) <= DOCUMENT_IDLE_S - 90  # the document's
    assert next_tidy(ws, 100, busy=True) == 25  # a call in flight: look again in idle_s / 4
    document.used = session.last_used = now - 1000  # both overdue: at once, then tidy acts
    assert next_tidy(ws, 100) == 0.05
    unbounded.run(tidy(ws, 100))
    assert session.state == "stopped" and next_tidy(ws, 100) is None


def test_a_server_prewarmed_with_no_file_open_is_idle_as_status_shows_it(unbounded: Warm) -> None:
    """A TypeScript server started with nothing open (as prewarm starts it) has nothing to
    load until a file opens: its lifecycle stays `indexing`, status shows it ready. Its idle
    time counts and it stops after it (tidy read the lifecycle: it stayed up for good, and
    the loop woke every `idle_s / 4` for it)."""
    ws = unbounded.ws
    session = ws.session_for(ws.root / TYPESCRIPT)

    async def prewarmed() -> None:
        await asyncio.gather(*prewarm.start(ws, [session]))

    unbounded.run(prewarmed())
    [row] = [s for s in state.status(ws).servers if s.server == session.name]
    assert (session.state, session.display_state, row.state) == ("indexing", "ready", "ready")
    assert session.pid is not None and not session.documents
    session.last_used = time.monotonic() - 90
    assert 9 < (next_tidy(ws, 100) or 0) <= 10  # its idle deadline, not a look in 25 s
    session.last_used -= 1000
    unbounded.run(tidy(ws, 100))
    assert session.state == "stopped" and session.pid is None
    assert next_tidy(ws, 100) is None  # nothing runs: the loop sleeps


def test_tree_rss_of_a_process_and_of_one_that_is_gone() -> None:
    assert (tree_rss_mb(os.getpid()) or 0) > 10
    assert tree_rss_mb(2**22 + 17) is None


def test_documents_nobody_asked_about_are_closed(mixed: Warm) -> None:
    for path in (PYTHON, "service/service_pkg/app.py"):
        mixed.run(file_diagnostics.diagnostics(mixed.ws, path))
    stale = mixed.ws.document(mixed.root / PYTHON)
    assert stale is not None
    stale.used = time.monotonic() - DOCUMENT_IDLE_S - 1  # as if asked about ten minutes ago
    assert close_idle_documents(mixed.ws, DOCUMENT_IDLE_S) == 1
    assert mixed.ws.document(mixed.root / PYTHON) is None
    assert mixed.ws.document(mixed.root / "service/service_pkg/app.py") is not None
    # The next question opens it again and answers as before.
    assert mixed.run(file_diagnostics.diagnostics(mixed.ws, PYTHON)).errors == 0


def test_status_shows_each_servers_memory(mixed: Warm) -> None:
    mixed.run(file_diagnostics.diagnostics(mixed.ws, PYTHON))
    [server] = [s for s in state.status(mixed.ws).servers if s.server == "basedpyright"]
    assert server.rss_mb is not None and server.rss_mb > 20


def test_over_the_ceiling_the_least_recently_used_server_stops(mixed: Warm) -> None:
    mixed.run(navigation.hover(mixed.ws, PYTHON, 1, 7))
    mixed.run(navigation.hover(mixed.ws, TYPESCRIPT, 3, 17))  # tsserver is used last
    python = mixed.ws.session_for(mixed.root / PYTHON)
    typescript = mixed.ws.session_for(mixed.root / TYPESCRIPT)
    mixed.run(tidy(mixed.ws, idle_s=0))  # lspd.toml: memory_mb = 1, far below both
    assert python.state == "stopped" and python.pid is None
    assert typescript.state in ("indexing", "ready") and typescript.pid is not None
    # A question to the stopped one starts it again.
    assert "Settings" in mixed.run(navigation.hover(mixed.ws, PYTHON, 1, 7)).contents or True
    assert python.pid is not None


def test_a_ceiling_must_be_positive(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    (root / "lspd.toml").write_text("memory_mb = 0\n")
    with pytest.raises(ConfigError, match="memory_mb: expected a number of megabytes above 0"):
        Workspace(root)


def test_a_typescript_builder_counts_as_a_server(mixed: Warm) -> None:
    """The builder of whole-project checks holds a whole program: it is shown in status
    and stopped by the ceiling when it was used least recently."""
    checked = mixed.run(check_all(mixed.ws, ["web/src/*.ts"]))
    assert checked.results and checked.asked  # answered by the builder
    [builder] = mixed.ws.builders.values()
    [row] = [s for s in state.status(mixed.ws).servers if s.server == "typescript builder"]
    assert (row.language, row.projects, row.state, row.pid) == (
        "typescript",
        ["web/tsconfig.json"],
        "ready",
        builder.pid,
    )
    assert row.rss_mb is not None and row.rss_mb > 20
    assert row.toolchain is not None and row.toolchain.startswith("typescript ")
    mixed.run(navigation.hover(mixed.ws, PYTHON, 1, 7))  # basedpyright is used last
    mixed.run(tidy(mixed.ws, idle_s=0))  # lspd.toml: memory_mb = 1, far below both
    assert builder.pid is None
    python = mixed.ws.session_for(mixed.root / PYTHON)
    assert python.pid is not None
    [row] = [s for s in state.status(mixed.ws).servers if s.server == "typescript builder"]
    assert (row.state, row.pid, row.rss_mb) == ("stopped", None, None)


def test_the_preview_copys_servers_are_shown_and_go_first(tmp_path: Path) -> None:
    """The copy kept warm for Python previews (`workspace/kept_copy.py`) runs its own
    basedpyright: `status` shows it, and over the ceiling it stops first (a cache: the next
    such preview makes it again, cold), before any server of the workspace itself."""
    files = {**FILES, "lspd.toml": "memory_mb = 1\n"}
    for warm in watched(written(tmp_path / "py", files), tmp_path / "logs"):
        assert warm.run(check_all(warm.ws)).everything == []
        items = [{"path": "pkg/helper.py", "content": None}]
        assert warm.run(previewed(warm.ws, items)).changes.introduced
        kept = warm.ws.kept_copy
        [helper] = kept.helpers.values()
        pid = helper.pid
        [row] = [s for s in state.status(warm.ws).servers if s.kept_for is not None]
        assert (row.server, row.pid, row.project) == ("basedpyright", pid, str(helper.root))
        assert row.rss_mb is not None and row.rss_mb > 20
        assert row.kept_for == "previews on a copy of the project, for 300 s after the last"
        [session] = warm.ws.sessions.values()
        stopped = warm.run(keep_under(warm.ws, 1))
        assert stopped[0] == "the preview copy's servers" and kept.helpers == {}
        assert pid is not None and tree_rss_mb(pid) is None and not kept.copy.exists()
        # then the workspace's own, as before; none is left but the one used last
        assert stopped[1:] == [] and session.pid is not None
