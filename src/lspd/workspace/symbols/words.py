"""Which files may hold a word: a small inverted index over every source file's identifiers.

A file can declare `invoke` only if `invoke` is one of its words, so the files a name path
may mean are found without a server. Kept small for large trees: a word is hashed to one of
`BUCKETS` buckets and each bucket is a bit set over file numbers, so the index costs about
`BUCKETS` × files / 8 bytes (8,000 files: 32 MB at most) plus two bytes per distinct bucket
of a file, and a lookup is a few big-integer ANDs. Two words may share a bucket: a lookup
can return a file that does not hold the word (the caller checks), never miss one that does.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path

WORD = re.compile(r"[\w$]+")
BUCKETS = 1 << 15


def words_of(text: str) -> set[str]:
    """The identifiers of a text (every run of letters, digits, `_` and `$`), also in NFKC
    form when it is not ASCII: Python reads `ﬁle` as `file` (and pyright names it so),
    other languages as written."""
    words = set(WORD.findall(text))
    if not text.isascii():
        words.update(WORD.findall(unicodedata.normalize("NFKC", text)))
    return words


def is_word(part: str) -> bool:
    """Whether `part` is one run of word characters (letters, digits, `_`, `$`), as kept."""
    return WORD.fullmatch(part) is not None


# A name that is no identifier yet stands in its file as written: a module's string
# (`declare module "virtual:cfg"`, `"@scope/pkg"`, `"*.svg"`), never a server's own words
# (`<function>`, `(anonymous namespace)`).
_SPECIFIER = re.compile(r"[\w$:/@.*~+#!?=-]+")


def name_words(part: str) -> list[str]:
    """The words a file declaring the name `part` holds: the name itself, a module's
    string's word runs (`virtual:cfg`: `virtual`, `cfg`); none for another name (any file
    may hold it: all are asked)."""
    if is_word(part):
        return [part]
    return WORD.findall(part) if _SPECIFIER.fullmatch(part) else []


class Words:
    """Files by the words they hold (see the module's docstring)."""

    def __init__(self) -> None:
        self._ids: dict[Path, int] = {}
        self._paths: list[Path | None] = []
        self._free: list[int] = []
        self._held: dict[int, array[int]] = {}  # file number -> its buckets
        self._bits: dict[int, bytearray] = {}  # bucket -> bit set over file numbers
        self._width = 64  # file numbers each bit set has room for (a multiple of 8)

    def __contains__(self, path: Path) -> bool:
        return path in self._ids

    def __iter__(self) -> Iterator[Path]:
        return iter(list(self._ids))

    def put(self, path: Path, words: Iterable[str]) -> None:
        """`path` holds `words` (and no longer what it held before)."""
        self.drop(path)
        number = self._free.pop() if self._free else len(self._paths)
        if number >= len(self._paths):
            self._paths.append(path)
        else:
            self._paths[number] = path
        self._ids[path] = number
        if number >= self._width:
            self._grow(number)
        buckets = array("H", sorted({hash(word) % BUCKETS for word in words}))
        self._held[number] = buckets
        byte, bit = divmod(number, 8)
        for bucket in buckets:
            bits = self._bits.get(bucket)
            if bits is None:
                bits = self._bits[bucket] = bytearray(self._width // 8)
            bits[byte] |= 1 << bit

    def drop(self, path: Path) -> None:
        number = self._ids.pop(path, None)
        if number is None:
            return
        byte, bit = divmod(number, 8)
        for bucket in self._held.pop(number):
            self._bits[bucket][byte] &= ~(1 << bit) & 0xFF
        self._paths[number] = None
        self._free.append(number)

    def _grow(self, number: int) -> None:
        while self._width <= number:
            self._width *= 2
        for bits in self._bits.values():
            bits.extend(bytes(self._width // 8 - len(bits)))

    def holding(self, words: list[str]) -> list[Path]:
        """The files that may hold every one of `words` (all files for no words)."""
        if not words:
            return list(self._ids)
        found = -1
        for word in words:
            bits = self._bits.get(hash(word) % BUCKETS)
            found &= int.from_bytes(bits, "little") if bits is not None else 0
            if not found:
                return []
        out = []
        while found:
            low = found & -found
            path = self._paths[low.bit_length() - 1]
            if path is not None:
                out.append(path)
            found ^= low
        return out
