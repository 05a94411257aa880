"""Unified diffs of whole-file texts, as `git diff` writes them: what `git apply` and
`patch -p1` accept on the files as they are.

Written here rather than with `difflib.unified_diff`, which splits lines on every Unicode
line break (a form feed in a comment would shift every hunk after it) and has no
"\\ No newline at end of file" marker: both make a diff that does not apply.
"""

from __future__ import annotations

import difflib

CONTEXT_LINES = 3
_NO_NEWLINE = "\\ No newline at end of file\n"


def unified(path: str, before: str, after: str, context: int = CONTEXT_LINES) -> str:
    """The diff turning `before` into `after` for `path` (relative to the root, POSIX), with
    `git diff`'s headers; empty when the texts are equal."""
    if before == after:
        return ""
    old, new = _lines(before), _lines(after)
    a, b = _quoted(f"a/{path}"), _quoted(f"b/{path}")
    out = [f"diff --git {a} {b}\n", f"--- {a}\n", f"+++ {b}\n"]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        old_range = _range(first[1], last[2])
        new_range = _range(first[3], last[4])
        out.append(f"@@ -{old_range} +{new_range} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(_marked(" ", old[i1:i2]))
                continue
            out.extend(_marked("-", old[i1:i2]))
            out.extend(_marked("+", new[j1:j2]))
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The text's lines, each with its end (`\\n`; a `\\r` before it stays part of the
    line, as git sees it); the last one without, when the text does not end with one."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def _marked(sign: str, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        if line.endswith("\n"):
            out.append(sign + line)
        else:  # the file's last line, without an end
            out.extend((sign + line + "\n", _NO_NEWLINE))
    return out


def _range(start: int, stop: int) -> str:
    """A hunk's range as `git diff` writes it: 1-based start and length; an empty range
    starts at the line before it."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    if length == 0:
        return f"{start},0"
    return f"{start + 1},{length}"


def _quoted(name: str) -> str:
    """A path as git writes it in a diff: C-quoted when it holds a quote, a backslash, a
    control character or a byte outside ASCII (then `git apply` and `patch` read it back)."""
    raw = name.encode("utf-8", "surrogateescape")
    if all(0x20 <= byte < 0x7F and byte not in b'"\\' for byte in raw):
        return name
    escapes = {0x22: '\\"', 0x5C: "\\\\", 0x09: "\\t", 0x0A: "\\n"}
    body = "".join(
        escapes.get(byte) or (chr(byte) if 0x20 <= byte < 0x7F else f"\\{byte:03o}") for byte in raw
    )
    return f'"{body}"'
