"""`check --baseline` with paths and with `--all` (`ops/since_kept.py`, `ops/beyond_gate.py`)
on a real git repository, basedpyright and a watched workspace: the gate's files from the
kept result filtered to the question's files, the files outside the gate through the
engine's affected set, never the two-state comparison of the files naming what changed.
What was held in a language server is recorded by `held` (the real sessions' documents)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from lspd.lsp.session import Session
from lspd.ops import check as check_ops
from lspd.ops.models import Changes
from lspd.workspace.files import read_text
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.test_baseline import (
    BROKEN_CALL,
    SIGNATURE,
    TWO_ARGUMENTS,
    UNUSED_LOUD,
    asked,
    committed,
)
from tests.ops.test_baseline import edit as replace
from tests.ops.test_committed import rows
from tests.ops.two_states import changes_since

GATE = '\n[tool.basedpyright]\ninclude = ["pkg"]\n'
TEST = (
    "from pkg.greeting import make_greeter\n\n\n"
    'def test_greets() -> None:\n    assert make_greeter("t").greet() == "Hello, t!"\n'
)
# What the second parameter breaks in tests/test_app.py, outside the gate.
BROKEN_TEST = [
    ("tests/test_app.py", 5, "reportCallIssue"),
    ("tests/test_app.py", 5, "reportUnknownMemberType"),
]
LEAF = 'def f() -> int:\n    return "x"\n'


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture whose basedpyright gate is `pkg/`, with a test outside it that
    imports pkg.greeting; committed, its watcher running."""
    root = copy_fixture("py", tmp_path)
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + GATE)
    (root / "tests").mkdir()
    (root / "tests/test_app.py").write_text(TEST)
    yield from warm_root(committed(root), tmp_path / "logs", watch=True)


def held(monkeypatch: pytest.MonkeyPatch, warm: Warm) -> list[str]:
    """The files a language server is made to hold another text than the disk's from now
    on (the real `sync_document`, recorded)."""
    seen: list[str] = []
    real = Session.sync_document

    async def recorded(
        self: Session, path: Path, text: str, language_id: str, on_disk: bool = True
    ) -> object:
        if text != read_text(path):
            seen.append(warm.ws.display(path))
        return await real(self, path, text, language_id, on_disk)

    monkeypatch.setattr(Session, "sync_document", recorded)
    return seen


def ask(warm: Warm, paths: list[str] | None = None, every: bool = False) -> Changes:
    result = warm.run(
        check_ops.workspace_diagnostics(warm.ws, paths, limit=1000, baseline="HEAD", all=every)
    )
    assert result.changes is not None
    assert "against the kept result of" in result.changes.scope
    return result.changes


def found(changes: Changes) -> tuple[list[tuple[str | None, int, str | None]], ...]:
    def of(items: list) -> list[tuple[str | None, int, str | None]]:  # type: ignore[type-arg]
        return sorted((d.path, d.line, d.code) for d in items)

    return of(changes.introduced), of(changes.fixed)


# The gate's files greeting.py's signature change cannot affect (asked once, by the cold
# check), and those it can: greeting.py and its 3 importers.
GATE_ASKED = {"pkg/__init__.py": 1, "pkg/broken.py": 1}
AFFECTED = ["pkg/app.py", "pkg/extra.py", "pkg/greeting.py", "pkg/unicode_names.py"]


def test_paths_in_the_gate_filter_the_kept_result(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check --baseline HEAD pkg/app.py`: what the work tree's change introduced in
    app.py, from the kept result; no old text held in a server, and no file asked for the
    paths (they are the gate's: the gate's check answers; before, each question of paths
    asked its files again)."""
    counts = asked(monkeypatch, repo)
    assert found(ask(repo)) == ([], [])  # a clean tree: HEAD's result is the check's
    assert counts == dict.fromkeys([*GATE_ASKED, *AFFECTED], 1)  # the cold check
    texts = held(monkeypatch, repo)
    replace(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    changes = ask(repo, ["pkg/app.py"])
    assert found(changes) == (sorted(BROKEN_CALL), [])
    assert changes.changed == ["pkg/greeting.py"]
    assert "no file outside the gate asked" in changes.scope  # app.py is the gate's: no check
    assert found(ask(repo, ["pkg/greeting.py"])) == ([UNUSED_LOUD], [])
    assert found(ask(repo, ["pkg/broken.py"])) == ([], [])
    # The edit's incremental check asks greeting.py and its importers again; nothing is
    # asked for the paths' three questions (before: each asked its files once more).
    assert counts == {**GATE_ASKED, **dict.fromkeys(AFFECTED, 2)}
    assert texts == []  # HEAD's texts were never held: the kept result answered
    assert memory_of(repo.ws).made == 1


def test_paths_outside_the_gate_are_checked_at_heads_texts_where_the_change_reaches(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    ask(repo)
    texts = held(monkeypatch, repo)
    replace(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    changes = ask(repo, ["tests/**"])
    assert found(changes) == (BROKEN_TEST, [])
    assert changes.changed == ["pkg/greeting.py"]
    assert "1 file(s) outside the gate: 1 the change can reach" in changes.scope
    # The test's state at HEAD needs greeting.py's HEAD text: that one is held, no other.
    assert texts == ["pkg/greeting.py"]


def test_all_adds_the_files_outside_the_gate_the_change_reaches(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    ask(repo)
    texts = held(monkeypatch, repo)
    (repo.root / "pkg/leaf.py").write_text(LEAF)  # a leaf: nothing outside the gate reached
    leaf = ask(repo, every=True)
    assert found(leaf) == ([("pkg/leaf.py", 2, "reportReturnType")], [])
    assert "1 file(s) outside the gate: 0 the change can reach" in leaf.scope
    assert texts == []  # nothing held: the new file has no HEAD text, nothing imports it
    replace(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    (repo.root / "tests/test_app.py").write_text(TEST + "\nbad: int = 'x'\n")
    every = ask(repo, every=True)
    assert found(every) == (
        sorted(
            [
                *BROKEN_CALL,
                UNUSED_LOUD,
                ("pkg/leaf.py", 2, "reportReturnType"),
                *BROKEN_TEST,
                ("tests/test_app.py", 7, "reportAssignmentType"),
            ]
        ),
        [],
    )
    assert every.changed == ["pkg/greeting.py", "pkg/leaf.py", "tests/test_app.py"]
    # The test's state at HEAD: the changed files held at their HEAD text (leaf.py absent).
    assert sorted(set(texts)) == ["pkg/greeting.py", "pkg/leaf.py", "tests/test_app.py"]
    del texts[:]
    old = repo.run(changes_since(repo.ws, "HEAD"))  # every file: the two-state comparison
    assert rows(every) == rows(old) and every.changed == old.changed
    gate = ask(repo)  # the gate alone: the test's errors are not the gate's
    assert found(gate) == (
        sorted([*BROKEN_CALL, UNUSED_LOUD, ("pkg/leaf.py", 2, "reportReturnType")]),
        [],
    )
    assert memory_of(repo.ws).made == 1


def test_all_without_a_watcher_checks_every_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-shot `lspd check --baseline HEAD --all` (no watcher, nothing reused between
    two checks): the gate's part is taken from the check of every file, not checked again;
    the answer is the watched one's and the two-state comparison's."""
    root = copy_fixture("py", tmp_path)
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + GATE)
    (root / "tests").mkdir()
    (root / "tests/test_app.py").write_text(TEST)
    committed(root)
    replace(root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    for warm in warm_root(root, tmp_path / "logs"):
        assert warm.ws.changes_seen is None
        counts = asked(monkeypatch, warm)
        every = ask(warm, every=True)
        # Every file once by the check of every file (before, the gate's 6 files twice: a
        # second cold check of the gate), then HEAD's state: greeting.py and its importers
        # in the gate at HEAD's texts and again at the disk's (they differ), the test
        # outside it at HEAD's texts (the engine's affected set).
        # The disk's second sample asks again only the files that differ and basedpyright's
        # asked before the last of them (52d1c23): not unicode_names.py, asked after it.
        again = {**dict.fromkeys(AFFECTED, 3), "pkg/unicode_names.py": 2}
        assert counts == {**GATE_ASKED, **again, "tests/test_app.py": 2}
        assert found(every) == (sorted([*BROKEN_CALL, UNUSED_LOUD, *BROKEN_TEST]), [])
        assert "1 file(s) outside the gate: 1 the change can reach" in every.scope
        assert rows(every) == rows(warm.run(changes_since(warm.ws, "HEAD")))
        state = memory_of(warm.ws).state
        # HEAD's result is the gate's (pkg/'s 6 files), read from the check of every file.
        assert state is not None and len(state.files) == 6
        assert {path.split("/")[0] for path in state.files} == {"pkg"}
