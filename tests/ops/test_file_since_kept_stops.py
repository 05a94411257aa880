"""`diagnostics PATH --baseline HEAD` while tsc or mypy stops at another file's syntax error
(`ops/file_since_kept.py`, the stop from `file_diagnostics.check_file`): the file's baseline
errors are not fixed but not checked, and `changes.stopped` says where the checker stopped,
as `check --baseline` says it; against the kept result and against the file's state at the
baseline's texts alike. Plain `check` says the stop too (`WorkspaceDiagnosticsResult.stopped`):
its syntax errors alone read as the only errors. Real tsserver (lspd's TypeScript 5.9) and
mypy 2.4, each's own run asserted beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lspd.cli.render import render
from lspd.ops.budget import compact_json
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import BROKEN as MYPY_BROKEN
from tests.ops.test_mypy_held_files import FILES, TARGETS, mypy_stopped, truth
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.mypy_env import mypy_env, project
from tests.workspace.test_tsbuilder_syntax import BROKEN, CONFIG, CORE, FORM, STOPPED, USER, tsc_of

TSC_STOP = (
    "tsc stopped at src/core.ts:4 (tsc reports a program's syntax errors alone while it has "
    "any): the other errors of its 2 file(s) are not checked"
)


def ts_project(tmp_path: Path) -> Path:
    """core.ts and user.ts (one type error, TS2322) committed, on lspd's TypeScript."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    return committed(root)


def user_since_head(warm: Warm) -> Any:
    """user.ts's diagnostics against HEAD: what changed."""
    changes = warm.run(diagnostics(warm.ws, "src/user.ts", baseline="HEAD")).changes
    assert changes is not None
    return changes


def test_a_file_s_errors_tsc_did_not_check_are_not_fixed(tmp_path: Path) -> None:
    """Against the file's state at HEAD's texts (no kept result): user.ts's TS2322 was said
    fixed after core.ts broke."""
    root = ts_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "src/core.ts").write_text(BROKEN)
        assert tsc_of(root, tmp_path, {}) == ["src/core.ts(4,1): error TS1005: '}' expected."]
        changes = user_since_head(warm)
        assert (changes.introduced, changes.fixed, changes.fixed_total) == ([], [], 0)
        assert changes.unchanged == 0
        assert [s.model_dump() for s in changes.stopped] == [STOPPED]

        # Plain check: the syntax error, and that tsc checked nothing else.
        check = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.code) for d in check.diagnostics] == [("src/core.ts", 4, "1005")]
        assert check.stopped == [TSC_STOP]
        text = render("WorkspaceDiagnosticsResult", compact(check))
        lines = text.splitlines()
        assert lines[lines.index(TSC_STOP) + 1] == "2 file(s) checked: 1 error(s), 0 warning(s)"
        one = render("DiagnosticsResult", compact(warm.run(diagnostics(warm.ws, "src/user.ts"))))
        assert one.startswith("src/user.ts: none said (") and one.endswith(
            "tsc stopped at the syntax error at src/core.ts:4: it reports a program's syntax "
            "errors alone while it has any, so this file's other errors are not checked"
        )

        (root / "src/core.ts").write_text(CORE)  # fixed: nothing stopped
        assert warm.run(workspace_diagnostics(warm.ws)).stopped == []
        changes = user_since_head(warm)
        assert (changes.fixed, changes.stopped, changes.unchanged) == ([], [], 1)


def test_a_file_s_kept_errors_tsc_did_not_check_are_not_fixed(tmp_path: Path) -> None:
    """Against HEAD's kept result (a whole question made it first)."""
    root = ts_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        (root / "src/core.ts").write_text(BROKEN)
        changes = user_since_head(warm)
        assert "against the kept result of" in changes.scope
        assert (changes.introduced, changes.fixed, changes.fixed_total) == ([], [], 0)
        assert [s.model_dump() for s in changes.stopped] == [STOPPED]
        core = warm.run(diagnostics(warm.ws, "src/core.ts", baseline="HEAD")).changes
        assert core is not None
        assert [(d.line, d.code) for d in core.introduced] == [(4, "1005")]


def compact(result: Any) -> dict[str, Any]:
    """The wire form the CLI renders."""
    return dict(json.loads(compact_json(result)))


def test_a_file_s_errors_mypy_did_not_check_are_not_fixed(tmp_path: Path) -> None:
    """mypy stopped at tests/test_mock.py's syntax error: app/main.py's baseline errors
    (mypy's own run of HEAD) are not fixed."""
    root = committed(project(tmp_path / "p", FILES, mypy_env()))
    baseline = truth(root, tmp_path, {})
    assert {file for file, _, _ in baseline} == {"app/main.py"}
    test_mock = root / "tests/test_mock.py"
    test_mock.write_text(FILES["tests/test_mock.py"] + MYPY_BROKEN)
    every = sorted(mypy_stopped(root, *TARGETS))
    lines = sorted(set(every))

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        one = await diagnostics(ws, "app/main.py", baseline="HEAD")
        return one, await workspace_diagnostics(ws)

    one, check = answer(root, ask)
    changes = one.changes
    assert (changes.introduced, changes.fixed, changes.fixed_total) == ([], [], 0)
    [stopped] = changes.stopped
    assert stopped.checker == "mypy"
    assert stopped.at == [f"tests/test_mock.py:{line}" for line in lines]
    assert (stopped.files, stopped.not_checked) == (["app/main.py"], len(baseline))
    assert [(d.path, d.line, d.code) for d in check.diagnostics] == [
        ("tests/test_mock.py", line, "syntax") for line in every
    ]
    [stop] = check.stopped
    at = ", ".join(f"tests/test_mock.py:{line}" for line in lines)
    assert stop.startswith(f"mypy stopped at {at} (errors prevented further checking): ")


def test_a_broken_file_s_own_errors_tsc_did_not_check_are_not_fixed(tmp_path: Path) -> None:
    """user.ts given a syntax error of its own: tsc says it alone, its TS2322 not checked
    (it was listed fixed), and its answer says where tsc stopped."""
    root = ts_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "src/user.ts").write_text(FORM)
        form = ["src/user.ts(3,19): error TS1109: Expression expected."]
        assert tsc_of(root, tmp_path, {}) == form
        changes = user_since_head(warm)
        assert [(d.line, d.column, d.code) for d in changes.introduced] == [(3, 19, "1109")]
        assert (changes.fixed, changes.fixed_total, changes.unchanged) == ([], 0, 0)
        assert [s.model_dump() for s in changes.stopped] == [{**STOPPED, "at": ["src/user.ts:3"]}]
        one = warm.run(diagnostics(warm.ws, "src/user.ts"))
        assert one.checker == (
            "tsc stopped at the syntax error at src/user.ts:3: it reports a program's syntax "
            "errors alone while it has any, so this file's other errors are not checked"
        )


def fixed_where_mypy_stopped(changes: Any, not_checked: int) -> None:
    """tests/test_mock.py's syntax error fixed, nothing introduced, no checker stopped now;
    the baseline's mypy stopped there: app/main.py's `not_checked` errors unchecked there."""
    assert (changes.introduced, changes.stopped) == ([], [])
    assert {(d.path, d.code) for d in changes.fixed} == {("tests/test_mock.py", "syntax")}
    [stopped] = changes.baseline_stopped
    assert (stopped.checker, stopped.files, stopped.not_checked) == (
        "mypy",
        ["app/main.py"],
        not_checked,
    )


def test_the_errors_mypy_did_not_check_at_the_baseline_are_not_introduced(tmp_path: Path) -> None:
    """The disk's mypy stopped at tests/test_mock.py's syntax error; a preview fixing it:
    app/main.py's errors (mypy's own run of the fixed state) are not introduced, they were
    not checked on disk (`baseline_stopped`); the syntax errors are fixed."""
    root = project(tmp_path / "p", FILES, mypy_env())
    fixed = truth(root, tmp_path, {})
    assert {file for file, _, _ in fixed} == {"app/main.py"}
    test_mock = root / "tests/test_mock.py"
    test_mock.write_text(FILES["tests/test_mock.py"] + MYPY_BROKEN)

    async def ask(ws: Workspace) -> Any:
        await workspace_diagnostics(ws)  # the disk's check: mypy stopped
        return await preview(
            ws, [{"path": "tests/test_mock.py", "content": FILES["tests/test_mock.py"]}]
        )

    previewed = answer(root, ask)
    changes = previewed.changes
    fixed_where_mypy_stopped(changes, len(fixed))
    said = render("PreviewResult", compact(previewed)).splitlines()
    assert said[0].startswith("at the baseline, mypy stopped at tests/test_mock.py:")
    assert said[0].endswith(
        f": {len(fixed)} diagnostic(s) of app/main.py not checked there (not counted new: "
        "unknown there, maybe new)"
    )


def test_a_syntax_error_the_change_writes_is_introduced_though_mypy_stopped_before(
    tmp_path: Path,
) -> None:
    """The disk's mypy stopped at tests/test_mock.py's syntax error (it read no other file); a
    preview fixing it and breaking app/main.py: mypy now stops at app/main.py, and that syntax
    error is the changed text's own, introduced (it was `unseen`, not new, and the preview
    said nothing introduced: the hook and the stop gate let it pass)."""
    root = project(tmp_path / "p", FILES, mypy_env())
    test_mock = root / "tests/test_mock.py"
    test_mock.write_text(FILES["tests/test_mock.py"] + MYPY_BROKEN)
    main = FILES["app/main.py"] + MYPY_BROKEN
    proposal = {"tests/test_mock.py": FILES["tests/test_mock.py"], "app/main.py": main}

    async def ask(ws: Workspace) -> Any:
        await workspace_diagnostics(ws)  # the disk's check: mypy stopped at test_mock.py
        return await preview(ws, [{"path": p, "content": t} for p, t in proposal.items()])

    changes = answer(root, ask).changes
    # mypy 2.4.1's own `mypy -O json app tests` on the proposal (exit 2): these two (its
    # columns 12 and 13 counted from 0), nothing else
    said = [(d.path, d.line, d.column, d.code) for d in changes.introduced]
    assert said == [("app/main.py", 5, 13, "syntax"), ("app/main.py", 5, 14, "syntax")]
    # mypy stops at app/main.py now and reads no other file: test_mock.py's fix is not known
    assert changes.fixed == []
    [stopped] = changes.stopped
    assert (stopped.checker, stopped.at, stopped.files, stopped.not_checked) == (
        "mypy",
        ["app/main.py:5"],
        ["tests/test_mock.py"],
        2,
    )
