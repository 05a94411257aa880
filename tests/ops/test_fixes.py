"""Quick fixes on basedpyright as checked diffs: each names the diagnostic it answers, says
what applying it would introduce and fix, and applies with `git apply`; nothing is written."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops.changes_page import memory_of
from lspd.ops.edit_models import FixesResult
from lspd.surface.table import call, operation
from tests.conftest import Warm, warm_workspace
from tests.ops.applied import applied, basedpyright_errors
from tests.ops.test_rename import texts

NEEDS_IMPORT = "shop/needs_import.py"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The edits fixture on basedpyright: fixes never write, so its tests share it."""
    yield from warm_workspace("edits_py", tmp_path_factory)


def fixes(warm: Warm, **arguments: object) -> FixesResult:
    before = texts(warm.root)
    result: FixesResult = warm.run(call(operation("fixes"), warm.ws, dict(arguments)))
    assert texts(warm.root) == before  # never applied
    return result


def test_the_add_import_fix_answers_its_error_and_removes_it(shop: Warm, tmp_path: Path) -> None:
    result = fixes(shop, path=NEEDS_IMPORT, line=2)
    assert (result.path, result.server, result.diagnostics) == (NEEDS_IMPORT, "basedpyright", 3)
    first = result.fixes[0]
    assert first.title == "from pathlib import Path" and first.kind == "quickfix"
    assert first.diagnostic is not None
    assert (first.diagnostic.line, first.diagnostic.column, first.diagnostic.code) == (
        2,
        16,
        "reportUndefinedVariable",
    )
    assert first.check is not None and first.check.introduced == []
    assert ("reportUndefinedVariable", 2) in {(d.code, d.line) for d in first.check.fixed}
    assert first.diff.startswith(
        "diff --git a/shop/needs_import.py b/shop/needs_import.py\n"
        "--- a/shop/needs_import.py\n+++ b/shop/needs_import.py\n@@ -1,2 +1,5 @@\n"
        "+from pathlib import Path\n"
    )
    copy = applied(shop.root, first.diff, tmp_path)
    before = basedpyright_errors(shop.root)
    assert (NEEDS_IMPORT, 2, "reportUndefinedVariable") in before
    assert basedpyright_errors(copy) == [e for e in before if e[0] != NEEDS_IMPORT]


def test_a_fix_that_would_break_something_says_so(shop: Warm) -> None:
    result = fixes(shop, path=NEEDS_IMPORT, line=2, column=17)
    [zipfile] = [f for f in result.fixes if f.title == "from zipfile import Path"]
    assert zipfile.check is not None
    assert [(d.line, d.code) for d in zipfile.check.introduced] == [
        (5, "reportAttributeAccessIssue")
    ]


def test_each_fix_answers_the_diagnostic_it_names(shop: Warm) -> None:
    # basedpyright answers every diagnostic overlapping the range asked about.
    result = fixes(shop, path=NEEDS_IMPORT)
    ignores = {
        f.title: f.diagnostic.code for f in result.fixes if "ignore" in f.title and f.diagnostic
    }
    assert ignores == {
        f"Add `# pyright: ignore[{code}]`": code
        for code in (
            "reportUndefinedVariable",
            "reportUnknownMemberType",
            "reportUnknownArgumentType",
        )
    }
    assert len({f.title for f in result.fixes}) == len(result.fixes) == result.total


def test_a_line_without_problems_has_no_fixes(shop: Warm) -> None:
    result = fixes(shop, path="shop/models.py", line=13)
    assert (result.diagnostics, result.fixes, result.total) == (0, [], 0)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"path": NEEDS_IMPORT, "column": 3}, "send `line` with `column`"),
        ({"path": NEEDS_IMPORT, "line": 99}, "line 99 is past the end of shop/needs_import.py"),
        ({"path": NEEDS_IMPORT, "line": 2, "column": 99}, "column 99 is past the end of line 2"),
        ({"path": "../outside.py"}, "outside the workspace"),
        ({"path": "shop/missing.py"}, "missing.py"),
    ],
)
def test_bad_input_is_refused_with_what_to_send(
    shop: Warm, arguments: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        fixes(shop, **arguments)
    assert expected in str(raised.value)


def test_fixes_are_paged_each_page_checked_once(shop: Warm) -> None:
    whole = fixes(shop, path=NEEDS_IMPORT, limit=1000)
    assert whole.total > 3 and whole.next_offset is None  # all fit the budget here
    made = memory_of(shop.ws).made
    pages = [fixes(shop, path=NEEDS_IMPORT, limit=2)]
    while (at := pages[-1].next_offset) is not None:
        assert pages[-1].truncated and at == 2 * len(pages)
        pages.append(fixes(shop, path=NEEDS_IMPORT, limit=2, offset=at))
    assert [f for p in pages for f in p.fixes] == whole.fixes  # each once, checks alike
    assert all(p.total == whole.total for p in pages)
    # `skipped` on the first page only (the CLI's text joins the pages' lists).
    assert [p.skipped for p in pages[1:]] == [[]] * (len(pages) - 1)
    assert pages[0].skipped == whole.skipped
    # No watcher here: nothing says the files are unchanged, so each page checks its own.
    assert memory_of(shop.ws).made == made + whole.total


def test_basedpyright_organizes_imports_through_its_command(shop: Warm, tmp_path: Path) -> None:
    """Its code actions are quick fixes only; its `basedpyright.organizeimports` command
    answers with the sorted imports' edit (run, never applied)."""
    result = fixes(shop, path="shop/unsorted.py", source=True)
    assert result.skipped == [] and result.total == 1, result
    [organize] = result.fixes
    assert (organize.title, organize.kind) == ("Organize imports", "source.organizeImports")
    assert organize.check is not None and organize.check.introduced == []
    copy = applied(shop.root, organize.diff, tmp_path)
    # Sorted by module name, `from` and `import` alike; nothing else changes.
    assert (copy / "shop/unsorted.py").read_text() == (
        "import os\nfrom pathlib import Path\nimport sys\n\n\n"
        "def where() -> str:\n    return os.sep + sys.prefix + str(Path.cwd())\n"
    )
