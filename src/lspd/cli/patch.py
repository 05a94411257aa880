"""A unified diff, as `git diff` prints it, applied in memory to the files on disk.

`lspd preview --patch FILE` (or `-` for stdin) takes what an agent holds after editing in
its head or in a scratch copy: a diff. Each file it names becomes one `{path, content}` of
the preview's `changes` (content None: deleted), its text the disk's with the hunks
applied; nothing is written. New, deleted, renamed and copied files are understood; a
hunk whose context no longer matches is looked for nearby (as `patch` does) and otherwise
refused, naming the file and line, so a stale diff never previews something else.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from lspd.errors import InvalidInput

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass
class Hunk:
    """One `@@` block: the lines it expects and the lines it puts in their place."""

    old_start: int
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    old_ends_without_newline: bool = False
    new_ends_without_newline: bool = False


@dataclass
class FilePatch:
    """What a diff says about one file: where it was, where it goes, and its hunks."""

    old: str | None  # None: a new file
    new: str | None  # None: deleted
    hunks: list[Hunk] = field(default_factory=list)
    copy: bool = False  # `copy from`: the old file stays


def parse(text: str) -> list[FilePatch]:
    """The files of a unified diff (git's, or `diff -u`'s), in order. Its lines end at
    \\n alone, as git writes and reads them: a \\r, a form feed or U+2028 in a file's
    line is part of that line (str.splitlines() would end it there)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    files: list[FilePatch] = []
    current: FilePatch | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("diff --git "):
            current = FilePatch(*_git_header_paths(line))
            files.append(current)
        elif line.startswith(("Binary files ", "GIT binary patch")):
            name = current.new or current.old if current else "a file"
            raise InvalidInput(f"the patch changes {name}, a binary file; send text changes")
        elif line.startswith(("rename from ", "copy from ")) and current is not None:
            current.old = line.split(" ", 2)[2]
            current.copy = line.startswith("copy")
        elif line.startswith(("rename to ", "copy to ")) and current is not None:
            current.new = line.split(" ", 2)[2]
        elif line.startswith("new file mode") and current is not None:
            current.old = None
        elif line.startswith("deleted file mode") and current is not None:
            current.new = None
        elif line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = _header_path(line[4:]), _header_path(lines[i + 1][4:])
            if current is None or current.hunks:
                current = FilePatch(old, new)
                files.append(current)
            else:
                current.old, current.new = old, new
            i += 1
        elif line.startswith("@@"):
            if current is None:
                raise InvalidInput("the patch has a hunk before any file header (--- / +++)")
            hunk, i = _hunk(lines, i)
            current.hunks.append(hunk)
            continue
        i += 1
    if not files:
        raise InvalidInput(
            "the patch holds no file: send a unified diff as `git diff` prints it "
            "(--- a/PATH, +++ b/PATH, @@ hunks)"
        )
    return files


def _git_header_paths(line: str) -> tuple[str | None, str | None]:
    """`diff --git a/x b/x`: both paths (the ---/+++ lines, when present, say it better)."""
    rest = line[len("diff --git ") :]
    middle = len(rest) // 2  # a/P b/P: the same path twice
    old, new = rest[:middle].strip(), rest[middle:].strip()
    return _strip_prefix(old), _strip_prefix(new)


def _header_path(raw: str) -> str | None:
    path = raw.split("\t", 1)[0].strip()  # `diff -u` adds a tab and a timestamp
    if path.startswith('"') and path.endswith('"'):
        path = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
        path = path.encode("latin-1").decode("utf-8", "replace")
    return None if path == "/dev/null" else _strip_prefix(path)


def _strip_prefix(path: str) -> str:
    return path[2:] if path.startswith(("a/", "b/")) else path


def _hunk(lines: list[str], i: int) -> tuple[Hunk, int]:
    """The hunk starting at line `i`, and the index after it (read by its counts: a removed
    line may itself begin with `--`)."""
    match = _HUNK.match(lines[i])
    if match is None:
        raise InvalidInput(f"line {i + 1} of the patch is not a hunk header: {lines[i][:80]!r}")
    old_count = 1 if match.group(2) is None else int(match.group(2))
    new_count = 1 if match.group(4) is None else int(match.group(4))
    hunk = Hunk(int(match.group(1)))
    i += 1
    while i < len(lines):
        line = lines[i]
        if line.startswith("\\"):  # `\ No newline at end of file`: of the line before
            previous = lines[i - 1][:1]
            hunk.old_ends_without_newline |= previous in ("-", " ")
            hunk.new_ends_without_newline |= previous in ("+", " ")
        elif len(hunk.old) == old_count and len(hunk.new) == new_count:
            break
        elif line[:1] in (" ", ""):  # context (an empty line: context stripped of its space)
            hunk.old.append(line[1:])
            hunk.new.append(line[1:])
        elif line[:1] == "-":
            hunk.old.append(line[1:])
        elif line[:1] == "+":
            hunk.new.append(line[1:])
        else:
            break
        i += 1
    if len(hunk.old) != old_count or len(hunk.new) != new_count:
        raise InvalidInput(
            f"a hunk of the patch ({lines[i - 1][:60]!r}) ends early: it promised {old_count} "
            f"old and {new_count} new lines; send the whole diff"
        )
    return hunk, i


def apply(text: str, hunks: list[Hunk], name: str) -> str:
    """`text` with the hunks applied, each found at its line or the nearest place its
    context matches."""
    lines = text.split("\n")
    ends_with_newline = lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    out: list[str] = []
    position = 0
    shift = 0  # where the last hunk was found, against where it said it was
    for hunk in hunks:
        expected = (hunk.old_start - 1 if hunk.old else hunk.old_start) + shift
        at = _find(lines, hunk.old, max(position, expected), position)
        if at is None:
            raise InvalidInput(
                f"the patch does not apply to {name}: the lines it changes at line "
                f"{hunk.old_start} are not there; send a diff against the file as it is now"
            )
        shift = at - (hunk.old_start - 1 if hunk.old else hunk.old_start)
        out += lines[position:at]
        out += hunk.new
        position = at + len(hunk.old)
        if hunk.new_ends_without_newline:
            ends_with_newline = False
        elif hunk.old_ends_without_newline:
            ends_with_newline = True
    out += lines[position:]
    return "\n".join(out) + ("\n" if ends_with_newline and out else "")


def _find(lines: list[str], old: list[str], expected: int, floor: int) -> int | None:
    """The index nearest to `expected` (not before `floor`) where `old` stands."""
    if not old:
        return min(max(expected, floor), len(lines))
    for distance in range(len(lines) + 1):
        for at in (expected - distance, expected + distance):
            if floor <= at <= len(lines) - len(old) and lines[at : at + len(old)] == old:
                return at
        if expected - distance < floor and expected + distance > len(lines):
            break
    return None


def changes(text: str, base: Path) -> list[dict[str, str | None]]:
    """The preview's `changes` (absolute paths) that the diff `text` makes to the files
    under `base` (the directory its paths start from)."""
    out: dict[str, str | None] = {}
    for patch in parse(text):
        old = None if patch.old is None else str(base / patch.old)
        new = None if patch.new is None else str(base / patch.new)
        if old is not None and new != old and not patch.copy:
            out[old] = None  # renamed away, or deleted
        if new is None or (new == old and not patch.hunks):  # deleted; a mode change
            continue
        if old is None:
            before = ""
        elif old in out and out[old] is not None:
            before = str(out[old])
        else:
            before = _read(Path(old), patch.old or old)
        out[new] = apply(before, patch.hunks, patch.new or new)
    return [{"path": path, "content": content} for path, content in out.items()]


def _read(path: Path, name: str) -> str:
    try:
        with path.open(encoding="utf-8", newline="") as handle:  # its \r\n and \r kept
            return handle.read()
    except FileNotFoundError:
        raise InvalidInput(
            f"the patch changes {name}, which does not exist here; run lspd from the "
            "directory the diff's paths start from (git diff: the repository's top)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"the patch changes {name}, which cannot be read: {exc}") from None


def base_directory(cwd: Path) -> Path:
    """Where the paths of `git diff` start: the top of the repository holding `cwd`, else
    `cwd` (a `diff -u` made here)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(cwd), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return cwd
    top = done.stdout.strip()
    return Path(top) if done.returncode == 0 and top else cwd
