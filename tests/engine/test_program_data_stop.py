"""A JSON module's syntax error (`resolveJsonModule`, `{ "retries": 3` unclosed) on the paths
other than the whole check: a preview of the change (and of its fix), `diagnostics FILE
--baseline HEAD` of its importer, of a file whose HEAD error tsc leaves unchecked and of the
JSON itself, and the edit hook and the stop gate. tsc -p says the JSON's TS1005 alone and
stops: the preview introduces it, stopped there (known.ts's TS2322 unchecked, not fixed:
before, a preview was refused, its tsc -p on a copy 'did not answer'); the fix is the TS1005
fixed. Real TypeScript 7.0.2 and 5.4.5, their `tsc -p` on the written tree beside."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.cli.hook import stop_output
from lspd.daemon.feedback import Feedback
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm, warm_root
from tests.daemon.test_feedback_stopped import EDIT, STOP
from tests.engine.test_program_data_places import BROKEN, EDITED, JSON_STOP, SHARED, _project
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate

JSON = "shared/defaults.json"
STOPPED = [("tsc", [f"{JSON}:2"])]


@pytest.mark.parametrize("watch", [True, False], ids=["daemon", "one-shot"])
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_preview_and_a_files_baseline_say_tscs_stop(
    tmp_path: Path, version: str, watch: bool
) -> None:
    root = _project(tmp_path / "p", SHARED, version)
    for warm in warm_root(root, tmp_path / "logs", watch=watch):
        change = [{"path": JSON, "content": BROKEN}]
        said = warm.run(previewed(warm.ws, change)).changes
        assert [(d.path, d.line, d.code) for d in said.introduced] == [(JSON, 2, "1005")]
        assert [(s.checker, s.at) for s in said.stopped] == STOPPED
        assert (said.fixed, said.changed) == ([], [JSON])  # known.ts's TS2322: unchecked
        (root / JSON).write_text(BROKEN)
        assert gate(root / "app")[1].strip() == JSON_STOP
        for path in ("app/src/use.ts", "app/src/known.ts"):
            answer = warm.run(diagnostics(warm.ws, path, baseline="HEAD"))
            assert answer.changes is not None
            assert (answer.diagnostics, answer.changes.introduced) == ([], [])
            assert answer.changes.fixed == []  # known.ts's TS2322: unchecked, not fixed
            assert [(s.checker, s.at) for s in answer.changes.stopped] == STOPPED
        # The JSON itself, no server's file: its program's tsc's answer (refused before:
        # 'no language server handles shared/defaults.json (.json)').
        plain = warm.run(diagnostics(warm.ws, JSON))
        assert [(d.line, d.column, d.code) for d in plain.diagnostics] == [(2, 1, "1005")]
        answer = warm.run(diagnostics(warm.ws, JSON, baseline="HEAD"))
        assert answer.changes is not None and answer.errors == 1
        assert [(d.path, d.line, d.code) for d in answer.changes.introduced] == [(JSON, 2, "1005")]
        assert [(s.checker, s.at) for s in answer.changes.stopped] == STOPPED
        fixed = [{"path": JSON, "content": SHARED[JSON]}]
        said = warm.run(previewed(warm.ws, fixed)).changes
        assert [(d.path, d.line, d.code) for d in said.fixed] == [(JSON, 2, "1005")]
        assert (said.introduced, said.stopped) == ([], [])


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_the_hook_and_the_stop_gate_say_it(tmp_path: Path, version: str) -> None:
    """The edit hook says the TS1005 introduced and tsc's stop; the stop gate blocks; the
    JSON closed again, nothing is new, nothing stopped, the gate lets the stop through."""
    root = _project(tmp_path / "p", SHARED, version)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        (root / JSON).write_text(BROKEN)
        edit = warm.run(feedback.answer({**EDIT, "paths": [JSON]}))
        assert [(d["path"], d["line"], d["code"]) for d in edit["introduced"]] == [
            (JSON, 2, "1005")
        ]
        assert edit["stopped"] == [f"tsc stopped at the syntax error at {JSON}:2"]
        stop = warm.run(feedback.answer(STOP))
        assert [(d["path"], d["code"]) for d in stop["introduced"]] == [(JSON, "1005")]
        assert "decision" in (stop_output(stop, 60.0) or {})
        (root / JSON).write_text(SHARED[JSON])
        edit = warm.run(feedback.answer({**EDIT, "paths": [JSON]}))
        assert (edit["introduced"], edit["stopped"]) == ([], [])
        stop = warm.run(feedback.answer(STOP))
        assert (stop["introduced"], stop["stopped"]) == ([], [])
        assert "decision" not in (stop_output(stop, 60.0) or {})
        warm.run(feedback.close())


@pytest.mark.parametrize("watch", [True, False], ids=["daemon", "one-shot"])
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_heads_result_made_while_it_is_unclosed_holds_no_stop(
    tmp_path: Path, version: str, watch: bool
) -> None:
    """HEAD's result made while the work tree's JSON is unclosed: HEAD's JSON is whole, so
    HEAD's tsc stopped nowhere. Before, the work tree's stop was kept as HEAD's, and once the
    JSON was whole again with "retries" a string, use.ts's TS2322 read as unchecked at HEAD:
    0 new where tsc -p says it new."""
    root = _project(tmp_path / "p", SHARED, version)
    (root / JSON).write_text(BROKEN)
    for warm in _workspaces(root, tmp_path / "logs", watch):
        changes = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert changes is not None
        if (root / JSON).read_text() == BROKEN:
            assert [(d.path, d.code) for d in changes.introduced] == [(JSON, "1005")]
            assert changes.baseline_stopped == []
            (root / JSON).write_text(EDITED)
            assert "src/use.ts(2,14): error TS2322" in gate(root / "app")[1]
            continue
        assert [(d.path, d.line, d.code) for d in changes.introduced] == [
            ("app/src/use.ts", 2, "2322")
        ]
        assert (changes.fixed, changes.unchanged, changes.baseline_stopped) == ([], 1, [])


def _workspaces(root: Path, logs: Path, watch: bool) -> Iterator[Warm]:
    """A daemon's workspace asked twice, or two one-shot commands' (a process each: without a
    watcher nothing tells TypeScript 7's server the JSON changed between them)."""
    if watch:
        for warm in warm_root(root, logs, watch=True):
            yield warm
            yield warm
        return
    for _ in range(2):
        yield from warm_root(root, logs)
