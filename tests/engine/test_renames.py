"""Which files a change renamed (`engine/renames.py`): a deleted and an added file of the same
suffix whose texts are at least half alike, as `git diff -M` pairs them; a plain `mv` (the
new file untracked) as a `git mv`."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.renames import MAX_PAIRS, alike, renames

TEXT = "".join(f"line {n} of the module\n" for n in range(20))


def test_a_moved_file_is_renamed_and_an_unlike_one_is_not() -> None:
    edited = TEXT.replace("line 3 ", "line three ")
    before = {Path("a.py"): TEXT, Path("b.py"): None, Path("c.py"): "x = 1\n", Path("d.py"): None}
    after = {Path("a.py"): None, Path("b.py"): edited, Path("c.py"): None, Path("d.py"): "y = 2\n"}
    assert renames(before, after) == {Path("a.py"): Path("b.py")}


def test_the_most_alike_pair_wins_and_a_suffix_must_agree() -> None:
    before = {Path("a.py"): TEXT, Path("n.py"): None, Path("m.py"): None, Path("t.ts"): None}
    half = TEXT[: len(TEXT) * 3 // 5]
    after = {Path("a.py"): None, Path("n.py"): half, Path("m.py"): TEXT, Path("t.ts"): TEXT}
    assert renames(before, after) == {Path("a.py"): Path("m.py")}
    assert renames({Path("a.py"): TEXT}, {Path("a.ts"): TEXT}) == {}


def test_alike_is_what_the_larger_text_keeps() -> None:
    assert alike(TEXT, TEXT) == 1.0
    assert alike(TEXT, TEXT + TEXT) == 0.5
    assert alike(TEXT, "") == 0.0
    assert alike("", "") == 1.0


def test_a_moved_folder_of_many_files_pairs_them_by_name_and_text() -> None:
    """Past `MAX_PAIRS` deleted x added, only files of one text or one name are compared: a
    folder of 60 files moved, each edited, is 60 renames."""
    texts = {f"m{n}.py": TEXT.replace("module", f"module {n}") for n in range(60)}
    before = {Path("old", name): text for name, text in texts.items()}
    after = {
        Path("new", name): text.replace("line 0 ", "line zero ") for name, text in texts.items()
    }
    moved = renames(before, after)
    assert len(before) * len(after) > MAX_PAIRS
    assert moved == {Path("old", name): Path("new", name) for name in texts}
