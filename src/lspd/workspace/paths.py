"""Confining input paths to the workspace root, and showing output paths relative to it."""

from __future__ import annotations

import os
from pathlib import Path

from lspd.errors import InvalidInput


def confine(root: Path, raw: str) -> Path:
    """The absolute, symlink-resolved path of `raw` (relative to `root`), inside `root`."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInput("`path` is empty; send a file path relative to the workspace root")
    if "\x00" in raw:
        raise InvalidInput("`path` contains a NUL byte; send a plain file path")
    candidate = Path(os.path.expanduser(raw))
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = candidate.resolve()
    if resolved != root and not str(resolved).startswith(below(root)):
        raise InvalidInput(
            f"{raw} is outside the workspace {root}; send a path inside it "
            "(relative to the root, or absolute), without `..` or symlinks leading out"
        )
    return resolved


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
