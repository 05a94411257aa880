"""A comparison with the kept result is made of one disk state (`ops/since_kept.settled`):
on a real git repository, basedpyright and a watched workspace (as in the daemon), a file
written after the check answered and before the comparison read its text (the write made
at that very read, no sleep) is checked and compared again, so its snippets and line
shifts are of the text its diagnostics are of: `check --baseline` and the hook's check.
Before, an unchanged error was "introduced" and "fixed" at once. Files that keep
changing are given up on after 3 whole checks in all (the retries of `settled` and of
`committed` share one budget)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lspd.engine.committed import Committed, Unsettled
from lspd.ops import progressive_kept, since_kept
from lspd.ops.beyond_gate import Part
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.ops.committed import Whole
from lspd.ops.models import Diagnostic
from lspd.ops.progressive import Progress
from lspd.workspace import Workspace
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import CORE, written
from tests.ops.test_baseline import SIGNATURE, TWO_ARGUMENTS, committed, edit
from tests.ops.test_committed import from_kept, repo, rows
from tests.workspace.mypy_env import STRICT, project

__all__ = ["repo"]  # the fixture: a git repository of the Python fixture, watched


def written_at_read(
    monkeypatch: pytest.MonkeyPatch, module: ModuleType, path: Path, text: str
) -> list[Path]:
    """`text` written into `path` by `module`'s first reading of it (for a snippet, after
    the check answered), before that reading; the files written so."""
    real = module.read_text
    written: list[Path] = []

    def read_text(file: Path) -> str | None:
        if not written and file.resolve() == path.resolve():
            written.append(path)
            path.write_text(text)
        result: str | None = real(file)
        return result

    monkeypatch.setattr(module, "read_text", read_text)
    return written


def shifted(repo: Warm) -> tuple[Path, str]:
    """HEAD's result kept, then broken.py's error one line down (a line shift: nothing new);
    the file, and its text with the error one more line down."""
    from_kept(repo)  # a clean tree: the whole check is kept as HEAD's
    broken = repo.root / "pkg/broken.py"
    head = broken.read_text()
    broken.write_text("\n" + head)
    return broken, "\n\n" + head


def test_check_baseline_compares_a_file_written_meanwhile_at_its_new_text(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken, further = shifted(repo)
    written = written_at_read(monkeypatch, since_kept, broken, further)
    assert rows(from_kept(repo)) == ([], [])  # was: line 3 introduced, line 2 fixed
    assert written == [broken]
    monkeypatch.undo()
    assert rows(from_kept(repo)) == ([], [])


def test_the_hooks_check_compares_a_file_written_meanwhile_at_its_new_text(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken, further = shifted(repo)
    written = written_at_read(monkeypatch, since_kept, broken, further)
    progress = Progress("HEAD", [broken])
    repo.run(progressive_kept.run(repo.ws, progress))
    assert progress.failed is None and written == [broken]
    assert progress.changed == [broken] and progress.introduced == []
    assert progress.compared == 1  # broken.py, at its new text


async def _nothing_beyond(found: Committed[Checked]) -> Part | None:
    return None


def writing_after_checks(repo: Warm, checks: list[Checked], writes: int) -> Whole:
    """The whole check, recording each in `checks`, pkg/written.py written after each of
    the first `writes` of them and counted by the watcher before it returns (the next look
    sees the change: no sleep)."""
    watcher = repo.ws.watcher
    assert watcher is not None

    async def whole(ws: Workspace, *args: Any, **kwargs: Any) -> Checked:
        checked = await check_all(ws, *args, **kwargs)
        checks.append(checked)
        if len(checks) <= writes:
            (repo.root / "pkg/written.py").write_text(f"WRITES = {len(checks)}\n")
            assert await watcher.catch_up()
        return checked

    return functools.partial(whole, repo.ws)


def test_the_note_counts_the_files_compared_by_why(repo: Warm) -> None:
    """A signature changed (greeting.py: its unused parameter; app.py, unchanged: its call
    broken) and a comment added (broken.py: the same error): three files compared with the
    kept result, two of them changed. Before: "3 file(s) differ from it", where two files'
    diagnostics differ."""
    from_kept(repo)  # a clean tree: the whole check is kept as HEAD's
    edit(repo.root / "pkg/greeting.py", SIGNATURE, TWO_ARGUMENTS)
    broken = repo.root / "pkg/broken.py"
    broken.write_text(broken.read_text() + "# a comment\n")
    changes = from_kept(repo)
    assert {d.path for d in changes.introduced} == {"pkg/app.py", "pkg/greeting.py"}
    assert changes.changed == ["pkg/broken.py", "pkg/greeting.py"]
    assert changes.scope.endswith(
        "(kept); 3 file(s) compared with it: 2 changed since HEAD, "
        "1 unchanged whose diagnostics differ from it"
    ), changes.scope


def test_files_changing_at_every_check_give_up_after_three_checks(repo: Warm) -> None:
    """A file written after every whole check: `settled` makes 3 whole checks in all, its
    own retries and `committed`'s sharing one budget, then says the files kept changing.
    Before, each of its 3 tries let `committed` make 3: 9 checks, the hook holding the gate
    all along."""
    from_kept(repo)  # HEAD's result kept: every `committed` call reads it, none makes it
    checks: list[Checked] = []
    whole = writing_after_checks(repo, checks, 1000)
    keep = since_kept.settled(repo.ws, "HEAD", whole, lambda _: True, _nothing_beyond)
    with pytest.raises(Unsettled, match="kept changing"):
        repo.run(keep)
    assert len(checks) == 3  # was 9
    assert (repo.root / "pkg/written.py").read_text() == "WRITES = 3\n"


def test_the_hooks_check_under_continual_writes_says_so_after_three(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook's check (its first, shared check, then the comparison under the exclusive
    gate) under a write after every check: 3 checks holding the gate, then the hook says
    to ask again (was 9)."""
    from_kept(repo)
    checks: list[Checked] = []
    whole = writing_after_checks(repo, checks, 1000)
    monkeypatch.setattr(progressive_kept, "check_all", lambda ws, *a, **k: whole(*a, **k))
    edited = repo.root / "pkg/broken.py"
    progress = Progress("HEAD", [edited])
    repo.run(progressive_kept.run(repo.ws, progress))
    assert progress.failed is not None and "kept changing" in progress.failed
    assert len(checks) == 1 + 3  # the shared check, then 3 holding the gate (was 1 + 9)


def test_files_settling_within_the_budget_are_answered(repo: Warm) -> None:
    """Written after the first two checks only: the third, of a settled tree, answers (the
    shared budget still allows a question's retries, wherever they are made)."""
    from_kept(repo)
    checks: list[Checked] = []
    whole = writing_after_checks(repo, checks, 2)
    keep = since_kept.settled(repo.ws, "HEAD", whole, lambda _: True, _nothing_beyond)
    found, part = repo.run(keep)
    assert len(checks) == 3 and found.checked is checks[-1]
    assert part.changed == {"pkg/written.py"}


HELPER = "def helper() -> int:\n    return undefined_name\n"
USER = "from pkg.helper import helper\n\nvalue: int = helper()\n"


@pytest.fixture
def imported(tmp_path: Path) -> Iterator[Warm]:
    """A git repository of its own, watched: pkg/helper.py's error, imported by pkg/user.py."""
    root = tmp_path / "imported"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.pyright]\ninclude = ["pkg"]\n')
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/helper.py").write_text(HELPER)
    (root / "pkg/user.py").write_text(USER)
    yield from warm_root(committed(root), tmp_path / "logs", watch=True)


def seen(repo: Warm) -> None:
    """Every change made so far counted by the watcher (no sleep)."""
    assert repo.ws.watcher is not None
    assert repo.run(repo.ws.watcher.catch_up())


def codes(found: list[Diagnostic]) -> list[tuple[str | None, int, str | None]]:
    return sorted((d.path, d.line, d.code) for d in found)


@pytest.mark.parametrize("kept_first", [True, False])
def test_a_deleted_files_diagnostics_are_fixed_and_it_is_changed(
    imported: Warm, kept_first: bool
) -> None:
    """pkg/helper.py, of HEAD's gate, deleted: its kept diagnostics fixed, the file among
    the changed ones, whether HEAD's result was kept of the clean tree or is made of the
    dirty one. Before, only the work tree's gate was walked and the changed files were
    filtered by it: "0 fixed", "0 changed file(s)" (pydantic: 1 fixed where the checker
    says 23)."""
    if kept_first:
        from_kept(imported)
    (imported.root / "pkg/helper.py").unlink()
    seen(imported)
    changes = from_kept(imported)
    fixed = codes(changes.fixed)
    assert ("pkg/helper.py", 2, "reportUndefinedVariable") in fixed
    assert all(path == "pkg/helper.py" for path, _, _ in fixed)
    assert "pkg/helper.py" in changes.changed
    if kept_first:  # HEAD's result made of the dirty tree asks user.py with helper.py's text
        # held, not on the disk: basedpyright does not resolve the import to it (not this fix)
        assert ("pkg/user.py", 1, "reportMissingImports") in codes(changes.introduced)


def test_an_added_files_diagnostics_are_introduced_and_it_is_changed(imported: Warm) -> None:
    """The other way: a file added since, its diagnostics introduced, it changed."""
    from_kept(imported)
    (imported.root / "pkg/added.py").write_text("ADDED: int = other_undefined\n")
    seen(imported)
    changes = from_kept(imported)
    assert codes(changes.introduced) == [
        ("pkg/added.py", 1, "reportUndefinedVariable"),
        ("pkg/added.py", 1, "reportUnknownVariableType"),
    ]
    assert changes.fixed == [] and changes.changed == ["pkg/added.py"]


TS_CONFIG = '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}\n'
TS_USER = 'import { add } from "./core";\nexport const three: number = add(1, 2);\n'
MOVES: dict[str, tuple[dict[str, str], str, str, tuple[str, int, str]]] = {
    # files, the file moved and where to: its error is said again under the new path
    "basedpyright": (
        {
            "pyproject.toml": '[tool.pyright]\ninclude = ["pkg"]\n',
            "pkg/__init__.py": "",
            "pkg/helper.py": HELPER,
            "pkg/user.py": USER,
        },
        "pkg/helper.py",
        "pkg/tools.py",
        ("pkg/tools.py", 2, "reportUndefinedVariable"),
    ),
    "typescript": (
        {
            "tsconfig.json": TS_CONFIG,
            "src/core.ts": "export const bad: string = 1;\n" + CORE,
            "src/user.ts": TS_USER,
        },
        "src/core.ts",
        "src/base.ts",
        ("src/base.ts", 1, "2322"),
    ),
    "mypy": (STRICT, "app/shapes.py", "app/geometry.py", ("app/geometry.py", 5, "no-untyped-def")),
}


def move(root: Path, old: str, new: str) -> dict[str, str | None]:
    """The texts of `old` moved to `new`, every import of it updated (path -> text, None:
    gone)."""
    before, after = Path(old).stem, Path(new).stem
    texts: dict[str, str | None] = {old: None, new: (root / old).read_text()}
    for path in (root / Path(old).parts[0]).iterdir():
        text = path.read_text()
        for form in (f"pkg.{before} ", f"app.{before} ", f'"./{before}"'):
            text = text.replace(form, form.replace(before, after))
        if text != path.read_text():
            texts[str(path.relative_to(root))] = text
    return texts


def moved(root: Path, old: str, new: str) -> None:
    """`old` moved to `new` by a plain `mv` (the new file untracked: git's index says no
    rename), every import of it updated."""
    texts = move(root, old, new)
    (root / old).rename(root / new)
    for name, text in texts.items():
        if text is not None:
            (root / name).write_text(text)


@pytest.mark.parametrize("kind", list(MOVES))
def test_a_file_moved_with_its_importers_updated_changes_nothing(tmp_path: Path, kind: str) -> None:
    """A file renamed, its importers updated (trio's `_unix_pipes.py` to `_unix_fdstream.py`):
    its errors, the same in the same text, are neither introduced under the new path nor
    fixed under the old; the answer says the rename. Before: "introduced 1, fixed 1" (trio:
    2 and 2), and the stop gate held the agent after a plain move. On basedpyright, the
    TypeScript builder and mypy, HEAD's result kept of the clean tree first (the daemon's)."""
    files, old, new, error = MOVES[kind]
    made = project if kind == "mypy" else written
    root = made(tmp_path / kind, files)
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        assert codes(from_kept(warm).introduced) == []
        moved(root, old, new)
        seen(warm)
        changes = from_kept(warm)
        assert (codes(changes.introduced), codes(changes.fixed)) == ([], [])
        assert changes.renamed == {old: new}
        assert old in changes.changed and new in changes.changed
        assert f"renamed: {old} -> {new}" in changes.scope
        now = warm.run(check_all(warm.ws)).everything
        assert error in [(d.path, d.line, d.code) for d in now]  # still there, moved
        assert changes.unchanged == len(now)


def test_the_stop_gates_check_after_a_move_finds_nothing_introduced(imported: Warm) -> None:
    """The hook's and the stop gate's check (`progressive_kept`) after pkg/helper.py moved
    by a plain `mv`, pkg/user.py's import updated: nothing introduced (before, helper's
    error was, under pkg/tools.py, and the gate held the agent after a plain move)."""
    from_kept(imported)
    root = imported.root
    moved(root, "pkg/helper.py", "pkg/tools.py")
    seen(imported)
    edited = [root / "pkg/helper.py", root / "pkg/tools.py", root / "pkg/user.py"]
    progress = Progress("HEAD", edited)
    imported.run(progressive_kept.run(imported.ws, progress))
    assert progress.failed is None and progress.introduced == []
    assert progress.changed == edited
