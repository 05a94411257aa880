"""The stop gate (`lspd hook claude-code` on a Stop payload) against a real daemon: it never
blocks twice for the same unchanged errors, whatever `stop_hook_active` says (it is false
again at each new turn's stop: zod's 4 unchanged errors were blocked for at every stop),
blocks again when they changed; a check that failed is said as a failure and blocks once,
never read as "no new error"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_hook import break_the_caller, edit, hook, said, served, stop
from tests.cli.test_hook_mypy import mypy_served
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed

__all__ = ["served"]  # the Python fixture's daemon (tests/cli/test_hook.py)
LISTS = "`lspd check --baseline HEAD` lists everything"
SAME = (
    "lspd: 1 error(s) this session introduced since HEAD remain, unchanged since the last "
    f"stop; {LISTS}."
)


def test_the_same_errors_block_one_stop_of_many(served: ThreadDaemon) -> None:
    root = served.daemon.root
    hook("claude-code", edit(break_the_caller(root)), root)
    first = said(hook("claude-code", stop(root), root))
    assert first["decision"] == "block"
    assert said(hook("claude-code", stop(root), root)) == {"systemMessage": SAME}
    app = root / "pkg" / "app.py"
    app.write_text("# a line above: the error moves down one line\n" + app.read_text())
    hook("claude-code", edit(app), root)
    assert said(hook("claude-code", stop(root), root)) == {"systemMessage": SAME}
    app.write_text(app.read_text() + 'wrong: int = "x"\n')
    hook("claude-code", edit(app), root)
    changed = said(hook("claude-code", stop(root), root))
    assert changed["decision"] == "block"
    assert re.search(r"introduced 2 new error\(s\) since HEAD:\npkg/app\.py:6:", changed["reason"])
    assert "[reportAssignmentType]" in changed["reason"]
    again = said(hook("claude-code", stop(root, active=True), root))
    assert again == {"systemMessage": SAME.replace("lspd: 1 error", "lspd: 2 error")}


FAILING = {  # mypy ends with a usage error, exit 2, no diagnostic: every check fails
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\npython_version = "2.7"\n',
    "app/__init__.py": "",
    "app/shapes.py": "def area(width: int, height: int) -> int:\n    return width * height\n",
}


@pytest.fixture
def failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """A mypy project whose mypy cannot run, committed to git, its daemon running."""
    yield from mypy_served(tmp_path, monkeypatch, FAILING)


def test_a_failed_check_blocks_once_and_never_reads_as_clean(failing: ThreadDaemon) -> None:
    root = failing.daemon.root
    shapes = root / "app" / "shapes.py"
    shapes.write_text(shapes.read_text().replace("height: int)", "height: int, depth: int)"))
    hook("claude-code", edit(shapes), root)
    first = said(hook("claude-code", stop(root), root))
    assert first["decision"] == "block"
    failed = re.fullmatch(
        r"lspd: the check of this session's changes failed \((MypyFailed: .+)\): whether they "
        r"introduced errors is not known; run `lspd check --baseline HEAD` or the project's "
        r"own checker before you finish\.",
        first["reason"],
        re.S,
    )
    assert failed is not None, first
    assert "Python 2" in failed[1]
    second = said(hook("claude-code", stop(root), root))
    assert list(second) == ["systemMessage"]
    assert second["systemMessage"].endswith("(it failed at the last stop too).")
    assert "no new error" not in second["systemMessage"]


NOW = (
    '\nlspd: meanwhile, the files changed hold 1 error(s):\napi/app.py:2:12: Operator "+" '
    'not supported for types "int" and "Literal[\'1\']" [reportOperatorIssue] (new or not: '
    "not known)"
)
MIXED = {  # TypeScript beside Python (basedpyright's defaults: no configuration)
    "web/tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}',
    "web/src/util.ts": "export function scale(n: number): number {\n  return n * 2;\n}\n",
    "api/app.py": "def bump(n: int) -> int:\n    return n + 1\n",
}


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The mixed workspace committed to git, its daemon running."""
    root = committed(written(tmp_path / "p", MIXED))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        yield daemon


def test_a_comparison_not_made_says_the_errors_the_changed_files_hold(mixed: ThreadDaemon) -> None:
    """The mixed examiner: a configuration edited on each side left no comparison on either
    (no result of HEAD under its configuration: web/tsconfig.json deleted, a pyrightconfig
    naming other files added), and the stop gate blocked once for that, then let the new
    errors through unsaid. Now they are said with the failure, as what the changed files
    hold (new or not: not known)."""
    root = mixed.daemon.root
    (root / "web" / "tsconfig.json").unlink()
    (root / "pyrightconfig.json").write_text('{"include": ["api"]}\n')
    app = root / "api" / "app.py"
    app.write_text(app.read_text().replace("n + 1", 'n + "1"'))
    hook("claude-code", edit(app), root)
    first = said(hook("claude-code", stop(root), root))
    assert first["decision"] == "block"
    assert "failed (NotKept: the checkers' configuration changed since" in first["reason"]
    assert first["reason"].endswith(NOW), first["reason"]
    second = said(hook("claude-code", stop(root), root))
    assert second["systemMessage"].endswith(NOW), second


def test_a_part_not_made_leaves_the_other_compared(mixed: ThreadDaemon) -> None:
    """web/tsconfig.json deleted: HEAD's TypeScript part cannot be made (its files in no
    tsconfig's project now), the Python part is compared all the same: its new error (and
    basedpyright's warning beside it) blocks. Before, the whole comparison failed (the test
    above), the Python error 'new or not: not known'."""
    root = mixed.daemon.root
    (root / "web" / "tsconfig.json").unlink()
    app = root / "api" / "app.py"
    app.write_text(app.read_text().replace("n + 1", 'n + "1"'))
    hook("claude-code", edit(app), root)
    first = said(hook("claude-code", stop(root), root))
    assert (
        first
        == {  # util.ts holds no error now: the TypeScript files' stop hid nothing
            "decision": "block",
            "reason": "lspd: before you finish: this session's changes introduced 1 new error(s) "
            "since HEAD:\n" + NOW.splitlines()[2].removesuffix(" (new or not: not known)") + "\n"
            "(and 1 new warning(s))\nFix them, or say why they stay.",
        }
    )
