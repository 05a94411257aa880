"""Which paths under a workspace root are never scanned (nor watched).

Built in: hidden directories (but `.basedpyright`, basedpyright's baseline), the usual
dependency, cache and build directories, virtual environments (a directory holding
`pyvenv.cfg`) and what the root's `.gitignore` ignores.
Added by `lspd.toml`'s `ignore`: globs relative to the root, where `*` and `?` stay inside
one path part, `**` spans any number of directories, and a glob without `/` (but for a
trailing one) matches a file or directory name at any depth (`*.min.js`, `generated`); a
leading `/` ties it to the root (`/tmp`). A matching directory hides everything under it.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lspd.workspace.files import RACY_NS

if TYPE_CHECKING:
    import pathspec

log = logging.getLogger(__name__)

# Directories never scanned for languages (nor watched), wherever they are.
IGNORED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".tox",
        "dist",
        "build",
        "target",
        ".next",
        ".cache",
    }
)
# Hidden directories watched all the same: what a checker reads beside the code that no
# configuration names (basedpyright's baseline, `.basedpyright/baseline.json`: the errors
# it silences; its edit changes every answer, `workspace/disk_changes.py`).
WATCHED_HIDDEN = frozenset({".basedpyright"})


# What the rules read from a file hold for: its mtime_ns, size and inode (None: no file).
RulesStamp = tuple[int, int, int] | None


class Ignore:
    """The ignore rules of one root: `ignore(path)` says whether `path` is left out.

    The root's `.gitignore` is read again when it changed (`rules`: one stat, at each
    question and each walk), also edited in place (its mtime or size), or while it was
    written too recently to tell two writes apart (`files.RACY_NS`)."""

    def __init__(self, root: Path, globs: Sequence[str] = ()) -> None:
        self.root = root
        self.globs = tuple(globs)
        names = [g for g in self.globs if "/" not in g.rstrip("/")]
        paths = [g for g in self.globs if "/" in g.rstrip("/")]
        self._name = _compile(_segment(g.rstrip("/")) for g in names)
        self._path = _compile(_translate(g) for g in paths)
        self._file = os.path.join(root, ".gitignore")
        self._stamp: RulesStamp = None
        self._racy = False  # read within RACY_NS of its mtime: read again at the next look
        self._text: str | None = None
        self._gitignore: pathspec.GitIgnoreSpec | None = None
        self.rules()
        self._venvs: set[str] = set()  # relative paths of directories found to be venvs

    def rules(self) -> RulesStamp:
        """The stamp of the `.gitignore` the rules now hold for: read again first when its
        stat differs from the one read (or that one was too recent to prove anything)."""
        try:
            status = os.stat(self._file)
        except OSError:
            stamp: RulesStamp = None
        else:
            stamp = (status.st_mtime_ns, status.st_size, status.st_ino)
        if stamp != self._stamp or self._racy:
            self._racy = stamp is not None and time.time_ns() - stamp[0] <= RACY_NS
            self._stamp = stamp
            # Stat, then read: a write between the two is seen at the next look.
            text = None if stamp is None else _read(self._file)
            if text != self._text:
                self._text, self._gitignore = text, _gitignore(self._file, text)
        return stamp

    @property
    def settled(self) -> bool:
        """Whether the rules held since the last `rules` hold while its stamp stays (not
        read within `files.RACY_NS` of the file's mtime)."""
        return not self._racy

    def __call__(self, path: Path) -> bool:
        """Whether `path` (absolute) is ignored; a path outside the root always is."""
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return True
        self.rules()
        for depth in range(1, len(parts) + 1):
            is_dir = depth < len(parts)
            if self.hides("/".join(parts[:depth]), parts[depth - 1], is_dir):
                return True
        return False

    def directory(self, path: Path, fresh: bool = True) -> bool:
        """Whether the directory `path` (absolute) is ignored: not watched, not scanned.
        `fresh`: the rules looked at first (else as the caller's `rules` just left them)."""
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return True
        if fresh:
            self.rules()
        return any(
            self.hides("/".join(parts[:depth]), parts[depth - 1], True)
            for depth in range(1, len(parts) + 1)
        )

    def hides(self, relative: str, name: str, is_dir: bool) -> bool:
        """Whether the entry `name` at `relative` (POSIX, from the root) is ignored itself."""
        hidden = name.startswith(".") and name not in WATCHED_HIDDEN
        if is_dir and (name in IGNORED_DIRS or hidden or self._is_venv(relative)):
            return True
        if self._name is not None and self._name.fullmatch(name):
            return True
        if self._path is not None and self._path.fullmatch(relative) is not None:
            return True
        return self._gitignore is not None and self._gitignore.match_file(
            relative + "/" if is_dir else relative
        )

    def _is_venv(self, relative: str) -> bool:
        if relative in self._venvs:
            return True
        if os.path.exists(os.path.join(self.root, relative, "pyvenv.cfg")):
            self._venvs.add(relative)
            return True
        return False

    def walk(self, limit: int = 200_000) -> Iterator[tuple[Path, list[str]]]:
        """Each directory kept, top down, with its kept file names; at most `limit` files."""
        self.rules()
        count = 0
        for directory, dirnames, filenames in os.walk(self.root):
            base = Path(directory)
            prefix = base.relative_to(self.root).as_posix()
            prefix = "" if prefix == "." else prefix + "/"
            dirnames[:] = [d for d in dirnames if not self.hides(prefix + d, d, True)]
            kept = [f for f in filenames if not self.hides(prefix + f, f, False)]
            if count + len(kept) > limit:
                kept = kept[: limit - count]
            count += len(kept)
            yield base, kept
            if count >= limit:
                return


def _read(file: str) -> str | None:
    try:
        with open(file, encoding="utf-8", errors="replace") as text:
            return text.read()
    except OSError:
        return None


def _gitignore(file: str, text: str | None) -> pathspec.GitIgnoreSpec | None:
    """The root's `.gitignore` rules (nested .gitignore files are not read)."""
    if text is None:
        return None
    import pathspec  # only for a .gitignore: 6 ms of `lspd serve` before its servers start

    try:
        return pathspec.GitIgnoreSpec.from_lines(text.splitlines())
    except Exception as exc:  # a malformed .gitignore must not stop the daemon
        log.warning("ignoring %s: %s", file, exc)
        return None


def _compile(patterns: Iterable[str]) -> re.Pattern[str] | None:
    joined = "|".join(f"(?:{p})" for p in patterns)
    return re.compile(joined) if joined else None


def _translate(glob: str) -> str:
    """A root-relative path glob as a regular expression over POSIX paths."""
    parts = glob.strip("/").split("/")
    out = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
        else:
            out.append(_segment(part) + ("" if last else "/"))
    return "".join(out)


def _segment(glob: str) -> str:
    """One path part's glob (`*`, `?`, `[...]`) as a regular expression that never spans `/`."""
    out = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (close := glob.find("]", index + 2)) != -1:
            body = glob[index + 1 : close]
            negate = body.startswith("!")
            body = re.escape(body[1:] if negate else body).replace("\\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            index = close
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)
