"""A comparison with the kept result is made of one disk state (`ops/since_kept.settled`):
on a real git repository, basedpyright and a watched workspace (as in the daemon), a file
written after the check answered and before the comparison read its text (the write made
at that very read, no sleep) is checked and compared again, so its snippets and line
shifts are of the text its diagnostics are of: `check --baseline` and the hook's check.
Before, an unchanged error was "introduced" and "fixed" at once."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from lspd.ops import progressive_kept, since_kept
from lspd.ops.progressive import Progress
from tests.conftest import Warm
from tests.ops.test_committed import from_kept, repo, rows

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
