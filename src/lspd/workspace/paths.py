"""Confining input paths to the workspace root, and showing output paths relative to it."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from lspd.errors import InvalidInput


def confine(root: Path, raw: str) -> Path:
    """The absolute, symlink-resolved path of `raw` (relative to `root`), inside `root`."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInput("`path` is empty; send a file path relative to the workspace root")
    if "\x00" in raw:
        raise InvalidInput("`path` contains a NUL byte; send a plain file path")
    # On strings, as `Path.resolve` does it (realpath, then a stat for a symlink loop) without
    # its objects: a third of the cost of opening a document for a warm hover.
    resolved = os.path.realpath(os.path.join(root, os.path.expanduser(raw)))
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
    return Path(resolved)


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
