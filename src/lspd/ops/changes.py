"""Diagnostics before and after a change, and which of them the change introduced.

Both states are asked of the warm servers: one with the changed files' other text held as
unsaved content (an overlay: the text at a git revision, or a proposal), one with the disk's.
A diagnostic is the same one in both when its file, severity, code, message and the source
text it points at agree, so lines shifted by an edit above it do not make it new
(`engine/comparison.py`).
"""

from __future__ import annotations

import functools
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.comparison import Again, Found, difference
from lspd.ops.convert import Converter, convert_items
from lspd.ops.models import Changes, DiagnosticsResult, FileDiagnostic
from lspd.ops.mypy_step import SERVER, mypy_diagnosed, toolchain_of
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES, read_text
from lspd.workspace.overlay import overlaid

SIZE_STEP = 20_000  # characters: files within a step of each other count as the same size
MAX_DEPENDENTS = 200  # files naming what changed, checked beside the changed ones
# A name a changed line declares: `def f`, `class C`, `function f`, `const X =`, `X = ...`.
_DECLARED = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?"
    r"(?:def|class|function|interface|type|enum|const|let|var|func|struct)\s+([A-Za-z_]\w*)"
    r"|^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]"
)

Texts = Mapping[Path, str | None]  # a file's text in one state; None: it does not exist


@dataclass(frozen=True)
class Diagnosed:
    """The diagnostics of some files in one state: for comparing, and per file."""

    found: list[Found[FileDiagnostic]]
    results: list[DiagnosticsResult]


async def diagnose(ws: Workspace, files: list[Path], texts: Texts) -> Diagnosed:
    """The diagnostics of `files` while the servers hold `texts` for those files (the disk
    for the rest); files that do not exist in that state have none. Files opened only for
    this are closed again."""
    present = [f for f in files if (texts[f] is not None if f in texts else f.is_file())]
    opened_before = {f for f in present if ws.holds(f)}
    found: list[Found[FileDiagnostic]] = []
    results: list[DiagnosticsResult] = []
    overlay = {path: text for path, text in texts.items()}
    # mypy-gated projects: their mypy, the held texts in its daemon's copy (`ops/mypy_step.py`).
    judged, own = await mypy_diagnosed(ws, present, texts)
    label = functools.cache(functools.partial(toolchain_of, ws))  # once per project
    present += [p for p in judged if p not in present and not own[p].also_pyright]  # all mypy's
    served = [f for f in present if f not in judged or own[f].also_pyright]
    async with overlaid(ws, {p: t for p, t in overlay.items() if p not in own}, served):
        try:
            for file in present:
                items = list(judged.get(file, []))
                if file in served:
                    session, document = await ws.open(str(file), overlay.get(file))
                    raw = await session.diagnostics(document, ws.diagnostics_timeout)
                    convert = Converter(ws, session.encoding)
                    items += convert_items(convert, document.path, raw)
                    server, toolchain, lines = session.name, session.toolchain, document.lines
                else:
                    server, toolchain = SERVER, label(own[file])
                    lines = (overlay.get(file) or read_text(file) or "").splitlines()
                shown = ws.display(file)
                items.sort(key=lambda d: (d.severity != "error", d.line, d.column))
                results.append(
                    DiagnosticsResult(
                        path=shown,
                        server=server,
                        toolchain=toolchain,
                        checker=own[file].why if file in own else None,
                        errors=sum(d.severity == "error" for d in items),
                        warnings=sum(d.severity == "warning" for d in items),
                        diagnostics=items,
                        total=len(items),
                    )
                )
                for item in items:
                    line = lines[item.line - 1] if item.line <= len(lines) else ""
                    snippet = line[item.column - 1 : item.end_column - 1].strip() or line.strip()
                    diagnostic = item.model_copy(update={"path": shown})
                    key = (shown, item.severity, item.code, item.message, snippet)
                    found.append(Found(diagnostic, key))
        finally:
            for file in served:
                if file not in opened_before and file not in overlay:
                    ws.close_document(file)
    return Diagnosed(found, results)


def compare(before: list[Found[FileDiagnostic]], after: list[Found[FileDiagnostic]],
            baseline: str, changed: list[str], scope: str,
            again: Again[FileDiagnostic] | None = None) -> Changes:  # fmt: skip
    """The engine's difference of the two states (`engine/comparison.py`: introduced, fixed
    and unchanged, with `again` a second check of one state) as the answer's `Changes`."""
    found = difference(before, after, again)
    order = _worst_first
    return Changes(
        baseline=baseline,
        introduced=sorted(found.introduced, key=order),
        fixed=sorted(found.fixed, key=order),
        fixed_total=len(found.fixed),
        unchanged=found.unchanged,
        changed=changed,
        scope=scope,
    )


@dataclass(frozen=True)
class Both:
    """Two states' diagnostics, and a second check of the first when they differed."""

    before: Diagnosed
    after: Diagnosed
    again: Again[FileDiagnostic] | None


async def diagnose_both(
    ws: Workspace, files: list[Path], before: Texts, after: Texts, first: str
) -> Both:
    """`files` checked with `before` held and with `after` held, `first` ("before" or
    "after": the state the servers hold already, so it costs no switch) first. When the two
    differ, the first state is checked once more: the same files in the same order, right
    after a switch as the second was, so the server's state and order are the same for
    both; the first check may have been answered from what the server had before."""
    texts = {"before": before, "after": after}
    second = "after" if first == "before" else "before"
    one = await diagnose(ws, files, texts[first])
    two = await diagnose(ws, files, texts[second])
    by_side = {first: one, second: two}
    probe = compare(by_side["before"].found, by_side["after"].found, "", [], "")
    again = None
    if probe.introduced or probe.fixed:
        again = Again(first, (await diagnose(ws, files, texts[first])).found)
    return Both(by_side["before"], by_side["after"], again)


def _worst_first(d: FileDiagnostic) -> tuple[bool, str, int, int]:
    return (d.severity != "error", d.path or "", d.line, d.column)


def dependents(
    ws: Workspace, before: Texts, after: Texts, importers: bool = True
) -> tuple[list[Path], bool]:
    """Files other than the changed ones that name something the change touched: a name
    declared on a changed line (before or after), or (with `importers`) a changed file's
    module. Only they can gain or lose errors in practice. Returns them nearest first (see
    `ranked`), at most `MAX_DEPENDENTS`, and whether there were more."""
    found = ranked(ws, before, after, importers)
    return [r.path for r in found[:MAX_DEPENDENTS]], len(found) > MAX_DEPENDENTS


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


def scope_note(changed: int, dependents: int, more: bool) -> str:
    """How the compared files were chosen, as the answer says it."""
    cut = f" (the first {MAX_DEPENDENTS}; more name it)" if more else ""
    return (
        f"{changed} changed file(s) and {dependents} file(s) naming what changed{cut}; "
        "other files cannot gain errors from it in practice (`lspd check` checks everything)"
    )
