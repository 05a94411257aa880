"""The committed state's kept result (`engine/committed.py`) and `check --baseline` made of it
(`ops/since_kept.py`), on a real git repository, basedpyright and a watched workspace (as
in the daemon): the same introduced and fixed diagnostics as the two-state comparison
(`tests/ops/two_states.py`, lspd's answer before issue 40) on edits of every kind, HEAD
checked once per commit, the result saved and read back, a corrupt file checked again."""

from __future__ import annotations

import json
import time
import venv
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lspd.engine.kept_memory import kept_folder, memory_of
from lspd.errors import InvalidInput
from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics, progressive_kept
from lspd.ops.models import Changes
from lspd.workspace import retool
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.test_baseline import (
    BROKEN_CALL,
    SIGNATURE,
    TWO_ARGUMENTS,
    UNUSED_LOUD,
    committed,
    edit,
    git,
)
from tests.ops.test_changes import EDITED_C, ask_b_then_a
from tests.ops.two_states import file_changes, in_gate

Row = tuple[str | None, int, str | None, str]


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Warm]:
    """The Python fixture committed in a git repository, its watcher running."""
    root = committed(copy_fixture("py", tmp_path))
    yield from warm_root(root, tmp_path / "logs", watch=True)


def rows(changes: Changes) -> tuple[list[Row], list[Row]]:
    """Introduced and fixed, as (path, line, code, message)."""

    def of(found: list) -> list[Row]:  # type: ignore[type-arg]
        return sorted((d.path, d.line, d.code, d.message) for d in found)

    return of(changes.introduced), of(changes.fixed)


def from_kept(repo: Warm) -> Changes:
    result = repo.run(check_ops.workspace_diagnostics(repo.ws, limit=1000, baseline="HEAD"))
    assert result.changes is not None
    assert "against the kept result of" in result.changes.scope
    return result.changes


def two_states(repo: Warm) -> Changes:
    """The two-state comparison: the changed files and those naming what changed, both
    states (`tests/ops/two_states.py`)."""
    return repo.run(in_gate(repo.ws))


def write(repo: Warm, name: str, text: str) -> None:
    (repo.root / name).write_text(text)


EDITS: dict[str, Callable[[Warm], None]] = {
    "leaf error": lambda r: write(r, "pkg/leaf.py", 'def f() -> int:\n    return "x"\n'),
    "body-only edit": lambda r: edit(
        r.root / "pkg/greeting.py", "return Greeter(name)", "return Greeter(name + '')"
    ),
    "signature change": lambda r: edit(r.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS),
    "a fix": lambda r: edit(r.root / "pkg/broken.py", '"not a number"', "1"),
    "line shift": lambda r: write(
        r, "pkg/broken.py", "\n\n" + (r.root / "pkg/broken.py").read_text()
    ),
    "file deleted": lambda r: (r.root / "pkg/extra.py").unlink(),
    "file renamed": lambda r: (r.root / "pkg/broken.py").rename(r.root / "pkg/broken2.py"),
}

# What each edit introduces and fixes, as (path, line, rule). A renamed file's error is
# its new path's, unchanged (`engine/renames.py`); the two-state comparison knows no rename:
# new under the new name and fixed under the old one (deleted: gone from the gate, its
# diagnostics fixed), as the kept result said until it knew it.
EXPECTED: dict[str, tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]]] = {
    "leaf error": ([("pkg/leaf.py", 2, "reportReturnType")], []),
    "body-only edit": ([], []),
    "signature change": ([*BROKEN_CALL, UNUSED_LOUD], []),
    "a fix": ([], [("pkg/broken.py", 2, "reportReturnType")]),
    "line shift": ([], []),
    "file deleted": ([], []),
    "file renamed": ([], []),
}
RENAMED = ([("pkg/broken2.py", 2, "reportReturnType")], [("pkg/broken.py", 2, "reportReturnType")])


@pytest.mark.parametrize("kind", list(EDITS))
def test_the_kept_result_answers_as_the_two_state_comparison(repo: Warm, kind: str) -> None:
    repo.run(check_ops.check_all(repo.ws))  # the cold check, as the daemon makes at start
    EDITS[kind](repo)
    new = from_kept(repo)
    old = two_states(repo)
    introduced, fixed = rows(new)
    assert ([r[:3] for r in introduced], [r[:3] for r in fixed]) == EXPECTED[kind]
    if kind == "file renamed":
        # every diagnostic in both states: the moved file's and those of the files compared
        # as the kept result's (`preview` counts them all)
        assert new.renamed == {"pkg/broken.py": "pkg/broken2.py"} and new.unchanged == 3
        introduced, fixed = rows(old)
        assert ([r[:3] for r in introduced], [r[:3] for r in fixed]) == RENAMED
    else:
        assert rows(new) == rows(old)
    assert new.changed == old.changed
    assert memory_of(repo.ws).made == 1  # the clean tree's check was HEAD's: kept as it is


def test_a_signature_change_and_its_fix_against_a_moved_head(repo: Warm) -> None:
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    changes = from_kept(repo)
    assert [(d.path, d.line, d.code) for d in changes.introduced] == [*BROKEN_CALL, UNUSED_LOUD]
    assert changes.changed == ["pkg/greeting.py"]
    # The tree was dirty when HEAD's result was made: greeting.py and app.py asked at HEAD.
    state = memory_of(repo.ws).state
    assert state is not None and state.asked >= 2
    from_kept(repo)  # asked again: nothing checked again for the same commit
    assert memory_of(repo.ws).made == 1
    git(repo.root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "b")
    edit(repo.root / "pkg/app.py", 'make_greeter("world")', 'make_greeter("world", True)')
    repo.run(progressive_kept.held_before(repo.ws, "HEAD"))  # a turn start's: it shows no note
    again = from_kept(repo)
    assert "HEAD moved from" in again.scope
    assert again.introduced == []
    assert [(d.path, d.line, d.code) for d in again.fixed] == BROKEN_CALL
    assert memory_of(repo.ws).made == 2
    assert rows(again) == rows(two_states(repo))
    # said once: the next answer reads the same result, HEAD where it was
    edit(repo.root / "pkg/app.py", 'make_greeter("world", True)', 'make_greeter("you", True)')
    later = from_kept(repo)
    assert "(kept);" in later.scope and "HEAD moved" not in later.scope, later.scope
    assert memory_of(repo.ws).made == 2


def test_a_kept_result_is_read_back_after_a_restart_and_a_corrupt_one_is_not(
    tmp_path: Path,
) -> None:
    root = committed(copy_fixture("py", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        edit(root / "pkg/broken.py", '"not a number"', "1")
        first = from_kept(warm)
        assert memory_of(warm.ws).made == 1
        saved = list(kept_folder(warm.ws).glob("*.json"))
        assert len(saved) == 1
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        again = from_kept(warm)
        assert memory_of(warm.ws).made == 0 and "(read back)" in again.scope
        assert rows(again) == rows(first)
    whole = json.loads(saved[0].read_text())
    saved[0].write_text(json.dumps({**whole, "body": whole["body"].replace("error", "errox")}))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        third = from_kept(warm)
        assert memory_of(warm.ws).made == 1 and "(checked)" in third.scope
        assert rows(third) == rows(first)
    assert git(root, "status", "--porcelain") == " M pkg/broken.py\n"  # nothing else written


def test_a_detached_head_a_tree_and_a_changed_configuration(repo: Warm) -> None:
    """A detached HEAD is a commit like any; a revision naming a tree is refused, saying
    what to send; a configuration edited since HEAD is compared with HEAD's result under
    HEAD's configuration (what its rule turned off is fixed), and once committed, that
    commit's result is made under it."""
    git(repo.root, "checkout", "-q", "--detach")
    edit(repo.root / "pkg/broken.py", '"not a number"', "1")
    assert [r[:3] for r in rows(from_kept(repo))[1]] == [("pkg/broken.py", 2, "reportReturnType")]
    assert memory_of(repo.ws).made == 1
    tree = git(repo.root, "rev-parse", "HEAD^{tree}").strip()
    with pytest.raises(InvalidInput, match=r"is not a git revision here; send e\.g\. HEAD"):
        repo.run(check_ops.workspace_diagnostics(repo.ws, baseline=tree))
    pyproject = repo.root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.basedpyright]\nreportReturnType = "none"\n'
    )
    # basedpyright applies a changed configuration on its own time after the file event:
    # asked before, it still judges by the old rules (the kept result would be made by them).
    committed_text = git(repo.root, "show", "HEAD:pkg/broken.py")
    deadline = time.monotonic() + 60
    while repo.run(
        file_diagnostics.diagnostics(repo.ws, "pkg/broken.py", content=committed_text)
    ).errors:
        assert time.monotonic() < deadline, "basedpyright never applied the configuration"
        time.sleep(0.2)
    again = from_kept(repo)
    assert memory_of(repo.ws).made == 1 and "(kept)" in again.scope
    assert [r[:3] for r in rows(again)[1]] == [("pkg/broken.py", 2, "reportReturnType")]
    git(
        repo.root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e.com",
        "commit",
        "-qm",
        "c",
        "pyproject.toml",
    )
    committed_config = from_kept(repo)
    assert memory_of(repo.ws).made == 2 and "(checked; HEAD moved" in committed_config.scope
    assert rows(committed_config) == ([], [])  # the rule is off in both states now


def test_an_order_dependent_error_is_never_introduced(tmp_path: Path) -> None:
    """basedpyright reports the cycle's class error in whichever of a.py and b.py it reaches
    second (tests/ops/test_changes.py): with b.py asked first, and an edit of c.py that both
    import, the error moves with the order, never in or out of the change."""
    root = committed(copy_fixture("cycle_py", tmp_path))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        ask_b_then_a(warm)
        warm.run(check_ops.check_all(warm.ws))
        (root / "c.py").write_text(EDITED_C)
        changes = from_kept(warm)
        assert rows(changes) == ([], [])
        assert changes.changed == ["c.py"]


def test_one_files_baseline_reads_the_kept_result(repo: Warm) -> None:
    """`diagnostics pkg/app.py --baseline HEAD` once HEAD's result is kept: the file now
    against its kept result, as the two-state comparison of that file has it."""
    from_kept(repo)  # a clean tree: HEAD's result kept
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert result.changes is not None and result.errors == 1
    assert "against the kept result of" in result.changes.scope
    assert [(d.path, d.line, d.code) for d in result.changes.introduced] == BROKEN_CALL
    assert result.changes.changed == ["pkg/greeting.py"]
    old = repo.run(file_changes(repo.ws, repo.root / "pkg/app.py", None, "HEAD"))
    assert rows(result.changes) == rows(old)
    fixed = 'def main() -> str:\n    return make_greeter("w", True).greet()\n'
    content = repo.root.joinpath("pkg/app.py").read_text().split("def main")[0] + fixed
    unsaved = repo.run(
        file_diagnostics.diagnostics(repo.ws, "pkg/app.py", content=content, baseline="HEAD")
    )
    assert unsaved.changes is not None and "against the kept result" in unsaved.changes.scope
    assert rows(unsaved.changes) == rows(
        repo.run(file_changes(repo.ws, repo.root / "pkg/app.py", content, "HEAD"))
    )
    assert memory_of(repo.ws).made == 1


def test_the_session_baseline_without_git(tmp_path: Path) -> None:
    """Without git, `session` is the files as lspd first read them: its result is made at
    its first question, the edited file held at that text, and kept for the next one."""
    root = copy_fixture("py", tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(check_ops.check_all(warm.ws))  # lspd reads every file of the gate
        edit(root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
        result = warm.run(check_ops.workspace_diagnostics(warm.ws, baseline="session"))
        assert result.changes is not None
        assert "against the kept result of session" in result.changes.scope
        found = [(d.path, d.line, d.code) for d in result.changes.introduced]
        assert found == [*BROKEN_CALL, UNUSED_LOUD]
        state = memory_of(warm.ws).session
        assert state is not None and state.asked >= 2  # greeting.py and app.py, held as read
        edit(root / "pkg/app.py", 'make_greeter("world")', 'make_greeter("world", True)')
        again = warm.run(check_ops.workspace_diagnostics(warm.ws, baseline="session"))
        assert again.changes is not None and [
            (d.path, d.line, d.code) for d in again.changes.introduced
        ] == [UNUSED_LOUD]
        assert memory_of(warm.ws).made == 1
        assert not list(kept_folder(warm.ws).glob("*.json"))  # the session's is not saved


def test_one_files_baseline_with_another_toolchain_is_not_the_kept_results(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtual environment made in the project after HEAD's result was kept: basedpyright
    runs on its Python now, so the file is compared by the two states, not with a result
    another toolchain made."""
    monkeypatch.setattr(retool, "RECHECK_S", 0.0)  # the toolchain looked up at each question
    from_kept(repo)
    before = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert before.changes is not None and "against the kept result" in before.changes.scope
    venv.create(repo.root / ".venv", with_pip=False)
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/app.py", baseline="HEAD"))
    assert result.toolchain != before.toolchain, result.toolchain
    assert result.changes is not None and "kept result" not in result.changes.scope
    assert [(d.path, d.line, d.code) for d in result.changes.introduced] == BROKEN_CALL
