"""Reading source files as text, with clear errors for what is not a readable source file."""

from __future__ import annotations

import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput

MAX_FILE_BYTES = 8 * 1024 * 1024  # the most lspd reads for any question

# Workspace-wide work (the check, the word index) leaves out larger files, by default near
# where editors give up on a file: JetBrains IDEs drop code insight above 2,500 KB
# (`idea.max.intellisense.filesize`); VS Code's large-file mode starts at 20 MB or 300,000
# lines, but basedpyright needs ~56 s for a generated module of 200,000 lines (3.2 MB) and
# over 2 min for 50,000 lines assigning one variable, while the longest hand-written
# modules we know (pandas' frame.py, matplotlib's _axes.py) stay under 13,000 lines.
LARGE_BYTES = 2_560_000
LARGE_LINES = 20_000
_lines: dict[Path, tuple[tuple[int, int, int], int]] = {}  # `_line_count`'s, by file


@dataclass(frozen=True)
class Limits:
    """The largest file workspace-wide work takes (`max_file_bytes` / `max_file_lines`)."""

    bytes: int = LARGE_BYTES
    lines: int = LARGE_LINES

    @classmethod
    def of(cls, most_bytes: int | None, most_lines: int | None) -> Limits:
        """The limits lspd.toml sets, the defaults for those it does not."""
        return cls(most_bytes or LARGE_BYTES, most_lines or LARGE_LINES)

    def exceeded_by(self, text: str) -> bool:
        """Whether `text` (a file's, read) is over the limits."""
        return len(text) > self.bytes or text.count("\n") > self.lines

    def exceeded(self, path: Path) -> str | None:
        """Why `path` is too large for workspace-wide work, or None (also when unreadable:
        the question about it says why)."""
        try:
            status = path.stat()
            size = status.st_size
            if size > self.bytes:
                return f"{size:,} bytes, over max_file_bytes = {self.bytes:,} (lspd.toml)"
            if size <= self.lines:  # never more lines than bytes (plus one)
                return None
            lines = _line_count(path, (status.st_mtime_ns, size, status.st_ino))
        except OSError:
            return None
        if lines > self.lines:
            return f"{lines:,} lines, over max_file_lines = {self.lines:,} (lspd.toml)"
        return None


def _line_count(path: Path, version: tuple[int, int, int]) -> int:
    """The lines of `path` at `version` (its mtime, size and inode), counted once: every
    whole check asks of each file (212 of effect 4.1's 572 read whole each time, ~30 ms
    of a TypeScript 7 leaf edit's check)."""
    kept = _lines.get(path)
    if kept is not None and kept[0] == version:
        return kept[1]
    with path.open("rb") as file:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))
    _lines[path] = version, lines
    return lines


# Two writes this close to each other can leave the same size and mtime (the file system's
# clock ticks coarsely), so a stamp this young proves nothing: read the file.
RACY_NS = 2_000_000_000


def stamp(path: Path) -> tuple[int, int] | None:
    """(mtime_ns, size) of `path`, None when it cannot be stat'ed (gone)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size)


def read_text(path: Path) -> str | None:
    """The file's text (a BOM dropped), or None when it is missing, no regular file (reading
    a FIFO would block the daemon), unreadable or not UTF-8."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        return path.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def settled(stamp: tuple[int, int]) -> bool:
    """Whether an unchanged stamp proves an unchanged file (see `RACY_NS`)."""
    return time.time_ns() - stamp[0] > RACY_NS


def read_source(path: Path, shown: str, ending_like: Callable[[], Iterable[str]] = tuple) -> str:
    """The file's text; for a missing file, an error naming the files `ending_like` finds."""
    try:
        if not path.exists():
            raise missing(shown, ending_like())
    except OSError as exc:  # e.g. a name too long for the file system
        raise InvalidInput(f"{shown[:200]} cannot be read: {exc.strerror}") from None
    if path.is_dir():
        raise InvalidInput(f"{shown} is a directory; send the path of a file inside it")
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a FIFO or device would block the daemon
            raise InvalidInput(f"{shown} is not a regular file; send the path of a source file")
        size = status.st_size
        if size > MAX_FILE_BYTES:
            raise InvalidInput(f"{shown} is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"{shown} cannot be read: {exc.strerror}") from None
    return decode_source(data, shown)


def decode_source(data: bytes, shown: str) -> str:
    """A source file's bytes as text (a BOM dropped); binary or non-UTF-8 data is refused
    with what to send instead (`shown`: the path as the caller wrote it)."""
    if b"\x00" in data[:8192]:
        raise InvalidInput(f"{shown} is a binary file; send a source file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(f"{shown} is not UTF-8 text; send a UTF-8 source file") from None


def missing(shown: str, found: Iterable[str]) -> InvalidInput:
    """The error for a path that does not exist, naming the files that end like it (a bare
    `console.py` for `rich/console.py`)."""
    matches = sorted(found)
    if not matches:
        return InvalidInput(f"{shown} does not exist; send the path of an existing file")
    listed = ", ".join(matches[:10]) + (
        f" and {len(matches) - 10} more" if len(matches) > 10 else ""
    )
    return InvalidInput(
        f"{shown} does not exist; files ending in {Path(shown).name}: {listed}. "
        "Send the path relative to the workspace root"
    )
