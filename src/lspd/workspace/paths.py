"""Confining input paths to the workspace root, and showing output paths relative to it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from lspd.errors import InvalidInput


def confine(root: Path, raw: str) -> Path:
    """The absolute, symlink-resolved path of `raw` (relative to `root`), inside `root`."""
    return confined(root, raw)[0]


# The lstat of each part of a path below the root, as finding it took them (none: a part is
# missing, or the path was found through realpath).
Walked = tuple[os.stat_result, ...]


def confined(root: Path, raw: str) -> tuple[Path, Walked]:
    """`confine`, and what finding the path saw of its parts: none of them a symlink, each
    one's lstat; the last one's is the file's own `stat` (`open` and `project_root` take
    them instead of asking again: 5.5 us a syscall on this machine)."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInput("`path` is empty; send a file path relative to the workspace root")
    if "\x00" in raw:
        raise InvalidInput("`path` contains a NUL byte; send a plain file path")
    joined = os.path.join(root, os.path.expanduser(raw))
    walked = _plain_below(root, joined)
    if walked is not None:
        return Path(joined), walked
    # On strings, as `Path.resolve` does it (realpath, then a stat for a symlink loop)
    # without its objects.
    resolved = os.path.realpath(joined)
    try:
        os.stat(resolved)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RuntimeError(f"Symlink loop from {exc.filename!r}") from None
    if resolved != str(root) and not resolved.startswith(below(root)):
        raise InvalidInput(
            f"{raw} is outside the workspace {root}; send a path inside it "
            "(relative to the root, or absolute), without `..` or symlinks leading out"
        )
    return Path(resolved), ()


def _plain_below(root: Path, joined: str) -> Walked | None:
    """When `joined` is itself what realpath makes of it: below `root` (resolved), in plain
    parts (no `.`, `..` or empty one) none of which is a symlink now (each looked at with
    lstat, every time: a part moved and replaced by a symlink is seen), the lstat of each
    part (none when one is missing); None otherwise (then realpath). The parts of `root` are not
    walked again: realpath's walk of all of them (an lstat and string work per part, in
    Python) was a quarter of a warm hover's opening of its document (55 us on a path 8
    parts deep)."""
    inside = below(root)
    if not joined.startswith(inside):
        return None
    parts = joined[len(inside) :].split(os.sep)
    if "" in parts or "." in parts or ".." in parts:
        return None
    path, walked = inside[:-1], []
    for part in parts:
        path = path + os.sep + part
        try:
            status = os.lstat(path)
        except OSError:  # missing (or not searchable): nothing below it is a link either
            return ()
        if stat.S_ISLNK(status.st_mode):
            return None
        walked.append(status)
    return tuple(walked)


def below(root: Path) -> str:
    """The prefix of every path strictly inside `root` (both absolute and normalized)."""
    text = str(root)
    return text if text.endswith(os.sep) else text + os.sep


def display(root: Path, path: Path) -> str:
    """POSIX path relative to `root`, or absolute when `path` lies outside it (on their
    strings, as `relative_to` compares their parts: a few times per answer, on every path)."""
    text, inside = str(path), below(root)
    if text == str(root):
        return "."
    if text.startswith(inside):
        return text[len(inside) :].replace(os.sep, "/")
    return path.as_posix()
