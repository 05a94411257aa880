"""The unresolved scan's first step: the candidate uses of a name, found in the files' code.

`prepare` runs in a thread while the server answers the references (`lspd.ops.unresolved`
asks the server about what it finds): the gate's files of the server's language that may
hold the name (the workspace's word index), each read and scanned for the name in code
(`lspd.ops.uses`: never comments or strings, except Python's getattr/setattr/hasattr
names), and apart the server's other source files (`outside`). Over `MAX_CANDIDATES`
places in their text the scan is not done, and the answer says so and why.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from lspd.errors import InvalidInput, LspdError
from lspd.ops.target import NAME, Target
from lspd.ops.uses import Dialect, Use, count_words, dialect_for, find_uses
from lspd.workspace import Workspace, files
from lspd.workspace.scope import gate_scope

MAX_CANDIDATES = 2000  # places the name stands in the files' text; more: not scanned


@dataclass
class Found:
    """One use of the name in code, before it is confirmed."""

    path: Path
    use: Use


@dataclass
class Prepared:
    """The textual step: the name, the uses found in the files' code, or why not."""

    name: str
    language: str
    candidates: int | None = None  # places the name stands in the files' text
    files: int = 0  # files holding it
    found: list[Found] = field(default_factory=list)
    texts: dict[Path, str] = field(default_factory=dict)  # what each file's uses are in
    skipped: str | None = None
    outside: list[Found] = field(default_factory=list)  # in source files the gate leaves out
    outside_texts: dict[Path, str] = field(default_factory=dict)
    outside_skipped: str | None = None
    unresolved: bool = True  # false: the uses tied to nothing are not listed (`all` alone)


def name_at(target: Target) -> str:
    """The identifier at the target's position."""
    text = target.document.lines[target.line - 1]
    for match in NAME.finditer(text):
        if match.start() <= target.column - 1 <= match.end():
            return match.group()
    return ""


async def prepare(
    ws: Workspace, target: Target, everywhere: bool = False, unresolved: bool = True
) -> Prepared:
    """The uses of the target's name in the code of the gate's files its server handles,
    and apart those in its other source files; `everywhere`: all of them alike, or without
    `unresolved` (no list of the uses tied to nothing) those in the other files alone."""
    name = name_at(target)
    server = target.session.definition
    language = target.document.language_id
    prepared = Prepared(name, language, unresolved=unresolved)
    dialect = dialect_for(language)
    if not name:
        prepared.skipped = "no name stands at the position"
        return prepared
    if dialect is None:
        prepared.skipped = f"lspd has no scanner for {language} code"
        return prepared
    if not target.session.supports("definitionProvider"):
        prepared.skipped = f"{target.session.name} does not answer definitions"
        return prepared
    try:
        gate = set((await gate_scope(ws)).files)
    except LspdError as exc:  # a configuration that cannot be read: `lspd check` says how
        prepared.skipped = f"the gate's files are not known: {exc}"
        return prepared
    served = [
        p
        for p in await ws.symbols.holding(name)
        if (h := ws.handler(p)) is not None and h.name == server.name
    ]
    others = [p for p in served if p not in gate]
    paths = [p for p in served if p in gate]
    if everywhere:  # the gate's files too, unless only the others' uses are asked about
        paths, others = (served if unresolved else others), []
    return await asyncio.to_thread(_scan_files, ws, (paths, others), prepared, dialect)


def _scan_files(
    ws: Workspace, paths: tuple[list[Path], list[Path]], prepared: Prepared, dialect: Dialect
) -> Prepared:
    """The uses in the gate's files (`paths[0]`), and apart in the others (`paths[1]`)."""
    name = prepared.name
    texts, counted = _read(ws, paths[0], name)
    prepared.candidates, prepared.files = counted, len(texts)
    prepared.skipped = _too_many(name, counted, len(texts))
    if prepared.skipped is None:
        for path, text in texts.items():
            prepared.found += [Found(path, use) for use in find_uses(text, name, dialect)]
        prepared.texts = texts
    others, counted = _read(ws, paths[1], name)
    prepared.outside_skipped = _too_many(name, counted, len(others))
    if prepared.outside_skipped is None:
        for path, text in others.items():
            prepared.outside += [Found(path, use) for use in find_uses(text, name, dialect)]
        prepared.outside_texts = others
    return prepared


def _read(ws: Workspace, paths: list[Path], name: str) -> tuple[dict[Path, str], int]:
    """The files' texts holding the name as a word, and how often it stands in them."""
    texts: dict[Path, str] = {}
    counted = 0
    for path in paths:
        try:
            text = files.read_source(path, ws.display(path))
        except InvalidInput:
            continue  # not a source file to read (binary, too large, gone)
        count = count_words(text, name)
        if count:
            texts[path] = text
            counted += count
    return texts, counted


def _too_many(name: str, counted: int, holding: int) -> str | None:
    if counted <= MAX_CANDIDATES:
        return None
    over = f"over the {MAX_CANDIDATES} lspd asks about"
    return f"`{name}` stands {counted} times in {holding} files, {over}"
