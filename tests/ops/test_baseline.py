"""Baselines on a real git repository and basedpyright: only what the change introduced."""

from __future__ import annotations

import asyncio
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics
from lspd.ops.models import Changes
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.two_states import file_changes

SIGNATURE = "def make_greeter(name: str) -> Greeter:"
TWO_ARGUMENTS = "def make_greeter(name: str, loud: bool) -> Greeter:"
# What the second parameter breaks in basedpyright's default ("recommended") mode: the call
# in app.py (an error, and the unknown types that follow from it) and `loud`, never used.
BROKEN_CALL = [
    ("pkg/app.py", 5, "reportCallIssue"),
    ("pkg/app.py", 5, "reportUnknownVariableType"),
    ("pkg/app.py", 6, "reportUnknownMemberType"),
    ("pkg/app.py", 6, "reportUnknownVariableType"),
]
UNUSED_LOUD = ("pkg/greeting.py", 28, "reportUnusedParameter")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def committed(root: Path) -> Path:
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    return root


def warm(root: Path) -> Iterator[Warm]:
    runner = asyncio.Runner()
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        yield Warm(ws, runner)
    finally:
        runner.run(ws.close())
        runner.close()


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture committed in a git repository of its own."""
    yield from warm(committed(copy_fixture("py", tmp_path)))


def asked(monkeypatch: pytest.MonkeyPatch, warm: Warm) -> Counter[str]:
    """How many times each file's diagnostics are asked of its real server from now on
    (the real `Session.diagnostics`, counted per file as shown)."""
    counts: Counter[str] = Counter()
    real = Session.diagnostics

    async def counted(
        self: Session, document: Document, timeout: float, held: object = None
    ) -> object:
        counts[warm.ws.display(document.path)] += 1
        return await real(self, document, timeout, held)

    monkeypatch.setattr(Session, "diagnostics", counted)
    return counts


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_pre_existing_error_stays_out_of_introduced(repo: Warm) -> None:
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/broken.py", baseline="HEAD"))
    # With a baseline the counts are of what is new: the old error is unchanged, not listed.
    assert (result.errors, result.total, result.diagnostics) == (0, 0, [])
    assert result.changes is not None
    assert (result.changes.introduced, result.changes.fixed) == ([], [])
    assert result.changes.unchanged == 1
    assert result.changes.changed == ["pkg/greeting.py"]


def test_a_line_shift_does_not_turn_an_old_error_into_a_new_one(repo: Warm) -> None:
    broken = repo.root / "pkg/broken.py"
    broken.write_text("\n\n\n" + broken.read_text())
    now = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/broken.py"))
    assert now.diagnostics[0].line == 5  # it moved down three lines
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/broken.py", baseline="HEAD"))
    assert result.changes is not None
    assert (result.changes.introduced, result.changes.fixed, result.changes.unchanged) == (
        [],
        [],
        1,
    )


def test_a_cross_file_break_is_introduced_and_its_fix_is_fixed(repo: Warm) -> None:
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    result = repo.run(check_ops.workspace_diagnostics(repo.ws, baseline="HEAD"))
    assert result.changes is not None
    assert [(d.path, d.line, d.code) for d in result.changes.introduced] == [
        *BROKEN_CALL,
        UNUSED_LOUD,
    ]
    assert result.changes.changed == ["pkg/greeting.py"]
    # No watcher: the check against HEAD's result, made here (the engine's preview of
    # greeting.py's HEAD text); broken.py's old error is no change.
    assert "against the kept result of" in result.changes.scope
    assert "pkg/broken.py" not in {f.path for f in result.files}
    # Committed, then fixed in the caller: against the new HEAD the error is fixed.
    git(repo.root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "b")
    edit(repo.root / "pkg/app.py", 'make_greeter("world")', 'make_greeter("world", True)')
    again = repo.run(check_ops.workspace_diagnostics(repo.ws, baseline="HEAD"))
    assert again.changes is not None and again.changes.introduced == []
    assert [(d.path, d.line, d.code) for d in again.changes.fixed] == BROKEN_CALL


@pytest.mark.parametrize("asked_before", [False, True])
def test_one_files_baseline_sees_a_break_made_in_another_file(
    repo: Warm, asked_before: bool
) -> None:
    """`diagnostics pkg/app.py --baseline HEAD` after greeting.py's signature changed lists
    the broken call, also when app.py was open already: basedpyright kept an open file's
    old list when the file it imports was held as the baseline's text."""
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    if asked_before:
        now = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py"))
        errors = [(d.line, d.code) for d in now.diagnostics if d.severity == "error"]
        assert errors == [(5, "reportCallIssue")]
        assert repo.ws.holds(repo.root / "pkg/app.py")
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert result.changes is not None
    assert [(d.path, d.line, d.code) for d in result.changes.introduced] == BROKEN_CALL
    assert result.errors == 1


def test_the_work_tree_and_the_index_are_never_touched(repo: Warm) -> None:
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    (repo.root / "pkg/new.py").write_text("x: int = 'no'\n")
    status = git(repo.root, "status", "--porcelain")
    text = (repo.root / "pkg/greeting.py").read_text()
    result = repo.run(check_ops.workspace_diagnostics(repo.ws, baseline="HEAD"))
    assert result.changes is not None
    assert [(d.path, d.line, d.code) for d in result.changes.introduced] == [
        BROKEN_CALL[0],
        ("pkg/new.py", 1, "reportAssignmentType"),
        *BROKEN_CALL[1:],
        UNUSED_LOUD,
    ]
    assert git(repo.root, "status", "--porcelain") == status
    assert (repo.root / "pkg/greeting.py").read_text() == text
    # And the servers hold the disk's text again, not the committed one.
    document = repo.ws.document(repo.root / "pkg/greeting.py")
    assert document is None or document.text == text


def test_session_baseline_without_git(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    for plain in warm(root):
        with pytest.raises(InvalidInput, match=r'not in a git repository.*"session"'):
            plain.run(file_diagnostics.diagnostics(plain.ws, "pkg/app.py", baseline="HEAD"))
        first = plain.run(
            file_diagnostics.diagnostics(plain.ws, "pkg/greeting.py")
        )  # lspd reads it now
        assert first.errors == 0
        edit(root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
        result = plain.run(check_ops.workspace_diagnostics(plain.ws, baseline="session"))
        assert result.changes is not None
        assert [(d.path, d.line, d.code) for d in result.changes.introduced] == [
            *BROKEN_CALL,
            UNUSED_LOUD,
        ]


def test_a_bad_baseline_says_what_to_send(repo: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"is not a git revision here; send e\.g\. HEAD"):
        repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="no-such-branch"))
    with pytest.raises(InvalidInput, match="is not a baseline"):
        repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="--output=x"))


def introduced(changes: Changes | None) -> list[tuple[str | None, int, str | None]]:
    assert changes is not None
    return [(d.path, d.line, d.code) for d in changes.introduced]


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture committed in git, its watcher running (as in the daemon)."""
    yield from warm_root(committed(copy_fixture("py", tmp_path)), tmp_path / "logs", True)


def test_one_files_baseline_asks_its_old_state_only_where_the_change_reaches(
    watched: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diagnostics PATH --baseline HEAD` with no kept result (no whole question asked
    yet): the file against its state with the changed files' HEAD texts held, asked in that
    state only when the engine's rules say the change can reach it; the answer is the
    two-state comparison's (`tests/ops/two_states.file_changes`)."""
    repo = watched
    counts = asked(monkeypatch, repo)
    greeting, app = repo.root / "pkg/greeting.py", repo.root / "pkg/app.py"
    edit(greeting, 'f"Hello, ', 'f"Hi, ')  # a body-only edit: app.py cannot differ
    body = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert body.changes is not None and "cannot reach" in body.changes.scope
    assert (body.changes.introduced, body.changes.fixed) == ([], [])
    assert counts == {"pkg/app.py": 1}  # its state now only: HEAD's texts never held
    counts.clear()
    edit(greeting, SIGNATURE, TWO_ARGUMENTS)
    broken = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert broken.changes is not None and "texts held" in broken.changes.scope
    assert introduced(broken.changes) == BROKEN_CALL
    assert broken.changes.changed == ["pkg/greeting.py"]
    # now, at HEAD's texts, and at the disk's again right after the switch (they differ)
    assert counts == {"pkg/app.py": 3}
    assert introduced(broken.changes) == introduced(
        repo.run(file_changes(repo.ws, app, None, "HEAD"))
    )


def test_one_files_baseline_of_a_new_file_and_of_unsaved_content(repo: Warm) -> None:
    fresh = repo.root / "pkg/fresh.py"
    fresh.write_text('count: int = "none"\n')
    new = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/fresh.py", baseline="HEAD"))
    assert new.changes is not None and "new since HEAD" in new.changes.scope
    assert introduced(new.changes) == [("pkg/fresh.py", 1, "reportAssignmentType")]
    app = repo.root / "pkg/app.py"
    content = app.read_text() + '\n\nwrong: int = "no"\n'
    unsaved = repo.run(
        file_diagnostics.diagnostics(repo.ws, "pkg/app.py", content=content, baseline="HEAD")
    )
    assert introduced(unsaved.changes) == [("pkg/app.py", 13, "reportAssignmentType")]
    assert introduced(unsaved.changes) == introduced(
        repo.run(file_changes(repo.ws, app, content, "HEAD"))
    )
    assert app.read_text() + '\n\nwrong: int = "no"\n' == content  # the disk is untouched
