"""A source file as the symbol index reads it, without a server: its stamp, content hash
and words (its identifiers and module path); nothing for a file too large or not text."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace import files
from lspd.workspace.symbols.entries import digest, read, read_all

LIMITS = files.Limits.of(None, None)


def _write(root: Path, shown: str, data: bytes) -> Path:
    path = root / shown
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_file_is_read_into_its_words_and_the_parts_of_its_module_path(tmp_path: Path) -> None:
    path = _write(tmp_path, "pkg/greeting.py", b"def greet(name):\n    return name\n")
    entry, words = read(path, "pkg/greeting.py", LIMITS)
    assert words == {"def", "greet", "name", "return", "pkg", "greeting"}
    assert (entry.stamp, entry.digest) == (files.stamp(path), digest(path.read_text()))
    assert (entry.tree, entry.nodes, entry.cannot_hold) == (None, 0, set())


def test_a_file_too_large_or_not_text_declares_nothing(tmp_path: Path) -> None:
    long = _write(tmp_path, "long.py", b"x = 1\n" * 4)
    binary = _write(tmp_path, "blob.py", b"\x00\x01")
    for path in (long, binary):
        entry, words = read(path, path.name, files.Limits.of(None, 3))
        assert (entry.stamp, entry.digest, words) == (files.stamp(path), None, set())


def test_the_first_scan_indexes_the_words_of_the_readable_files_only(tmp_path: Path) -> None:
    text = _write(tmp_path, "a.py", b"alpha = 1\n")
    binary = _write(tmp_path, "b.py", b"\x00alpha")
    entries, index = read_all([text, binary], lambda p: p.name, LIMITS)
    assert sorted(entries) == [text, binary]
    assert index.holding(["alpha"]) == [text]
