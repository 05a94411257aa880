"""What a change introduced, a page at a time, from one comparison: on a real git repository
and basedpyright, with a signature change that breaks more call sites than one answer holds."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics, preview
from lspd.ops.budget import BUDGET_CHARS, size
from lspd.ops.changes_page import Kept, memory_of, workspace_comparison, workspace_cut
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from lspd.ops.models import FileDiagnostic, PreviewResult
from lspd.workspace import Workspace, typescript_projects
from lspd.workspace.question import one_question
from lspd.workspace.tsconfig_scope import TsConfig
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import listed, native_project

CALLS = 300  # call sites the signature change breaks: some 55,000 characters of diagnostics
FIXED = 40  # call sites with two arguments: errors before it, fixed by it
SIGNATURE = "def f(x: int) -> int:"
TWO_PARAMETERS = "def f(x: int, y: int) -> int:"


def project(root: Path) -> Path:
    """`f` with one parameter, called with one argument `CALLS` times (fine) and with two
    `FIXED` times (an error each), committed."""
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "paging"\nversion = "0"\n\n'
        '[tool.basedpyright]\ntypeCheckingMode = "standard"\n'
    )
    (root / "lib.py").write_text(f"{SIGNATURE}\n    return x\n")
    calls = "".join(f"f({i})\n" for i in range(CALLS))
    (root / "users.py").write_text(f"from lib import f\n\n{calls}")
    pairs = "".join(f"f({i}, {i})\n" for i in range(FIXED))
    (root / "others.py").write_text(f"from lib import f\n\n{pairs}")
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *command], check=True, capture_output=True)
    return root


warm = contextlib.contextmanager(warm_root)  # a workspace of a test's own, closed after it


def change_signature(root: Path) -> None:
    lib = root / "lib.py"
    lib.write_text(lib.read_text().replace(SIGNATURE, TWO_PARAMETERS))


@pytest.fixture
def changed(tmp_path: Path) -> Iterator[Warm]:
    """The project after the signature change, its watcher running as in the daemon."""
    root = project(tmp_path / "paging")
    change_signature(root)
    yield from warm_root(root, tmp_path / "logs", watch=True)


def broken_calls() -> set[tuple[str, int]]:
    return {("users.py", 3 + i) for i in range(CALLS)}


def every_page(warm: Warm, limit: int = 1000) -> list[WorkspaceDiagnosticsResult]:
    ask = check_ops.workspace_diagnostics
    pages = [warm.run(ask(warm.ws, limit=limit, baseline="HEAD"))]
    while (at := pages[-1].next_offset) is not None:
        pages.append(warm.run(ask(warm.ws, limit=limit, offset=at, baseline="HEAD")))
    return pages


def introduced(pages: list[WorkspaceDiagnosticsResult]) -> list[FileDiagnostic]:
    return [d for p in pages if p.changes is not None for d in p.changes.introduced]


def test_pages_by_next_offset_hold_every_introduced_diagnostic_once(changed: Warm) -> None:
    pages = every_page(changed)
    assert len(pages) > 2  # the whole list is several answers long
    found = introduced(pages)
    assert len(found) == CALLS
    assert {(d.path, d.line) for d in found} == broken_calls()
    assert all(d.code == "reportCallIssue" and d.severity == "error" for d in found)
    first, rest = pages[0], pages[1:]
    assert first.changes is not None
    assert (first.total, first.errors, first.offset, first.truncated) == (CALLS, CALLS, 0, True)
    assert [p.offset for p in rest] == [p.next_offset for p in pages[:-1]]
    assert pages[-1].next_offset is None and not pages[-1].truncated
    assert all(size(p) <= BUDGET_CHARS for p in pages)
    # What the change fixed: on the first page as far as the budget allows, counted whole.
    fixed = first.changes.fixed
    assert 0 < len(fixed) < FIXED and first.changes.fixed_total == FIXED
    assert {(d.path, d.code) for d in fixed} == {("others.py", "reportCallIssue")}
    assert all(p.changes is not None and p.changes.fixed == [] for p in rest)
    assert all(p.changes is not None and p.changes.fixed_total == FIXED for p in rest)
    # The counts per file are complete on every page.
    assert all([(c.path, c.errors) for c in p.files] == [("users.py", CALLS)] for p in pages)


def test_fixed_is_the_first_pages_and_narrower_paths_list_the_rest(changed: Warm) -> None:
    """`fixed` lists on the first page as many as fit, `fixed_total` counts all, and the
    question narrowed to their file lists them all (the way on that the schema names). A
    first page whose `fixed` is cut is `truncated`, its introduced all listed or not:
    before, only a preview's was (a reader of `fixed` alone undercounts)."""
    ask = check_ops.workspace_diagnostics
    first = changed.run(ask(changed.ws, limit=1000, baseline="HEAD"))
    assert first.changes is not None and first.changes.fixed_total == FIXED
    assert 0 < len(first.changes.fixed) < FIXED and first.truncated
    narrow = changed.run(ask(changed.ws, paths=["others.py"], baseline="HEAD"))
    assert narrow.changes is not None and narrow.changes.fixed_total == FIXED
    assert (len(narrow.changes.fixed), narrow.total, narrow.truncated) == (FIXED, 0, False)
    whole = next(iter(memory_of(changed.ws).kept.values())).changes  # the first question's
    many = whole.model_copy(update={"introduced": [], "fixed": whole.fixed * 100})
    alone = workspace_cut(Kept(many, 3), 0, 1000)  # no introduced: fixed alone is cut
    assert alone.changes is not None and alone.changes.fixed_total == FIXED * 100
    assert 0 < len(alone.changes.fixed) < FIXED * 100
    assert (alone.total, alone.next_offset, alone.truncated) == (0, None, True)  # was False


def test_the_next_pages_are_cut_from_the_same_comparison(changed: Warm) -> None:
    memory = memory_of(changed.ws)
    pages = every_page(changed)
    assert len(pages) > 2 and memory.made == 1
    [kept] = memory.kept.values()
    assert pages[1].changes is not None
    assert pages[1].changes.introduced[0] is kept.changes.introduced[pages[1].offset]
    # A file changes: the next question compares again.
    (changed.root / "users.py").write_text("from lib import f\n\nf(1)\n")
    again = every_page(changed)
    assert memory.made == 2 and len(again) == 1 and again[0].total == 1


def test_a_larger_limit_never_lists_fewer(changed: Warm) -> None:
    ask = check_ops.workspace_diagnostics
    listed: list[int] = []
    for limit in (1, 2, 5, 10, 50, 100, 300, 1000):
        page = changed.run(ask(changed.ws, limit=limit, baseline="HEAD"))
        assert page.changes is not None and page.total == CALLS
        listed.append(len(page.changes.introduced))
    assert listed == sorted(listed) and listed[:3] == [1, 2, 5] and listed[-1] < CALLS
    assert memory_of(changed.ws).made == 1
    # Every limit up to 1000, and every offset, on the kept comparison (the same cut).
    [kept] = memory_of(changed.ws).kept.values()
    for offset in (0, 37, CALLS - 1):
        counts = [len(_introduced(workspace_cut(kept, offset, n))) for n in range(1, 1001)]
        assert counts == sorted(counts), offset
        assert counts[0] == 1 and counts[-1] == max(counts)
        assert counts[:10] == [min(n, CALLS - offset) for n in range(1, 11)]


def _introduced(page: WorkspaceDiagnosticsResult) -> list[FileDiagnostic]:
    assert page.changes is not None
    return page.changes.introduced


def test_a_files_diagnostics_with_a_baseline_are_paged_too(tmp_path: Path) -> None:
    root = project(tmp_path / "paging")
    users = root / "users.py"
    users.write_text(users.read_text().replace("f(", "f('").replace(")\n", "')\n"))
    ask = file_diagnostics.diagnostics
    with warm(root, tmp_path / "logs", watch=True) as own:
        pages = [own.run(ask(own.ws, "users.py", baseline="HEAD"))]
        while (at := pages[-1].next_offset) is not None:
            pages.append(own.run(ask(own.ws, "users.py", offset=at, baseline="HEAD")))
        listed = []
        for limit in [*range(1, 41), 100, 300, 1000]:
            page = own.run(ask(own.ws, "users.py", limit=limit, offset=5, baseline="HEAD"))
            assert page.changes is not None and page.next_offset is not None
            listed.append(len(page.changes.introduced))
        assert memory_of(own.ws).made == 1
    assert listed == sorted(listed) and listed[:40] == list(range(1, 41))
    found = [d for p in pages if p.changes is not None for d in p.changes.introduced]
    assert len(pages) > 2 and len(found) == CALLS
    assert {(d.path, d.line, d.code) for d in found} == {
        (path, line, "reportArgumentType") for path, line in broken_calls()
    }
    assert all(p.total == CALLS and p.errors == CALLS and p.diagnostics == [] for p in pages)
    assert pages[0].truncated and not pages[-1].truncated
    assert all(size(p) <= BUDGET_CHARS for p in pages)


def test_a_preview_is_paged_from_the_preview_made_once(tmp_path: Path) -> None:
    root = project(tmp_path / "paging")
    with warm(root, tmp_path / "logs", watch=True) as own:
        memory = memory_of(own.ws)
        text = (root / "lib.py").read_text().replace(SIGNATURE, TWO_PARAMETERS)
        change = [{"path": "lib.py", "content": text}]
        pages = [own.run(preview.preview(own.ws, change))]
        while (at := pages[-1].next_offset) is not None:
            pages.append(own.run(preview.preview(own.ws, change, offset=at)))
        first = pages[0]
        assert len(pages) > 2 and memory.made == 1  # the next pages were cut from the first
        assert (first.total, first.errors, first.truncated) == (CALLS, CALLS, True)
        listed = [d for p in pages for d in p.changes.introduced]
        assert len(listed) == CALLS and {(d.path, d.line) for d in listed} == broken_calls()
        assert all(size(p) <= BUDGET_CHARS for p in pages)
        assert pages[-1].next_offset is None and not pages[-1].truncated
        # What it fixes: on the first page as far as it fits, counted whole on every page.
        assert 0 < len(first.changes.fixed) < FIXED
        assert all(p.changes.fixed_total == FIXED for p in pages)
        # The counts per file, complete and alike on every page; the disk is unchanged.
        counts = [("lib.py", 0), ("users.py", CALLS)]  # the changed file's, and the broken
        assert all(sorted((c.path, c.errors) for c in p.files) == counts for p in pages)
        assert all(p.files_total == 2 for p in pages)
        assert (root / "lib.py").read_text().startswith(SIGNATURE)
        # The whole answer, as a rename's check takes it, lists every one.
        whole = own.run(preview.previewed(own.ws, change))
        assert len(whole.changes.introduced) == CALLS and not whole.truncated
        # A file changed on disk: the next page asks the engine again.
        (root / "others.py").write_text("from lib import f\n\nf(1, 2)\n")
        again = own.run(preview.preview(own.ws, change, offset=1))
        assert memory.made == 2 and again.total == CALLS


def test_without_a_watcher_a_questions_pages_are_cut_from_one_preview(tmp_path: Path) -> None:
    # A one-shot command asking every page (`lspd preview --json`) is one question: the disk
    # is one state throughout, so its pages come from the preview made for the first.
    root = project(tmp_path / "paging")
    text = (root / "lib.py").read_text().replace(SIGNATURE, TWO_PARAMETERS)
    change = [{"path": "lib.py", "content": text}]

    async def every_preview_page() -> list[PreviewResult]:
        with one_question():
            pages = [await preview.preview(own.ws, change)]
            while (at := pages[-1].next_offset) is not None:
                pages.append(await preview.preview(own.ws, change, offset=at))
        return pages

    with warm(root, tmp_path / "logs") as own:
        memory = memory_of(own.ws)
        pages = own.run(every_preview_page())
        assert len(pages) > 2 and memory.made == 1
        listed = [d for p in pages for d in p.changes.introduced]
        assert len(listed) == CALLS and {(d.path, d.line) for d in listed} == broken_calls()
        # Outside a question nothing says the disk is as it was: made again.
        again = own.run(preview.preview(own.ws, change, offset=1))
        assert memory.made == 2 and again.total == CALLS


def test_without_a_watcher_nothing_is_kept(tmp_path: Path) -> None:
    root = project(tmp_path / "paging")
    change_signature(root)
    with warm(root, tmp_path / "logs") as own:
        first = own.run(check_ops.workspace_diagnostics(own.ws, baseline="HEAD"))
        assert memory_of(own.ws).kept == {}
        kept = check_ops.from_kept(own.ws, "HEAD", None, False)
        again = own.run(workspace_comparison(own.ws, "HEAD", None, lambda _: True, kept))
        assert again.changes.fixed_total == FIXED and len(again.changes.introduced) == CALLS
        # The comparison is made again, from HEAD's result kept by the first one.
        assert first.changes is not None and "(checked)" in first.changes.scope
        assert "(kept)" in again.changes.scope


def test_a_one_shot_comparison_reads_the_scope_and_the_program_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a watcher (`lspd check --baseline HEAD`, no daemon) the gate's scope and a
    TypeScript 7 program are read once for the question (mobx: three Node runs of TypeScript's
    tsconfig reading, 0.75-0.84 s each at load 8, and three `tsc -p --listFilesOnly`), and
    once more for the next question (a file may have come)."""
    root = native_project(tmp_path / "ts7")
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run(["git", *author, *args], cwd=root, check=True, capture_output=True)
    (root / "src" / "leaf.ts").write_text("export const x: string = 1;\n")
    scopes: list[list[Path]] = []
    reading = typescript_projects.read_tsconfigs

    def counted(configs: list[Path], *rest: Any) -> list[TsConfig]:
        read = reading(configs, *rest)  # TypeScript 7's own package raises: it has no API
        scopes.append(configs)
        return read

    monkeypatch.setattr(typescript_projects, "read_tsconfigs", counted)
    listings = listed(monkeypatch)

    async def introduced(ws: Workspace) -> list[tuple[str, str]]:
        result = await check_ops.workspace_diagnostics(ws, limit=1000, baseline="HEAD")
        assert result.changes is not None
        return [(d.path or "", d.code or "") for d in result.changes.introduced]

    async def run() -> None:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            assert ws.changes_seen is None
            assert await introduced(ws) == [("src/leaf.ts", "2322")]
            assert len(scopes) == 1 and listings == [root / "tsconfig.json"]
            assert await introduced(ws) == [("src/leaf.ts", "2322")]  # the next: read again
            assert len(scopes) == 2 and listings == [root / "tsconfig.json"] * 2
        finally:
            await ws.close()

    asyncio.run(run())
