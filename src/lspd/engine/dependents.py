"""The files naming what a change touched: the files the hook's two-state comparison checks
beside the changed ones before HEAD's result is kept (`ops/progressive.py`), nearest first,
and the files a rename's check asks of the engine's (`ops/preview.previewed`).

A file other than the changed ones can gain or lose errors from a change in practice only
when it names something the change touched: a name declared on a changed line (before or
after), or a changed file's module. They are found by words, not by a server: cheap, more
files than a checker would re-check, and ranked so that the errors an edit introduces
(mostly at its call sites) come first.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES

SIZE_STEP = 20_000  # characters: files within a step of each other count as the same size
# A name a changed line declares: `def f`, `class C`, `function f`, `const X =`, `X = ...`.
_DECLARED = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?"
    r"(?:def|class|function|interface|type|enum|const|let|var|func|struct)\s+([A-Za-z_]\w*)"
    r"|^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]"
)

Texts = Mapping[Path, str | None]  # a file's text in one state; None: it does not exist


@dataclass(frozen=True)
class Dependent:
    """A file that may gain or lose errors from a change, and how near to it it is."""

    path: Path
    rank: int  # 0: calls a changed declaration, 1: names one, 2: names a changed module only
    distance: int  # directories between it and the nearest changed file
    names: tuple[str, ...]  # the changed declarations it names
    size: int  # characters: of two files as near, the smaller is checked sooner


def changed_names(before: Texts, after: Texts) -> set[str]:
    """The names declared on the lines a change touched (before or after)."""
    names: set[str] = set()
    for path in set(before) | set(after):
        old = (before.get(path) or "").splitlines()
        new = (after.get(path) or "").splitlines()
        names |= _declared(set(old) ^ set(new))
    return names


def ranked(ws: Workspace, before: Texts, after: Texts, importers: bool = True) -> list[Dependent]:
    """The files naming what changed, nearest first: the call sites of a changed
    declaration, then the files naming one otherwise, then those naming only a changed
    module (mere importers); within each, smaller files first (a server checks them sooner:
    SQLAlchemy's 2,100-line langhelpers.py took 10-20 s on a busy machine where a 500-line
    caller took 2), then the files in the directories nearest a changed file. Errors an edit
    introduces are mostly at its call sites, so a check going in this order finds them
    first."""
    changed = set(before) | set(after)
    declared = changed_names(before, after) - _GENERIC
    modules = ({path.stem for path in changed} - _GENERIC - declared) if importers else set()
    if not declared and not modules:
        return []
    homes = [path.parent.parts for path in changed]
    found: list[Dependent] = []
    for file in ws.projects.source_files():
        if file in changed:
            continue
        text = _text(file)
        if text is None:
            continue
        present = {n for n in declared | modules if _names(text, n)}
        if not present:
            continue
        named = tuple(sorted(present & declared))
        rank = 2 if not named else (0 if _calling(text, named) else 1)
        distance = min(_distance(file.parent.parts, home) for home in homes)
        found.append(Dependent(file, rank, distance, named, len(text)))
    found.sort(key=lambda d: (d.rank, d.size // SIZE_STEP, d.distance, str(d.path)))
    return found


_GENERIC = {"__init__", "index", "main", "mod"}


def _calling(text: str, names: tuple[str, ...]) -> bool:
    """Whether a line of `text` other than an import uses one of `names` with a call, a
    type argument or an attribute (`name(`, `name<`, `name.`)."""
    for line in text.splitlines():
        for name in names:
            at = line.find(name)
            if at < 0 or _IMPORT.match(line):
                continue
            while at >= 0:
                end = at + len(name)
                after = line[end:].lstrip()[:1]
                if after in ("(", "<", ".") and after and (at == 0 or not _word(line[at - 1])):
                    return True
                at = line.find(name, end)
    return False


def _names(text: str, name: str) -> bool:
    """Whether `text` holds `name` as a whole word. `str.find`, not a regex: a pattern
    starting with \\b is searched position by position (SQLAlchemy's 697 files: 4 s, not
    0.2 s)."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            return True
        at = text.find(name, end)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


_IMPORT = re.compile(r"\s*(?:from|import|export|#|//)")


def _distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return len(a) + len(b) - 2 * shared


def _text(file: Path) -> str | None:
    try:
        status = file.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
            return None  # a FIFO would block; a huge generated file names nothing of ours
        return file.read_text("utf-8", errors="replace")
    except OSError:
        return None


def _declared(lines: set[str]) -> set[str]:
    names = set()
    for line in lines:
        match = _DECLARED.match(line)
        if match:
            names.add(match.group(1) or match.group(2))
    return names
