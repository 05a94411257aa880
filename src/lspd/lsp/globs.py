"""LSP glob patterns (`**/*.{ts,js}`), as servers register them for watched files.

The LSP dialect: `*` matches within one path segment, `**` any number of segments, `?` one
character, `{a,b}` alternatives, `[abc]` / `[!abc]` character ranges. Matching is on POSIX
paths relative to the pattern's base (a RelativePattern's `baseUri`, else the root).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.lsp.text import uri_to_path

WATCH_CREATE, WATCH_CHANGE, WATCH_DELETE = 1, 2, 4


@functools.lru_cache(maxsize=512)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """An LSP glob pattern (`**`, `{a,b}`, `[0-9]`) as a regular expression (cached)."""
    return re.compile(_translate(pattern) + r"\Z", re.DOTALL)


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append(r"(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(r".*")
            i += 2
        elif char == "*":
            out.append(r"[^/]*")
            i += 1
        elif char == "?":
            out.append(r"[^/]")
            i += 1
        elif char == "{":
            end = pattern.find("}", i)
            if end < 0:
                out.append(re.escape(char))
                i += 1
                continue
            options = pattern[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_translate(option) for option in options) + ")")
            i = end + 1
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end < 0:
                out.append(re.escape(char))
                i += 1
                continue
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class FileWatcher:
    """One `FileSystemWatcher` of a `workspace/didChangeWatchedFiles` registration."""

    base: Path
    pattern: str
    kind: int = WATCH_CREATE | WATCH_CHANGE | WATCH_DELETE
    anywhere: bool = False  # a plain glob (no `baseUri`): relative to each workspace folder

    def matches(self, path: Path, kind: int, folders: Iterable[Path] = ()) -> bool:
        """Whether it asks for `kind` of change of `path`; a plain glob's, under its base or
        any of `folders` (the server's workspace folders: a client matches it wherever)."""
        if not self.kind & kind:
            return False
        if self.pattern.startswith("/"):  # an absolute glob
            return compile_glob(self.pattern).match(path.as_posix()) is not None
        bases = [self.base, *folders] if self.anywhere else [self.base]
        for base in (b for b in bases if path.is_relative_to(b)):
            if compile_glob(self.pattern).match(path.relative_to(base).as_posix()) is not None:
                return True
        return False


def file_watchers(registration: dict[str, Any], root: Path) -> list[FileWatcher]:
    """The watchers of one registration (an empty list for any other kind)."""
    if registration.get("method") != "workspace/didChangeWatchedFiles":
        return []
    watchers = []
    for item in (registration.get("registerOptions") or {}).get("watchers", []):
        glob, kind = item.get("globPattern"), item.get("kind") or 7
        if isinstance(glob, str):
            watchers.append(FileWatcher(root, glob, kind, anywhere=True))
        elif isinstance(glob, dict):
            base = glob.get("baseUri")
            uri = base.get("uri") if isinstance(base, dict) else base
            path = uri_to_path(uri) if isinstance(uri, str) else None
            if path is not None and isinstance(glob.get("pattern"), str):
                watchers.append(FileWatcher(path, glob["pattern"], kind))
    return watchers
