"""The files naming what a change touched: a rename's check asks, of the files the engine
would re-check for it, only these besides the changed ones (`ops/preview.previewed`): an
importer naming neither the old nor the new name cannot break.

A file other than the changed ones can gain or lose errors from a change in practice only
when it names something the change touched: a name declared on a changed line (before or
after). They are found by words, not by a server: cheap, and more files than a checker
would re-check. (Until issue 40 the hook compared these files, ranked nearest first, in two
states; `tests/ops/two_states.py` keeps that ranking as the tests' reference.)
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping
from pathlib import Path

from lspd.lsp.text import split_lines
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES

# A name a changed line declares: `def f`, `class C`, `function f`, `const X =`, `X = ...`.
_DECLARED = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?"
    r"(?:def|class|function|interface|type|enum|const|let|var|func|struct)\s+([A-Za-z_]\w*)"
    r"|^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]"
)
GENERIC = {"__init__", "index", "main", "mod"}  # names too common to tell a file by

Texts = Mapping[Path, str | None]  # a file's text in one state; None: it does not exist


def changed_names(before: Texts, after: Texts) -> set[str]:
    """The names declared on the lines a change touched (before or after)."""
    names: set[str] = set()
    for path in set(before) | set(after):
        old = split_lines(before.get(path) or "")
        new = split_lines(after.get(path) or "")
        names |= _declared(set(old) ^ set(new))
    return names


def files_naming(ws: Workspace, before: Texts, after: Texts) -> set[Path]:
    """The source files other than the changed ones naming a declaration a changed line
    holds (before or after)."""
    changed = set(before) | set(after)
    declared = changed_names(before, after) - GENERIC
    if not declared:
        return set()
    found = set()
    for file in ws.projects.source_files():
        text = None if file in changed else source_text(file)
        if text is not None and any(names(text, name) for name in declared):
            found.add(file)
    return found


def names(text: str, name: str) -> bool:
    """Whether `text` holds `name` as a whole word. `str.find`, not a regex: a pattern
    starting with \\b is searched position by position (SQLAlchemy's 697 files: 4 s, not
    0.2 s)."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not word(text[at - 1])) and (end == len(text) or not word(text[end])):
            return True
        at = text.find(name, end)
    return False


def word(char: str) -> bool:
    """Whether `char` can be part of a name."""
    return char.isalnum() or char == "_"


def source_text(file: Path) -> str | None:
    """A source file's text; None for what is not a regular file, or too large."""
    try:
        status = file.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
            return None  # a FIFO would block; a huge generated file names nothing of ours
        return file.read_text("utf-8", errors="replace")
    except OSError:
        return None


def _declared(lines: set[str]) -> set[str]:
    found = set()
    for line in lines:
        match = _DECLARED.match(line)
        if match:
            found.add(match.group(1) or match.group(2))
    return found
