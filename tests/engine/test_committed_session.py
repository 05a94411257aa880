"""The `session` baseline of a project no server of lspd reads file by file: the TypeScript
builder reads the disk itself, so before the session's result was made lspd had seen no
text of the gate's files, and an edit after it was no change since the session ("0 changed
file(s)"): the numbers came from the whole check, but the hook and the stop gate, which
compare the edited files among the changed ones, said nothing of the error an edit made
(`engine/committed._first_read`). Real builder (lspd's TypeScript 5.9), no git, tsc -p
asserted beside it."""

from __future__ import annotations

from pathlib import Path

from lspd.ops import progressive_kept
from lspd.ops.check import workspace_diagnostics
from lspd.ops.progressive import Progress
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.test_tsbuilder_syntax import CONFIG, CORE, USER, tsc_of

WRONG = CORE + 'export const wrong: number = "x";\n'


def _project(root: Path) -> Path:
    root = written(root, {"tsconfig.json": CONFIG, "src/core.ts": CORE, "src/user.ts": USER})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    return root


def test_an_edit_after_the_session_began_is_a_change_since_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts")
    core = root / "src/core.ts"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        began = warm.run(workspace_diagnostics(warm.ws, baseline="session")).changes
        assert began is not None and (began.introduced, began.unchanged) == ([], 1)
        core.write_text(WRONG)
        assert len(tsc_of(root, tmp_path, {})) == 2  # user.ts's TS2322 and core.ts's
        since = warm.run(workspace_diagnostics(warm.ws, baseline="session")).changes
        assert since is not None
        assert [(d.path, d.line, d.code) for d in since.introduced] == [("src/core.ts", 2, "2322")]
        assert (since.changed, since.unchanged) == (["src/core.ts"], 1)
        progress = Progress("session", [core])  # the hook's and the stop gate's check
        warm.run(progressive_kept.run(warm.ws, progress))
        assert progress.failed is None and progress.changed == [core]
        found = [(i.diagnostic.path, i.diagnostic.code) for i in progress.introduced]
        assert found == [("src/core.ts", "2322")]


def test_in_git_the_session_begins_at_the_first_head_question(tmp_path: Path) -> None:
    """In a git repository the session's result is made beside HEAD's at the first
    question (`committed._session_start`): its files are first seen there too, or an edit
    after it was no change since the session (none of them opened by a server)."""
    root = _project(tmp_path / "ts")
    (root / ".gitignore").write_text("node_modules\n")
    committed(root)
    core = root / "src/core.ts"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        head = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert head is not None and (head.introduced, head.unchanged) == ([], 1)
        core.write_text(WRONG)
        since = warm.run(workspace_diagnostics(warm.ws, baseline="session")).changes
        assert since is not None
        assert [(d.path, d.line, d.code) for d in since.introduced] == [("src/core.ts", 2, "2322")]
        assert (since.changed, since.unchanged) == (["src/core.ts"], 1)
