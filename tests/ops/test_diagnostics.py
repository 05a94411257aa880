"""Diagnostics of the file as it is now, of unsaved content, and of the workspace."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.ops import check, file_diagnostics, file_since_kept
from lspd.workspace import Workspace
from tests.conftest import Warm, copy_fixture, warm_root
from tests.ops.test_committed import repo, rows
from tests.ops.test_since_kept import shifted, written_at_read

__all__ = ["repo"]  # the fixture: a git repository of the Python fixture, watched


def test_python_type_error_is_reported(py: Warm) -> None:
    result = py.run(file_diagnostics.diagnostics(py.ws, "pkg/broken.py"))
    assert result.fresh and result.errors == 1 and result.server == "basedpyright"
    [problem] = result.diagnostics
    assert (problem.line, problem.column, problem.severity) == (2, 12, "error")
    assert "not assignable" in problem.message and problem.code == "reportReturnType"


def test_python_error_just_written_then_fixed(py: Warm) -> None:
    path = py.root / "pkg/edited.py"
    path.write_text("x: int = 1\n")
    assert py.run(file_diagnostics.diagnostics(py.ws, "pkg/edited.py")).errors == 0
    path.write_text('x: int = "one"\n')
    assert py.run(file_diagnostics.diagnostics(py.ws, "pkg/edited.py")).errors == 1
    path.write_text("x: int = 2\n")
    assert py.run(file_diagnostics.diagnostics(py.ws, "pkg/edited.py")).errors == 0


def test_unsaved_content_is_checked_and_not_kept(py: Warm) -> None:
    planned = py.run(
        file_diagnostics.diagnostics(
            py.ws, "pkg/app.py", content="def f() -> int:\n    return ''\n"
        )
    )
    assert planned.errors == 1
    assert py.run(file_diagnostics.diagnostics(py.ws, "pkg/app.py")).errors == 0


def test_hints_are_not_reported(py: Warm) -> None:
    # Off, an unused import is a hint ("unnecessary"); basedpyright's default makes it a warning.
    (py.root / "pkg/unused.py").write_text("# pyright: reportUnusedImport=false\nimport os\n")
    result = py.run(file_diagnostics.diagnostics(py.ws, "pkg/unused.py"))
    assert result.diagnostics == []


def test_typescript_type_error_and_clean_edit(ts: Warm) -> None:
    broken = ts.run(file_diagnostics.diagnostics(ts.ws, "src/broken.ts"))
    assert broken.errors == 1 and broken.diagnostics[0].code == "2322"
    clean = ts.root / "src/clean.ts"
    clean.write_text("export const one: number = 1;\n")
    assert ts.run(file_diagnostics.diagnostics(ts.ws, "src/clean.ts")).errors == 0
    clean.write_text("export const two: number = 2;\n")  # clean stays clean: still an answer
    assert ts.run(file_diagnostics.diagnostics(ts.ws, "src/clean.ts")).errors == 0


def test_typescript_caller_sees_a_changed_signature(tmp_path: Path) -> None:
    """A file the caller imports, edited and restored on disk: watched, as in the daemon (not
    opened by lspd, it reached tsserver only by tsserver's own polling, late when loaded)."""
    root = copy_fixture("ts", tmp_path)
    for ts in warm_root(root, tmp_path / "logs", watch=True):
        shapes = root / "src/shapes.ts"
        original = shapes.read_text()
        shapes.write_text(original.replace("add(a: number, b: number)", "add(a: number)"))
        result = ts.run(file_diagnostics.diagnostics(ts.ws, "src/more.ts"))
        assert result.errors == 1 and "Expected 1 argument" in result.diagnostics[0].message
        shapes.write_text(original)
        assert ts.run(file_diagnostics.diagnostics(ts.ws, "src/more.ts")).errors == 0


def test_workspace_diagnostics_counts_by_file(py: Warm) -> None:
    result = py.run(check.workspace_diagnostics(py.ws, paths=["pkg/*.py"]))
    assert result.errors >= 1
    assert result.files[0].path == "pkg/broken.py"
    assert result.files_checked >= 5


def test_workspace_diagnostics_pages_every_diagnostic_exactly_once(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    (root / "pkg" / "many.py").write_text("".join(f"v{i}: int = '{i}'\n" for i in range(700)))

    async def pages(limit: int) -> list[list[tuple[str, int]]]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            out: list[list[tuple[str, int]]] = []
            offset: int | None = 0
            while offset is not None:
                page = await check.workspace_diagnostics(ws, limit=limit, offset=offset)
                # 700 + broken.py's error + greeting.py's 2 warnings of the default mode
                assert page.total == 703 and page.files_with_problems == 3
                out.append([(d.path, d.line) for d in page.diagnostics])  # type: ignore[union-attr]
                offset = page.next_offset
                assert page.truncated == (offset is not None)
            return out
        finally:
            await ws.close()

    small, large = asyncio.run(pages(100)), asyncio.run(pages(1000))
    everything = [item for page in small for item in page]
    assert len(everything) == len(set(everything)) == 703
    assert everything == [item for page in large for item in page]
    assert all(0 < len(page) <= 100 for page in small)
    assert len(large[0]) >= len(small[0]), "a larger limit never returns fewer"


def test_a_huge_message_is_shortened_and_the_answer_stays_small(py: Warm) -> None:
    name = "n" * 50_000
    result = py.run(file_diagnostics.diagnostics(py.ws, "pkg/app.py", content=f"x: int = {name}\n"))
    problem, unknown = result.diagnostics  # and `x`, whose value is undefined, is unknown
    assert problem.severity == "error" and "more characters)" in problem.message
    assert (unknown.code, unknown.line) == ("reportUnknownVariableType", 1)
    assert len(result.model_dump_json()) < 20_000


def test_a_files_baseline_compares_it_at_the_text_its_diagnostics_are_of(
    repo: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file written after its server answered and before its text was read for the
    snippets (at that reading): asked and compared again, nothing new (a line shift)."""
    broken, further = shifted(repo)
    written = written_at_read(monkeypatch, file_since_kept, broken, further)
    result = repo.run(file_diagnostics.diagnostics(repo.ws, "pkg/broken.py", baseline="HEAD"))
    assert written == [broken]
    assert result.changes is not None and rows(result.changes) == ([], [])
    assert "against the kept result of" in result.changes.scope  # HEAD's, kept
    assert (result.errors, result.total) == (0, 0)  # was: line 3 introduced, line 2 fixed
