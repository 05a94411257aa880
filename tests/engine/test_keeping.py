"""The daemon's background keeping of the committed state's result (`engine/keeping.py`): a real
daemon on a git repository and basedpyright makes HEAD's result after `serve` with no
question asked, a baseline reads it without checking HEAD again, and a commit (HEAD moving)
makes the new HEAD's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp import Client

from lspd.engine import keeping
from lspd.engine.kept_memory import CommittedMemory, kept_folder, memory_of
from lspd.ops import check_memory
from lspd.workspace import Workspace
from tests.cli.test_check import lspd_check
from tests.conftest import copy_fixture
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.ops.test_baseline import SIGNATURE, TWO_ARGUMENTS, committed, edit, git


def wait_for(done: Callable[[], bool], timeout: float = 240.0) -> None:
    """Until `done` holds (the daemon's thread makes it so), at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the daemon did not get there in time"
        time.sleep(0.1)


def committed_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Python fixture committed to git, lspd's state apart, HEAD looked at every 0.2 s."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(keeping, "INTERVAL_S", 0.2)
    return committed(copy_fixture("py", tmp_path))


def kept(running: ThreadDaemon) -> tuple[Workspace, CommittedMemory]:
    """The daemon's workspace and its memory of kept results, once HEAD's is kept."""
    ws = running.daemon.ws
    assert ws is not None
    memory = memory_of(ws)
    wait_for(lambda: memory.state is not None)
    return ws, memory


def test_heads_result_is_kept_after_serve_and_again_when_head_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = committed_root(tmp_path, monkeypatch)
    head = git(root, "rev-parse", "HEAD").strip()
    with thread_daemon(root, prewarm=False) as running:
        ws, memory = kept(running)
        assert memory.state is not None and memory.state.key.commit == head
        # a clean tree: its check was HEAD's; and the session's start, kept beside it
        assert (memory.made, memory.state.asked) == (2, 0)
        assert memory.session is not None and memory.session.key.commit == "session"
        assert [p.name for p in kept_folder(ws).glob("*.json")] == [memory.state.key.name()]
        edit(root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
        done = lspd_check(root, "--baseline", "HEAD")
        assert done.returncode == 1, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == (
            'pkg/app.py:5:15: error: Argument missing for parameter "loud" [reportCallIssue]'
        )
        assert memory.made == 2  # HEAD was not checked again for the question
        git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "b")
        moved = git(root, "rev-parse", "HEAD").strip()
        wait_for(lambda: memory.state is not None and memory.state.key.commit == moved)
        assert memory.made == 3  # the session's is not made again
        assert len(list(kept_folder(ws).glob("*.json"))) == 2
        again = lspd_check(root, "--baseline", "HEAD")
        assert again.returncode == 0, again.stdout + again.stderr
        assert again.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, 8 unchanged; ")
        assert f"HEAD moved from {head[:12]} to {moved[:12]}: its result made again" in again.stdout
        assert memory.made == 3
        app = (root / "pkg/app.py").read_text()
        (root / "pkg/app.py").write_text(app + "\n")
        later = lspd_check(root, "--baseline", "HEAD")  # said once, by the first answer
        (root / "pkg/app.py").write_text(app)
        assert later.returncode == 0 and "HEAD moved" not in later.stdout, later.stdout
        assert f"against the kept result of {moved[:12]} (kept)" in later.stdout
    assert git(root, "status", "--porcelain") == ""  # nothing written into the repository


def test_servers_stopped_after_idle_are_not_started_again_to_keep_a_moved_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pull in a workspace nobody asks about moves HEAD: keeping its result would start every
    # server the idle timeout stopped; it waits for the next question instead.
    root = committed_root(tmp_path, monkeypatch)
    with thread_daemon(root, prewarm=False, idle_timeout=2) as running:
        ws, memory = kept(running)
        wait_for(lambda: all(s.state == "stopped" for s in ws.pool.regular()))
        git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q",
            "--allow-empty", "-m", "moved")  # fmt: skip
        moved = git(root, "rev-parse", "HEAD").strip()
        time.sleep(20 * keeping.INTERVAL_S)  # what must not happen: no event to wait on
        assert [s.state for s in ws.pool.regular()] == ["stopped"] and memory.made == 2
        done = lspd_check(root, "pkg/app.py")  # a question starts the server again
        assert done.returncode in (0, 1), done.stdout + done.stderr
        wait_for(lambda: memory.state is not None and memory.state.key.commit == moved)
        assert memory.made == 3


GENERATED = 300  # modules: a cold basedpyright check of them takes a while on a loaded machine
WRONG_EVERY = 50  # every 50th module has one error, kept in HEAD's result
HOVER_BOUND_S = 5.0  # a hover's answer while the background check runs (a loaded machine)


def generated(root: Path) -> list[str]:
    """`GENERATED` modules under pkg/gen, each importing one before it; their paths."""
    folder = root / "pkg/gen"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    paths = []
    for i in range(GENERATED):
        j = i // 2  # a tree of imports: a chain 300 deep exceeds basedpyright's 256
        before = f"from pkg.gen.mod_{j} import Item{j}\n" if i else ""
        older = f"\n\ndef older_{i}() -> Item{j}:\n    return Item{j}(1)\n" if i else ""
        wrong = 'wrong: int = "text"\n' if i % WRONG_EVERY == 0 else ""
        body = (
            f"{before}{wrong}\n\nclass Item{i}:\n"
            f"    def __init__(self, size: int) -> None:\n        self.size = size\n\n"
            f"    def grown(self, by: int) -> 'Item{i}':\n"
            f"        return Item{i}(self.size + by)\n\n\n"
            f"def made_{i}(size: int) -> list[Item{i}]:\n"
            f"    return [Item{i}(n).grown({i}) for n in range(size)]\n{older}"
        )
        (folder / f"mod_{i}.py").write_text(body)
        paths.append(f"pkg/gen/mod_{i}.py")
    return paths


@pytest.mark.anyio
async def test_a_hover_is_answered_while_heads_result_is_made_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(keeping, "INTERVAL_S", 0.2)
    root = copy_fixture("py", tmp_path)
    paths = generated(root)
    head = git(committed(root), "rev-parse", "HEAD").strip()
    hover = {"path": "pkg/app.py", "line": 5, "column": 5}
    with thread_daemon(root, prewarm=False) as running:
        ws = running.daemon.ws
        assert ws is not None
        memory, checks = memory_of(ws), check_memory.memory_of(ws)
        while checks.running is None or checks.running.done < 8:  # the background check runs
            assert memory.state is None, "the background check ended before the hover"
            await asyncio.sleep(0.05)
        async with Client(running.url) as mcp:
            began = time.monotonic()
            answer = await mcp.call_tool("hover", hover)
            took = time.monotonic() - began
            unmade = memory.state is None
            # Unsaved text holds the gate alone: it waits for the files being asked only.
            content = (root / "pkg/app.py").read_text() + "\nbroken: int = 'text'\n"
            unsaved = {"path": "pkg/app.py", "content": content}
            overlaid = await mcp.call_tool("diagnostics", unsaved)
            still = checks.running is not None
        assert "greeter: Greeter" in str(answer.content), answer.content
        assert unmade, "the hover was answered only once the background check had ended"
        assert took < HOVER_BOUND_S, f"the hover waited {took:.1f} s behind the background check"
        assert not overlaid.is_error and "reportAssignmentType" in str(overlaid.content)
        assert still, "the unsaved text was checked only once the background check had ended"
        deadline = time.monotonic() + 600
        while memory.state is None:  # it goes on once the hover is answered
            assert time.monotonic() < deadline, "HEAD's result was never kept"
            await asyncio.sleep(0.1)
        state = memory.state
        assert (state.key.commit, memory.made, state.asked) == (head, 2, 0)  # and the session's
        assert set(paths) <= set(state.files)
        wrong = [
            path
            for path in paths
            if any(seen.severity == "error" for seen in state.files[path].diagnostics)
        ]
        every = [f"pkg/gen/mod_{i}.py" for i in range(0, GENERATED, WRONG_EVERY)]
        assert wrong == every
