"""HEAD committed with a syntax error its checker stopped at (tsc: a program's syntax errors
alone; mypy: exit 2 at the blocking file), then fixed: the errors the checker says once it
goes on were not checked at HEAD, so `check --baseline HEAD` and `diagnostics --baseline
HEAD` against HEAD's kept result (`engine/committed.py`, `engine/kept.py`) say them in
`baseline_stopped`, not introduced, whether the kept result was made from a clean tree (the
whole check's stop) or a dirty one (the run of HEAD's texts). Before, the kept result
recorded no stop: user.ts's TS2322 was introduced. A kept result saved in the format before
stops (2) is recomputed, never trusted. Real builder (lspd's TypeScript 5.9), mypy 2.4.1 with
its own run asserted beside it."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

from lspd.engine.kept import KeptState, StateKey, load, save
from lspd.engine.seen import FileSeen
from lspd.engine.stops import stop_of
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_baseline import committed
from tests.ops.test_file_since_kept_stops import fixed_where_mypy_stopped, ts_project
from tests.ops.test_mypy_held_files import BROKEN as MYPY_BROKEN
from tests.ops.test_mypy_held_files import FILES, TARGETS, mypy_stopped, truth
from tests.workspace.mypy_env import mypy_env, project
from tests.workspace.test_tsbuilder_syntax import BROKEN, CORE, STOPPED, tsc_of


def broken_head(tmp_path: Path) -> Path:
    """core.ts's syntax error and user.ts's type error committed."""
    root = ts_project(tmp_path)
    (root / "src/core.ts").write_text(BROKEN)
    subprocess.run(["git", "commit", "-qam", "broken"], cwd=root, check=True)
    return root


def fixed_since_head(warm: Warm) -> None:
    """core.ts fixed: user.ts's TS2322 was not checked at HEAD, not introduced."""
    since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
    changes = since.changes
    assert changes is not None
    assert "against the kept result of" in changes.scope
    assert (changes.introduced, changes.stopped, changes.unchanged) == ([], [], 0)
    assert [(d.path, d.line, d.code) for d in changes.fixed] == [("src/core.ts", 4, "1005")]
    assert [s.model_dump() for s in changes.baseline_stopped] == [STOPPED]
    one = warm.run(diagnostics(warm.ws, "src/user.ts", baseline="HEAD")).changes
    assert one is not None and "against the kept result of" in one.scope
    assert (one.introduced, one.fixed, one.unchanged) == ([], [], 0)
    assert [s.model_dump() for s in one.baseline_stopped] == [STOPPED]


def test_what_tsc_did_not_check_at_head_is_not_introduced(tmp_path: Path) -> None:
    """HEAD's result kept from a clean tree: the whole check's stop."""
    root = broken_head(tmp_path)
    assert tsc_of(root, tmp_path, {}) == ["src/core.ts(4,1): error TS1005: '}' expected."]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        head = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert head is not None and head.introduced == []
        said = {**STOPPED, "files": [], "not_checked": 0}  # both stopped there: nothing hid
        assert (
            [s.model_dump() for s in head.stopped]
            == [s.model_dump() for s in head.baseline_stopped]
            == [said]
        )
        (root / "src/core.ts").write_text(CORE)
        assert tsc_of(root, tmp_path, {})[0].startswith("src/user.ts(2,14): error TS2322")
        fixed_since_head(warm)


def test_what_tsc_did_not_check_at_head_is_not_introduced_from_a_dirty_tree(
    tmp_path: Path,
) -> None:
    """HEAD's result made with the fix on disk: the builder's run of HEAD's core.ts stops."""
    root = broken_head(tmp_path)
    (root / "src/core.ts").write_text(CORE)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        fixed_since_head(warm)


def test_a_stop_of_the_work_tree_alone_is_not_head_s(tmp_path: Path) -> None:
    """HEAD clean, its result made while core.ts's syntax error is on disk (the disk's
    check stopped; the run of HEAD's core.ts did not): HEAD records no stop, so a type error
    written after the fix is introduced, not hidden as unknown."""
    root = ts_project(tmp_path)
    (root / "src/core.ts").write_text(BROKEN)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        broken = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert broken is not None and broken.baseline_stopped == []
        assert [s.model_dump() for s in broken.stopped] == [STOPPED]
        (root / "src/core.ts").write_text(CORE + "export const z: string = 1;\n")
        changes = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert changes is not None and (changes.stopped, changes.baseline_stopped) == ([], [])
        assert [(d.path, d.line, d.code) for d in changes.introduced] == [
            ("src/core.ts", 2, "2322")
        ]
        assert changes.fixed == []  # user.ts's TS2322, checked at HEAD, is there still


def test_what_mypy_did_not_check_at_head_is_not_introduced(tmp_path: Path) -> None:
    """tests/test_mock.py's syntax error committed (mypy exits 2 there, app/main.py not
    read), then fixed: app/main.py's errors (mypy's own run) are not introduced."""
    root = project(tmp_path / "p", FILES, mypy_env())
    test_mock = root / "tests/test_mock.py"
    test_mock.write_text(FILES["tests/test_mock.py"] + MYPY_BROKEN)
    committed(root)
    mypy_stopped(root, *TARGETS)
    fixed = truth(root, tmp_path, {"tests/test_mock.py": FILES["tests/test_mock.py"]})
    assert {file for file, _, _ in fixed} == {"app/main.py"}

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        head = await workspace_diagnostics(ws, baseline="HEAD")  # kept from the clean tree
        test_mock.write_text(FILES["tests/test_mock.py"])
        return head, await workspace_diagnostics(ws, baseline="HEAD")

    head, since = answer(root, ask)
    assert head.changes.introduced == []
    fixed_where_mypy_stopped(since.changes, len(fixed))


def test_a_kept_result_saved_without_stops_is_made_again(tmp_path: Path) -> None:
    """A stop is kept with the result; a file of format 2 (no stops) is not trusted, nor
    one of format 3 (a mypy stop named its targets alone: a module it follows into, not
    checked either, was not named; dmypy's update stopped at a syntax error was no stop),
    nor one of format 4 (dmypy's update blocked at a `break` outside a loop was no stop)."""
    key = StateKey("c" * 40, "t", "k")
    stop = stop_of("tsc", [("src/core.ts", 4)], ["src/user.ts"])
    state = KeptState(key, {"a.ts": FileSeen("a.ts", ())}, 1.0, 0, frozenset(), (stop,))
    saved = save(tmp_path, state)
    assert load(tmp_path, key) == state
    whole = json.loads(saved.read_text())
    body = json.loads(whole["body"])
    del body["stopped"]
    text = json.dumps(body, separators=(",", ":"))
    checksum = hashlib.sha256(text.encode()).hexdigest()
    saved.write_text(json.dumps({"format": 2, "checksum": checksum, "body": text}))
    assert load(tmp_path, key) is None
    save(tmp_path, state)
    whole = json.loads(saved.read_text())
    for older in (3, 4):
        saved.write_text(json.dumps({**whole, "format": older}))
        assert load(tmp_path, key) is None
