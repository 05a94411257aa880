"""A TypeScript 7 project's checker through loading: its `tsc --lsp` answers diagnostics pulled
(`native_check.pulled`), never through `Session.diagnostics`, so its session never read as
having answered, and a hook whose check had compared nothing within its budget said
"lspd is loading typescript-language-server for rxjs7 (191 s since it started)" (rxjs 7.8.2 on
TypeScript 7.0.2, a new file's edit): a server that never runs there, named for the daemon's
age, after a dozen whole checks by `typescript-native`. Real TypeScript 7.0.2."""

from __future__ import annotations

from pathlib import Path

from lspd.cli.hook import edit_output
from lspd.daemon.hook_loading import restarted, still_loading
from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.workspace.toolchains import TS7_PINNED, typescript_committed

FILES = {
    "tsconfig.json": '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}\n',
    "src/a.ts": 'export const a: number = "a";\n',
}


def test_a_typescript_7_session_that_answered_a_check_is_not_loading(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "ts", FILES, TS7_PINNED)
    new = root / "src/new.ts"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        # no check yet: loading, said by the server that runs for the project
        assert still_loading(warm.ws, [new]) == ["typescript-native for ts"]
        result = warm.run(workspace_diagnostics(warm.ws, limit=100))
        assert [(d.path, d.line, d.code) for d in result.diagnostics] == [("src/a.ts", 1, "2322")]
        assert still_loading(warm.ws, [new]) == []
        assert still_loading(warm.ws, [root / "src/a.ts"]) == []


def test_a_server_started_again_is_said_loading_since_then(tmp_path: Path) -> None:
    """A check of many files restarts the first server (`engine/second_server`): until it
    answers again it is loading, and the hook says since when it started again (it said
    "the daemon started 914 s ago", as if lspd had loaded for a quarter of an hour)."""
    root = typescript_committed(tmp_path / "ts", FILES, TS7_PINNED)
    new = root / "src/new.ts"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, limit=100))
        assert restarted(warm.ws, [new]) is None  # its first process
        [session] = [s for s in warm.ws.sessions.values() if s.name == "typescript-native"]
        warm.run(session.stop())
        warm.run(session.start())
        assert restarted(warm.ws, [new]) == session.started_at
        assert still_loading(warm.ws, [new]) == ["typescript-native for ts"]
    loading = {"servers": ["typescript-native for ts"], "seconds": 914, "restarted": 2}
    said = edit_output("claude-code", {"complete": False, "loading": loading}, 3.0)
    assert said is not None
    assert "(started again 2 s ago; the daemon started 914 s ago)" in str(said)
