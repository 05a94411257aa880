"""The inverted index of words: never misses a file holding a word, forgets what was dropped."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.symbols.words import BUCKETS, Words, is_word, words_of


def test_words_of_a_text_are_its_identifiers() -> None:
    assert words_of("class Café($x):\n    def greet(self): return 1 + x2\n") == {
        "class",
        "Café",
        "$x",
        "def",
        "greet",
        "self",
        "return",
        "1",
        "x2",
    }
    assert is_word("make_greeter") and not is_word("(*T)")
    # Python reads identifiers in NFKC form: a ligature's word is there both ways.
    assert words_of("class \ufb01ller: pass") == {"class", "\ufb01ller", "filler", "pass"}


def test_files_holding_every_word_and_only_those() -> None:
    index = Words()
    index.put(Path("/a.py"), {"Context", "invoke"})
    index.put(Path("/b.py"), {"Context"})
    index.put(Path("/c.py"), {"invoke", "echo"})
    assert sorted(index.holding(["Context", "invoke"])) == [Path("/a.py")]
    assert sorted(index.holding(["invoke"])) == [Path("/a.py"), Path("/c.py")]
    assert sorted(index.holding([])) == [Path("/a.py"), Path("/b.py"), Path("/c.py")]
    # Changed: it holds only its new words; dropped: nothing.
    index.put(Path("/a.py"), {"style"})
    assert index.holding(["Context", "invoke"]) == []
    index.drop(Path("/c.py"))
    assert index.holding(["invoke"]) == []
    assert Path("/c.py") not in index and Path("/a.py") in index


def test_a_thousand_files_each_found_by_its_own_word() -> None:
    index = Words()
    for n in range(1000):  # past the first bit sets' width: they grow
        index.put(Path(f"/f{n}.py"), {f"name_{n}", "shared"})
    for n in (0, 63, 64, 999):
        assert Path(f"/f{n}.py") in index.holding([f"name_{n}", "shared"])
    assert len(index.holding(["shared"])) == 1000
    # Words in one bucket: a lookup may return a file without the word, never miss one.
    colliding = next(
        f"w{i}" for i in range(1, 10**6) if hash(f"w{i}") % BUCKETS == hash("w0") % BUCKETS
    )
    index.put(Path("/g.py"), {"w0"})
    assert Path("/g.py") in index.holding([colliding])
    index.drop(Path("/f5.py"))
    index.put(Path("/h.py"), {"name_5"})  # takes the freed number
    # Another file may share name_5's bucket (string hashes differ per process: one run in
    # about 30 had /f165.py here), so: h.py found, the dropped f5.py never.
    found = index.holding(["name_5"])
    assert Path("/h.py") in found and Path("/f5.py") not in found
