"""`unresolved` in references and incoming call hierarchies, on real servers: the uses of the
same name that the checker ties to no declaration (untyped or `any` receivers, getattr)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd import ops
from lspd.ops import confirm, navigation, references
from lspd.ops.candidates import MAX_CANDIDATES
from lspd.ops.navigation_models import ReferencesResult
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, copy_fixture, warm_workspace


@pytest.fixture(scope="module")
def dyn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A hand-made package calling `Store.fetch` on typed, untyped and `Any` receivers."""
    yield from warm_workspace("dynamic_py", tmp_path_factory)


@pytest.fixture(scope="module")
def dyn_ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The same in TypeScript, with `any`."""
    yield from warm_workspace("dynamic_ts", tmp_path_factory)


def _places(
    groups: list[ops.navigation_models.FileReferences],
) -> list[tuple[str, int, int, str | None]]:
    return [(g.path, r.line, r.column, r.symbol) for g in groups for r in g.references]


def test_python_untyped_any_and_getattr_uses_are_unresolved(dyn: Warm) -> None:
    result = dyn.run(references.references(dyn.ws, symbol="Store.fetch"))
    assert _places(result.files) == [
        ("dyn/store.py", 10, 9, "Store.fetch"),
        ("dyn/store.py", 20, 18, "typed"),
        ("dyn/use.py", 5, 68, "handed"),
    ]
    # Not listed: Cache.fetch and its call (another symbol), the docstring, comment and
    # strings, scripts/outside.py (its gate, pyproject.toml, checks dyn/ only);
    # `hasattr(thing, "fetch")` is, as the name of an attribute of anything.
    assert _places(result.unresolved) == [
        ("dyn/store.py", 24, 18, "untyped"),
        ("dyn/store.py", 28, 18, "anything"),
        ("dyn/store.py", 32, 28, "dynamic"),
        ("dyn/use.py", 5, 28, "handed"),
        ("dyn/use.py", 5, 46, "handed"),
    ]
    assert [g.count for g in result.unresolved] == [3, 2]
    assert result.unresolved[0].references[0].text == 'return store.fetch("b")'
    assert (result.total, result.unresolved_total) == (3, 5)
    assert result.summary == (
        "3 references in 2 files; 5 more uses of `.fetch` whose receiver the checker cannot "
        "type, 2 by name in getattr/setattr/hasattr (`unresolved`); 1 more use of `.fetch` in "
        "1 file the gate does not check, not asked (`outside`; `all` asks about them)"
    )
    # scripts/ is not in the gate (pyproject.toml includes dyn/ only): listed apart, unasked.
    assert _places(result.outside or []) == [("scripts/outside.py", 5, 18, "run")]
    assert result.outside_total == 1


def test_all_asks_the_server_about_the_uses_outside_the_gate(dyn: Warm) -> None:
    result = dyn.run(references.references(dyn.ws, symbol="Store.fetch", all=True))
    # Local.fetch (scripts/outside.py:9) is another symbol; run's untyped receiver is not.
    assert _places(result.unresolved)[-1] == ("scripts/outside.py", 5, 18, "run")
    assert (result.unresolved_total, result.outside, result.outside_total) == (6, None, 0)
    assert "outside" not in result.summary
    calls = dyn.run(references.call_hierarchy(dyn.ws, symbol="Store.fetch"))
    assert [(c.path, c.line, c.symbol) for c in calls.outside or []] == [
        ("scripts/outside.py", 5, "run")
    ]
    asked = dyn.run(references.call_hierarchy(dyn.ws, symbol="Store.fetch", all=True))
    assert [(c.path, c.line, c.symbol) for c in asked.unresolved][-1] == (
        "scripts/outside.py",
        5,
        "run",
    )
    assert asked.outside is None


def test_implementation_lists_the_uses_outside_the_gate_and_asks_with_all(dyn: Warm) -> None:
    result = dyn.run(navigation.implementation(dyn.ws, symbol="Store"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("dyn/store.py", 9)]
    assert _places(result.outside or []) == [
        ("scripts/outside.py", 1, 23, None),  # the import
        ("scripts/outside.py", 8, 13, "Local"),
    ]
    assert result.outside_total == 2
    asked = dyn.run(navigation.implementation(dyn.ws, symbol="Store", all=True))
    assert [(loc.path, loc.line, loc.symbol) for loc in asked.locations] == [
        ("dyn/store.py", 9, "Store"),
        ("scripts/outside.py", 8, "Local"),
    ]
    assert asked.outside is None


def test_kind_calls_lists_call_sites_only(dyn: Warm, dyn_ts: Warm) -> None:
    py = dyn.run(references.references(dyn.ws, symbol="Store.fetch", kind="calls"))
    # Not the declaration (store.py:10), nor getattr's or hasattr's string.
    assert _places(py.files) == [("dyn/store.py", 20, 18, "typed"), ("dyn/use.py", 5, 68, "handed")]
    assert _places(py.unresolved) == [
        ("dyn/store.py", 24, 18, "untyped"),
        ("dyn/store.py", 28, 18, "anything"),
        ("dyn/use.py", 5, 46, "handed"),
    ]
    assert py.summary.startswith("2 calls in 2 files; 3 more uses of `.fetch` ")
    ts = dyn_ts.run(references.references(dyn_ts.ws, symbol="typed", kind="calls"))
    # Not the declaration, the import, the re-export, nor `[typed]` handed on as a value.
    assert _places(ts.files) == [("src/calls.ts", 4, 22, "first")]
    whole = dyn_ts.run(references.references(dyn_ts.ws, symbol="typed"))
    assert [(p, line) for p, line, _, _ in _places(whole.files)] == [
        ("src/calls.ts", 1),
        ("src/calls.ts", 2),
        ("src/calls.ts", 4),
        ("src/calls.ts", 5),
        ("src/store.ts", 13),
    ]


def test_unresolved_false_skips_the_scan_and_says_so(dyn: Warm) -> None:
    result = dyn.run(references.references(dyn.ws, symbol="Store.fetch", unresolved=False))
    assert (result.total, result.unresolved, result.unresolved_total) == (3, [], 0)
    assert result.candidates is None
    assert result.summary == (
        "3 references in 2 files; uses the checker cannot resolve not looked for: "
        "`unresolved: false` was sent"
    )


def test_a_symbol_without_unresolved_uses_says_so(dyn: Warm) -> None:
    result = dyn.run(references.references(dyn.ws, symbol="Cache.fetch"))
    assert _places(result.files) == [
        ("dyn/store.py", 15, 9, "Cache.fetch"),
        ("dyn/store.py", 37, 18, "other"),
    ]
    assert result.unresolved_total == 5  # the same uses: no checker ties them to either
    cache = dyn.run(references.references(dyn.ws, symbol="Cache"))
    assert cache.unresolved == [] and cache.unresolved_total == 0
    assert cache.summary == (
        "2 references in 1 file; no other use of `Cache` in the checked files (no `unresolved`)"
    )


def test_a_function_used_through_an_unknown_module_is_unresolved(dyn: Warm) -> None:
    result = dyn.run(references.references(dyn.ws, symbol="typed"))
    assert _places(result.files) == [("dyn/store.py", 19, 5, "typed")]
    # `module.typed(…)` is listed; `dict(typed=…)` names a parameter, not the function.
    assert _places(result.unresolved) == [("dyn/use.py", 9, 19, "by_module")]
    assert result.summary == (
        "1 reference in 1 file; 1 more use of `typed` the checker ties to no declaration "
        "(`unresolved`)"
    )


def test_both_lists_are_paged_by_the_same_window(dyn: Warm) -> None:
    whole = dyn.run(references.references(dyn.ws, symbol="Store.fetch"))
    seen: list[tuple[str, int, int, str | None]] = []
    refs: list[tuple[str, int, int, str | None]] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        part = dyn.run(references.references(dyn.ws, symbol="Store.fetch", limit=2, offset=offset))
        assert (part.total, part.unresolved_total) == (3, 5)
        assert sum(g.count for g in part.unresolved) == 5  # complete counts on every page
        refs += _places(part.files)
        seen += _places(part.unresolved)
        offset = part.next_offset
        pages += 1
    assert pages == 3
    assert refs == _places(whole.files) and seen == _places(whole.unresolved)


def test_incoming_calls_list_the_unresolved_callers(dyn: Warm) -> None:
    result = dyn.run(references.call_hierarchy(dyn.ws, symbol="Store.fetch"))
    assert [(c.symbol, c.path, c.line) for c in result.calls] == [
        ("typed", "dyn/store.py", 20),
        ("handed", "dyn/use.py", 5),
    ]
    assert [(c.symbol, c.kind, c.path, c.line, c.column) for c in result.unresolved] == [
        ("untyped", "function", "dyn/store.py", 24, 18),
        ("anything", "function", "dyn/store.py", 28, 18),
        ("dynamic", "function", "dyn/store.py", 32, 28),
        ("handed", "function", "dyn/use.py", 5, 28),
        ("handed", "function", "dyn/use.py", 5, 46),
    ]
    assert result.summary.startswith("2 calls in 2 files; 5 more uses of `.fetch` ")
    outgoing = dyn.run(references.call_hierarchy(dyn.ws, symbol="typed", direction="outgoing"))
    assert outgoing.unresolved == [] and outgoing.summary == "1 call in 1 file"


def test_typescript_any_receivers_are_unresolved(dyn_ts: Warm) -> None:
    result = dyn_ts.run(references.references(dyn_ts.ws, symbol="Store.fetch"))
    assert [(p, line) for p, line, _, _ in _places(result.files)] == [
        ("src/store.ts", 2),
        ("src/store.ts", 14),
        ("src/use.ts", 3),
    ]
    # Not listed: Cache.fetch's call, comments, strings, a regular expression, template text.
    assert [(p, line, column) for p, line, column, _ in _places(result.unresolved)] == [
        ("src/store.ts", 18, 16),
        ("src/store.ts", 29, 40),  # `${(store as any).fetch(…)}` is code
        ("src/use.ts", 3, 53),
    ]
    assert result.summary == (
        "3 references in 2 files; 3 more uses of `.fetch` whose receiver the checker cannot "
        "type (`unresolved`); 1 more use of `.fetch` in 1 file the gate does not check, not "
        "asked (`outside`; `all` asks about them)"
    )


def test_typescript_implementations_outside_the_tsconfig_are_found_with_all(dyn_ts: Warm) -> None:
    # tests/local.ts is outside the tsconfig's `include`: tsserver answers it from a project
    # of its own, which the question at the declaration never searches.
    result = dyn_ts.run(navigation.implementation(dyn_ts.ws, symbol="Store"))
    assert [(loc.path, loc.line) for loc in result.locations] == [("src/store.ts", 1)]
    assert _places(result.outside or []) == [
        ("tests/local.ts", 1, 10, None),
        ("tests/local.ts", 3, 28, "Local"),
    ]
    asked = dyn_ts.run(navigation.implementation(dyn_ts.ws, symbol="Store", all=True))
    assert [(loc.path, loc.line, loc.symbol) for loc in asked.locations] == [
        ("src/store.ts", 1, "Store"),
        ("tests/local.ts", 3, "Local"),
    ]
    refs = dyn_ts.run(references.references(dyn_ts.ws, symbol="Store.fetch", all=True))
    assert ("tests/local.ts", 10, 16, "run") in _places(refs.unresolved)


def test_calls_after_strings_and_in_f_string_fields_are_unresolved(dyn: Warm) -> None:
    # dyn/web.py: a %-dict after adjacent strings holding apostrophes, a set literal passed
    # as a keyword argument below a docstring quoting 'next', an f-string's field. There
    # basedpyright answers the definition of `.get_host` on an unknown receiver with the
    # function called (`def allowed`) or `str.__mod__`: no declaration of `get_host`.
    result = dyn.run(references.references(dyn.ws, symbol="Request.get_host"))
    assert _places(result.files) == [("dyn/web.py", 5, 9, "Request.get_host")]
    assert _places(result.unresolved) == [
        ("dyn/web.py", 32, 28, "slash"),
        ("dyn/web.py", 49, 32, "set_language"),
        ("dyn/web.py", 53, 39, "set_language"),
    ]


def test_a_word_of_a_shell_script_in_a_string_is_no_use(dyn: Warm) -> None:
    # `echo` on a line of a %-formatted triple-quoted script with backslash continuations.
    result = dyn.run(references.references(dyn.ws, symbol="echo"))
    assert _places(result.files) == [
        ("dyn/web.py", 9, 5, "echo"),
        ("dyn/web.py", 53, 12, "set_language"),
    ]
    assert result.unresolved == [] and result.candidates == 3
    assert result.summary == (
        "2 references in 1 file; no other use of `echo` in the checked files (no `unresolved`)"
    )


def _common(root: Path) -> None:
    """A module where `fetch` stands more often than the scan asks about."""
    lines = [f"# fetch {i}" for i in range(MAX_CANDIDATES)]
    (root / "dyn" / "common.py").write_text("\n".join(lines) + "\n")


def test_a_name_too_common_to_scan_answers_the_references_and_why(tmp_path: Path) -> None:
    root = copy_fixture("dynamic_py", tmp_path)
    _common(root)
    result = answer(root, lambda ws: references.references(ws, symbol="Store.fetch"))
    assert result.total == 3 and result.unresolved == [] and result.unresolved_total == 0
    candidates = MAX_CANDIDATES + 15  # the module's and the package's
    assert result.candidates == candidates
    assert result.summary == (
        "3 references in 2 files; uses the checker cannot resolve not looked for: `fetch` "
        f"stands {candidates} times in 3 files, over the {MAX_CANDIDATES} lspd asks about; "
        "1 more use of `.fetch` in 1 file the gate does not check, not asked (`outside`; `all` "
        "asks about them)"
    )
    # The uses outside the gate are still listed: few of them stand there.
    assert _places(result.outside or []) == [("scripts/outside.py", 5, 18, "run")]


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Python package with its watcher running, as in the daemon."""
    yield from warm_workspace("dynamic_py", tmp_path_factory, watch=True)


def test_past_the_deadline_the_answer_says_what_was_not_asked_and_goes_on_next_time(
    watched: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(confirm, "DEADLINE_S", 0.0)  # nothing can be asked in time
    cut = watched.run(references.references(watched.ws, symbol="Store.fetch"))
    # Only the getattr/hasattr names, which need no question; the 3 others are said missing.
    assert [(p, line) for p, line, _, _ in _places(cut.unresolved)] == [
        ("dyn/store.py", 32),
        ("dyn/use.py", 5),
    ]
    assert cut.summary == (
        "3 references in 2 files; 2 more uses of `.fetch` (`unresolved`) so far: 4 other uses "
        "were not asked within 0 s, ask again to go on; 1 more use of `.fetch` in 1 file the "
        "gate does not check, not asked (`outside`; `all` asks about them)"
    )
    monkeypatch.setattr(confirm, "DEADLINE_S", 5.0)
    whole = watched.run(references.references(watched.ws, symbol="Store.fetch"))
    assert whole.unresolved_total == 5
    # Nothing changed since: the answers are kept, so even no time at all is enough now.
    monkeypatch.setattr(confirm, "DEADLINE_S", 0.0)
    again = watched.run(references.references(watched.ws, symbol="Store.fetch"))
    assert _places(again.unresolved) == _places(whole.unresolved)
    # A file changes: everything is asked again.
    (watched.root / "dyn" / "new.py").write_text("def later(x):\n    return x.fetch()\n")
    watched.run(watched.ws.watcher.catch_up())  # type: ignore[union-attr]
    changed = watched.run(references.references(watched.ws, symbol="Store.fetch"))
    assert changed.unresolved_total == 2 and "were not asked" in changed.summary


TYPED_OUTSIDE = """\
from dyn.store import Store


def typed_outside() -> str:
    return Store().fetch("typed, in a file the gate does not check")
"""


async def _asked_outside(ws: Workspace) -> tuple[ReferencesResult, ReferencesResult, list[str]]:
    alone = await references.references(ws, symbol="Store.fetch", unresolved=False)
    asked = await references.references(ws, symbol="Store.fetch", unresolved=False, all=True)
    calls = await references.call_hierarchy(ws, symbol="Store.fetch", unresolved=False, all=True)
    return alone, asked, [f"{c.path}:{c.line} {c.symbol}" for c in calls.calls]


def test_all_asks_about_the_files_outside_the_gate_without_unresolved(tmp_path: Path) -> None:
    root = copy_fixture("dynamic_py", tmp_path)
    (root / "scripts" / "typed.py").write_text(TYPED_OUTSIDE)
    alone, asked, calls = answer(root, _asked_outside)
    assert [p for p, *_ in _places(alone.files)] == ["dyn/store.py", "dyn/store.py", "dyn/use.py"]
    # The typed call in scripts/ (outside the gate) joins; untyped `run`'s is not listed.
    assert _places(asked.files)[-1] == ("scripts/typed.py", 5, 20, "typed_outside")
    assert (asked.total, asked.unresolved, asked.outside, asked.outside_total) == (4, [], None, 0)
    assert asked.candidates is None
    assert asked.summary == (
        "4 references in 3 files; uses the checker cannot resolve not looked for: "
        "`unresolved: false` was sent"
    )
    assert calls == [
        "dyn/store.py:20 typed",
        "dyn/use.py:5 handed",
        "scripts/typed.py:5 typed_outside",
    ]


def test_all_without_unresolved_says_what_the_deadline_left_unasked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_fixture("dynamic_py", tmp_path)
    (root / "scripts" / "typed.py").write_text(TYPED_OUTSIDE)
    monkeypatch.setattr(confirm, "DEADLINE_S", 0.0)  # nothing outside can be asked in time
    _, asked, _ = answer(root, _asked_outside)
    assert [p for p, *_ in _places(asked.files)] == ["dyn/store.py", "dyn/store.py", "dyn/use.py"]
    assert asked.summary == (  # the typed call in scripts/ and untyped `run`'s
        "3 references in 2 files; uses the checker cannot resolve not looked for: "
        "`unresolved: false` was sent; 2 other uses not asked within 0 s, ask again"
    )
