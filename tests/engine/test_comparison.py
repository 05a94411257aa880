"""The engine's comparison of two states: by key (file, severity, code, message, snippet),
as multisets, never by line; a second check of one state keeps a flaky diagnostic from
being new or fixed."""

from __future__ import annotations

from lspd.engine.comparison import Again, Difference, Found, difference
from lspd.engine.seen import Key

Item = tuple[str, int]


def _found(name: str, line: int, snippet: str = "x") -> Found[Item]:
    """A diagnostic (its name and line: what a caller's model would hold) with its key."""
    key: Key = ("a.py", "error", "code", name, snippet)
    return Found((name, line), key)


def _said(found: Difference[Item]) -> tuple[list[Item], list[Item], int]:
    """Introduced, fixed (the caller's items, in order) and unchanged."""
    return (
        [f.diagnostic for f in found.introduced],
        [f.diagnostic for f in found.fixed],
        found.unchanged,
    )


def test_a_line_shift_is_unchanged_and_a_new_key_is_introduced() -> None:
    before = [_found("old", 3)]
    after = [_found("old", 7), _found("new", 1)]
    found = difference(before, after)
    assert _said(found) == ([("new", 1)], [], 1)


def test_a_key_gone_is_fixed_and_a_second_copy_of_a_key_is_introduced() -> None:
    before = [_found("same", 1), _found("gone", 2)]
    after = [_found("same", 1), _found("same", 5)]
    found = difference(before, after)
    assert _said(found) == ([("same", 5)], [("gone", 2)], 1)


def test_the_same_message_at_another_snippet_is_another_diagnostic() -> None:
    found = difference([_found("m", 1, "a")], [_found("m", 1, "b")])
    assert _said(found) == ([("m", 1)], [("m", 1)], 0)


def test_a_diagnostic_the_second_check_of_the_unchanged_text_has_is_not_new() -> None:
    flaky = _found("flaky", 4)
    again = Again("before", [flaky])
    found = difference([], [flaky], again)
    assert _said(found) == ([], [], 1)
    assert difference([], [flaky]).introduced == [flaky]


def test_a_diagnostic_the_second_check_of_the_changed_text_lacks_is_not_new() -> None:
    flaky = _found("flaky", 4)
    found = difference([], [flaky], Again("after", []))
    assert _said(found)[:2] == ([], [])


def test_a_diagnostic_the_changed_state_did_not_check_is_unchecked_not_fixed() -> None:
    """A checker stopped at a syntax error in the changed state (`engine/stops.py`): what
    it did not check is neither fixed nor unchanged."""
    gone, kept = _found("gone", 2), _found("kept", 3)
    found = difference([gone, kept], [kept], hidden=lambda f: f.key[3] == "gone")
    assert _said(found) == ([], [], 1)
    assert found.unchecked == [gone]


def test_a_diagnostic_the_baseline_did_not_check_is_unseen_not_introduced() -> None:
    """The baseline's checker stopped at a syntax error the change fixes: what it did not
    check there is neither introduced nor unchanged; a new one elsewhere is introduced."""
    back, kept, new = _found("back", 2), _found("kept", 3), _found("new", 4)
    found = difference([kept], [back, kept, new], unseen=lambda f: f.key[3] == "back")
    assert _said(found) == ([("new", 4)], [], 1)
    assert found.unseen == [back]


def test_a_renamed_files_diagnostics_are_its_new_paths() -> None:
    """A file moved (its importers updated): its errors under the new path are the old
    path's, neither introduced nor fixed; another file's of the same key are not."""
    old = Found(("m", 4), ("old.py", "error", "code", "m", "x"))
    new = Found(("m", 4), ("new.py", "error", "code", "m", "x"))
    other = Found(("m", 1), ("other.py", "error", "code", "m", "x"))
    found = difference([old], [new], renamed={"old.py": "new.py"})
    assert _said(found) == ([], [], 1)
    found = difference([old], [new, other], renamed={"old.py": "new.py"})
    assert _said(found) == ([("m", 1)], [], 1)
    gone = difference([old], [], renamed={"old.py": "new.py"})  # fixed: as the baseline had it
    assert (gone.fixed, gone.fixed[0].key[0]) == ([old], "old.py")
    before = difference([old], [new])  # before: introduced under one path, fixed under the other
    assert _said(before) == ([("m", 4)], [("m", 4)], 0)


def test_a_renamed_files_error_gone_where_a_stop_did_not_check_it_is_unchecked() -> None:
    """The stop names the file by its new path (the changed state's): `hidden` sees the
    baseline diagnostic under it."""
    old = Found(("m", 4), ("old.py", "error", "code", "m", "x"))
    found = difference(
        [old], [], hidden=lambda f: f.key[0] == "new.py", renamed={"old.py": "new.py"}
    )
    assert (found.fixed, found.unchecked) == ([], [old])


def _at(found: Found[Item]) -> int:
    return found.diagnostic[1]


def test_of_alike_ones_the_one_at_a_new_place_is_what_changed() -> None:
    """cattrs: two alike errors at lines 94 and 95 of a file the change left, and 95 went:
    the first of the two in order (94) was said fixed. With where each is, the one at a
    place the other state has one too is the same one."""
    before = [_found("same", 94), _found("same", 95), _found("other", 3)]
    after = [_found("same", 94), _found("other", 3)]
    assert _said(difference(before, after)) == ([], [("same", 94)], 2)  # by order alone
    assert _said(difference(before, after, place=_at)) == ([], [("same", 95)], 2)
    grown = [_found("same", 10), _found("same", 11)]
    assert _said(difference([_found("same", 11)], grown, place=_at)) == ([("same", 10)], [], 1)
    # moved by an edit above: no place held, the order decides as before
    shifted = [_found("same", 96), _found("same", 97)]
    assert _said(difference(before[:2], shifted[:1], place=_at)) == ([], [("same", 94)], 1)
