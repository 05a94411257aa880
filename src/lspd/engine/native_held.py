"""A held state's TypeScript 7 programs that a syntax error stops (a preview's texts, a
baseline's): tsc's answer is then their syntax errors alone, as in the whole check
(`engine/native_check.py`) and the builder's preview, and the check is a `Stop`.

TypeScript 7's LSP says a held text's syntactic and semantic items alike. A program's
files that may hold a syntax error are those said an item of the parser's codes: the held
files' results, and the disk's items of the files not held (`native_check.parser_items`).
tsc's parser alone says which are syntax errors (`tsc_native.parsed_errors`: the checker's
grammar errors share those codes): asked only when some file has such an item (0.4 s).

A file the state holds gone is held by the LSP as an empty text (`workspace.overlay`): its
importers' "not a module" (TS2306) is tsc's "Cannot find module" (TS2307, `held_as_tsc`),
or, where another file of its name answers the specifier (eq.d.ts beside eq.ts), or where
every file is a module ("moduleDetection": "force", an `.mts` or `.cts` whatever its text:
the empty text is one, its importers said "no exported member", TS2305, and nothing of an
`export *`), the program is checked by its own tsc on a copy (`workspace/tsc_copy.py`), also
where a file of its name is beside (a rename `.mts` -> `.cts`). So is a program with a
file held present in a folder the disk lacks (HEAD's text of a file deleted with its
folder, a new file in a new folder): the LSP finds no open file in a directory not on disk.
"""

from __future__ import annotations

import asyncio
import functools
import glob
import re
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, cast

from lspd.dirs import state_dir
from lspd.engine.builders import tsconfig_of
from lspd.engine.config_stops import options_errors
from lspd.engine.native_check import parser_items, stopped_configs, tsc_item
from lspd.engine.native_emitted import beside_syntax, kept
from lspd.engine.native_program import configs_of, program_state
from lspd.engine.native_reach import native_sessions
from lspd.engine.results import FileResult
from lspd.engine.stops import TSC, Stop, stop_of, syntax_code
from lspd.lsp import shapes
from lspd.lsp.positions import Encoding, from_units, to_units
from lspd.lsp.session import Session
from lspd.lsp.text import split_lines
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.tsc_copy import TscError, checked_copy
from lspd.workspace.tsc_native import parsed_errors

Texts = Mapping[Path, str | None]
_NOT_A_MODULE = re.compile(r"File '(.+)' is not a module\.")
_CASING = re.compile(
    r"(?:Already included file name|File name) '(.+?)' differs from "
    r"(?:file name|already included file name) '(.+?)' only in casing\."
)
_EXTENSION = re.compile(r"(?:\.d)?\.[cm]?[jt]sx?$|\.json$")
# a module specifier: `from "x"`, `import "x"`, `import("x")`, `require("x")`; and a
# `/// <reference path="x" />` (a file held gone is held empty: tsc says it not found, TS6053)
_SPECIFIER = re.compile(
    r"""(?:\bfrom|\bimport|\brequire|///\s*<reference\s+path\s*=)\s*\(?\s*["'`]([^"'`\n]+)["'`]"""
)


async def native_held(
    ws: Workspace,
    texts: Texts,
    results: Mapping[Path, FileResult],
    checked: Collection[Path],
    stops: list[Stop],
) -> dict[Path, list[dict[str, Any]]]:
    """The items tsc reports of each file of a TypeScript 7 program with a syntax error in
    the state `texts` make (its syntax errors; none for its other files), `results` the
    files asked in that state and `checked` the work tree's check's files; each such
    program added to `stops`. Empty when no program has one (tsc is asked only when a
    file was said an item of the parser's codes); a program a JSON module's syntax error
    stops is added to `stops` (`_data_stops`); so is one its configuration's options errors
    stop (`_options_stopped`: none of its files' errors said)."""
    await _data_stops(ws, texts, stops)
    touched = {c for p in texts if (c := tsconfig_of(ws, p)) is not None}  # the others: as on disk
    disk = parser_items(ws)
    maybe = [p for p, r in results.items() if _suspect(r)] + [p for p in disk if p not in results]
    suspects = native_sessions(ws, [p for p in maybe if tsconfig_of(ws, p) in touched])
    if not suspects:
        return _options_stopped(ws, texts, results, checked, stops)
    present = {p for p in checked if texts.get(p, "") is not None}
    present |= {p for p, t in texts.items() if t is not None}
    configs = {tsconfig_of(ws, p) for p in suspects}
    programs: dict[Path, list[Path]] = {}
    for path in native_sessions(ws, sorted(p for p in present if tsconfig_of(ws, p) in configs)):
        programs.setdefault(tsconfig_of(ws, path) or path, []).append(path)
    found: dict[Path, list[dict[str, Any]]] = {}
    for files in programs.values():
        asked = [p for p in files if p in suspects]
        if not asked:
            continue
        command = suspects[asked[0]].definition.resolved_command()
        if "--lsp" not in command:
            continue
        held = {p: text for p in asked if (text := _text(p, texts)) is not None}
        tsc = command[: command.index("--lsp")]
        errors = await asyncio.to_thread(parsed_errors, tsc, held)
        if not errors:
            continue
        for error in errors:
            found.setdefault(error.file, []).append(dict(tsc_item(disk, error)))
        found.update((p, []) for p in files if p not in found)
        at = [(ws.display(e.file), e.line) for e in errors]
        stops.append(stop_of(TSC, at, map(ws.display, files)))
    return found | _options_stopped(ws, texts, [*results, *found], checked, stops)


def _options_stopped(
    ws: Workspace,
    texts: Texts,
    asked: Collection[Path],
    checked: Collection[Path],
    stops: list[Stop],
) -> dict[Path, list[dict[str, Any]]]:
    """The TypeScript 7 programs of the files `asked` in the state `texts` make that their
    configuration's options errors stop (`config_stops.options_errors`: the last check's,
    as the whole check stops them), no stop of `stops` holding them (a syntax error stops
    tsc first): no item of their files asked (TypeScript 7's LSP says a held text's
    semantic errors), each program's stop added, its files `checked` its files. A
    configuration held at another text is left to its own run."""
    found: dict[Path, list[dict[str, Any]]] = {}
    # a jsconfig.json's files by it (jotai's website/*.js: not the root tsconfig's), each
    # file's looked up once whatever the configurations stopped (a stat of each folder up)
    program = functools.cache(functools.partial(tsconfig_of, ws))
    for config, errors in options_errors(ws).items():
        if config in texts:
            continue
        files = [p for p in native_sessions(ws, sorted(asked)) if program(p) == config]
        shown = {ws.display(p) for p in files}
        if not files or any(s.checker == TSC and not s.files.isdisjoint(shown) for s in stops):
            continue
        held = shown | {ws.display(p) for p in checked if program(p) == config}
        at = sorted({(ws.display(e.file), e.line) for e in errors})
        stops.append(Stop(TSC, tuple(at), frozenset(held), frozenset()))
        found.update((p, []) for p in files)
    return found


async def _data_stops(ws: Workspace, texts: Texts, stops: list[Stop]) -> None:
    """The programs of the held files that a JSON module's syntax error stops, not stopped
    already, added to `stops`: a JSON is no server's file, so no item of the parser's codes
    makes it a suspect (a preview of use.ts beside an unclosed defaults.json said no stop,
    where tsc -p stops there). Their programs as read for the question (`held_as_tsc`),
    the held texts not parsed again (`clean`)."""
    sessions = native_sessions(ws, [p for p, text in texts.items() if text is not None])
    for config, (tsc, files) in configs_of(ws, sessions).items():
        if any(ws.display(f) in stop.files for stop in stops for f in files):
            continue
        state = await program_state(ws, tsc, config, texts, clean=set(texts))
        broken = [
            (f, e) for f, errors in state.broken.items() if f.suffix == ".json" for e in errors
        ]
        if broken:
            at = [(ws.display(f), e.line) for f, e in broken]
            stops.append(stop_of(TSC, at, map(ws.display, state.files)))


async def held_as_tsc(
    ws: Workspace, said: Mapping[Path, tuple[Session, list[shapes.Diagnostic]]], texts: Texts
) -> dict[Path, list[shapes.Diagnostic]]:
    """Of `said` (file -> the server that answered it, its items) in the state `texts` make,
    the TypeScript 7 files tsc answers otherwise, as tsc answers them (as lspd's tsserver
    plugin answers a held state on TypeScript 5): in a program with a syntax error, a file's
    syntax errors alone, or none (`native_program`); the importers of a file held gone as
    tsc has them with that file absent (`_gone`, `_shadowed`). Plain items, no `Stopped`:
    the state's stop is the program's (`native_held`), one, not one per file."""
    found = _gone(texts, said)
    found |= await _shadowed(ws, texts, said, found)
    said = {p: (s, found.get(p, items)) for p, (s, items) in said.items()}
    sessions = {path: session for path, (session, _) in said.items()}
    # a held file said no item of the parser's codes has no syntax error: not parsed
    clean = {p for p, (_, items) in said.items() if not any(map(_maybe, items))}
    for config, (tsc, paths) in configs_of(ws, sessions).items():
        state = await program_state(ws, tsc, config, texts, clean=clean)
        if state.broken or (state.configured and config not in texts):
            # TypeScript 7 says the declaration pass's errors beside syntax errors
            beside = bool(state.broken) and await beside_syntax(tsc, config)
            for path in (p for p in paths if p in state.files):  # options errors: none said
                errors = state.broken.get(path, ())
                items = said[path][1]
                found[path] = [tsc_item({path: items}, e) for e in errors]
                found[path] += kept(items) if beside else []
    return found


def _gone(
    texts: Texts, said: Mapping[Path, tuple[Session, list[shapes.Diagnostic]]]
) -> dict[Path, list[shapes.Diagnostic]]:
    """`said`'s items of the files importing a file held gone, as tsc says them: TypeScript
    7's LSP holds no file absent, only empty (`workspace.overlay`), and says "File '/abs/
    eq.ts' is not a module." (TS2306) where tsc, the file absent, cannot find the module
    (TS2307, its specifier). Left as said where another file of that name may resolve the
    specifier instead (eq.d.ts, eq/index.ts beside it): tsc says those (`_shadowed`). Its
    "differs only in casing" of a file held gone is none of tsc's (`_cased`)."""
    absent = {p for p, t in texts.items() if t is None}
    gone = {p for p in absent if not _resolves_otherwise(p, texts)}
    found: dict[Path, list[shapes.Diagnostic]] = {}
    for path, (session, items) in said.items():
        lines = split_lines(_text(path, texts) or "") if gone else []
        fixed = [_not_found(item, gone, lines, session.encoding) for item in items]
        fixed = [item for item in fixed if not _cased(item, absent)]
        if fixed != items:
            found[path] = fixed
    return found


async def _shadowed(
    ws: Workspace,
    texts: Texts,
    said: Mapping[Path, tuple[Session, list[shapes.Diagnostic]]],
    fixed: Mapping[Path, list[shapes.Diagnostic]],
) -> dict[Path, list[shapes.Diagnostic]]:
    """The errors of the files of a program whose items name a file held gone that another
    file of its name resolves instead (eq.d.ts beside eq.ts), or that import a file held
    gone the LSP said no TS2306 of, or one held in a folder the disk lacks (`_unplaced`), as
    its own tsc says them in the state `texts` make (`tsc_copy`: on a copy): it checks the
    importers against that file, where the LSP said "not a module" (TS2306) and nothing of
    its types. The server's item where it said the same (`fixed`: as `_gone` has it); the
    items that are no errors as said. Where tsc could not say, as said."""
    gone = {p for p, t in texts.items() if t is None}
    shadowed = {p for p in gone if _resolves_otherwise(p, texts)}
    naming = {p for p, (_, items) in said.items() if any(_names(i, shadowed) for i in items)}
    # an empty module where every file is one ("moduleDetection": "force", an .mts or .cts
    # whatever its text, also where a file of its name is beside: a rename .mts -> .cts):
    # the LSP said no TS2306 of it, but "no exported member" (TS2305) of each name
    named = {p for p in gone for _, items in said.values() if any(_names(i, {p}) for i in items)}
    if modules := gone - named:
        naming |= {p for p in said if _imports(_text(p, texts) or "", modules)}
    if unplaced := _unplaced(texts):  # the LSP cannot find them: their importers said TS2307
        naming |= {p for p in said if p in unplaced or _imports(_text(p, texts) or "", unplaced)}
    if not naming:
        return {}
    found: dict[Path, list[shapes.Diagnostic]] = {}
    sessions = {path: session for path, (session, _) in said.items()}
    for config, (tsc, paths) in configs_of(ws, sessions).items():
        if naming.isdisjoint(paths):
            continue
        base = state_dir(ws.root)
        checked = await asyncio.to_thread(checked_copy, tsc, ws.root, config, texts, base, True)
        if checked is None:
            continue
        errors: dict[Path, list[TscError]] = {}
        for error in checked.errors:
            errors.setdefault(error.file, []).append(error)
        for path in (p for p in paths if p in checked.files):
            session, items = sessions[path], fixed.get(path, said[path][1])
            lines = split_lines(_text(path, texts) or "")
            made = [_item(e, items, lines, session.encoding) for e in errors.get(path, ())]
            found[path] = made + [item for item in items if item.get("severity", 1) != 1]
    return found


def _item(
    error: TscError, said: list[shapes.Diagnostic], lines: list[str], encoding: Encoding
) -> shapes.Diagnostic:
    """tsc's error as an LSP item in `encoding`: the server's own where it said the same at
    the same range (its related information kept)."""
    points = []
    for line, column in ((error.line, error.column), (error.end_line, error.end_column)):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        character = to_units(text, from_units(text, column - 1, "utf-16"), encoding)
        points.append({"line": line - 1, "character": character})
    where = {"start": points[0], "end": points[1]}
    code, message = int(error.code), error.message
    for item in said:
        if (item["range"], str(item.get("code")), item.get("message")) == (
            where,
            error.code,
            message,
        ):
            return item
    return cast(
        shapes.Diagnostic,
        {"range": where, "severity": 1, "code": code, "source": "ts", "message": message},
    )


def _names(item: shapes.Diagnostic, gone: Collection[Path]) -> bool:
    """Whether `item` is a TS2306 naming a file of `gone` ("File '...' is not a module.")."""
    named = _NOT_A_MODULE.fullmatch(item.get("message", ""))
    return str(item.get("code")) == "2306" and named is not None and Path(named[1]) in gone


def _cased(item: shapes.Diagnostic, gone: Collection[Path]) -> bool:
    """Whether `item` says a file held gone differs from another only in casing (TS1149,
    TS1261): the empty text the LSP holds for it is in its program, where tsc has no file
    (a rename in casing alone: noop.ts -> noOp.ts)."""
    named = _CASING.match(item.get("message", ""))
    codes = ("1149", "1261")
    return (
        str(item.get("code")) in codes
        and named is not None
        and bool({Path(named[1]), Path(named[2])} & set(gone))
    )


def _not_found(
    item: shapes.Diagnostic, gone: Collection[Path], lines: list[str], encoding: Encoding
) -> shapes.Diagnostic:
    """A TS2306 item naming a file of `gone`, as TS2307 of the specifier at its range."""
    if not _names(item, gone):
        return item
    start, end = item["range"]["start"], item["range"]["end"]
    if start["line"] != end["line"] or start["line"] >= len(lines):
        return item
    line = lines[start["line"]]
    a, b = (from_units(line, at["character"], encoding) for at in (start, end))
    specifier = line[a:b].strip("\"'`")
    message = f"Cannot find module '{specifier}' or its corresponding type declarations."
    fixed = {k: v for k, v in item.items() if k != "relatedInformation"}
    return cast(shapes.Diagnostic, {**fixed, "code": 2307, "message": message})


def _imports(text: str, gone: Collection[Path]) -> bool:
    """Whether `text` has a module specifier that may name a file of `gone`: its last part
    that file's name without extension (a folder's for an `index`); a path alias too."""
    names = {_EXTENSION.sub("", p.name) for p in gone}
    names |= {p.parent.name for p in gone if _EXTENSION.sub("", p.name) == "index"}
    for specifier in _SPECIFIER.findall(text):
        if _EXTENSION.sub("", specifier.rstrip("/").rsplit("/", 1)[-1]) in names:
            return True
    return False


def _unplaced(texts: Texts) -> set[Path]:
    """The files held present in a folder the disk lacks (HEAD's text of a file deleted with
    its folder since, a preview's new file in a new folder): `tsc --lsp` finds no open file
    in a directory not on disk, so its importers said "Cannot find module" (TS2307) where
    tsc, the file written, resolves it."""
    return {p for p, t in texts.items() if t is not None and not p.parent.is_dir()}


def _resolves_otherwise(path: Path, texts: Texts) -> bool:
    """Whether a file other than `path` may answer a specifier naming it: one of its name
    and another extension, or a folder of its name (`index`), present in the state."""
    stem = _EXTENSION.sub("", path.name)
    beside = [*path.parent.glob(f"{glob.escape(stem)}.*"), path.parent / stem]
    beside += [p for p, t in texts.items() if t is not None and p.parent == path.parent]
    return any(
        p != path and _EXTENSION.sub("", p.name) == stem and texts.get(p, "") is not None
        for p in beside
        if p.exists() or p in texts
    )


def native_stopped(ws: Workspace, texts: Texts, files: Collection[Path]) -> set[Path]:
    """Of `files`, those of the TypeScript 7 programs a syntax error stopped on disk that
    `texts` change: their answers are the syntax errors alone there, so in the state the
    texts make every file of them is asked (the builder's preview answers every file
    after a check that stopped too)."""
    stopped = stopped_configs(ws)
    if not stopped:
        return set()
    touched = {c for p in texts if (c := tsconfig_of(ws, p)) in stopped}
    if not touched:
        return set()
    return {p for p in native_sessions(ws, sorted(files)) if tsconfig_of(ws, p) in touched}


def _maybe(item: shapes.Diagnostic) -> bool:
    """Whether an LSP item has one of the parser's codes (maybe a syntax error)."""
    return syntax_code(TSC, str(item.get("code")))


def _suspect(result: FileResult) -> bool:
    """Whether a result has an item of the parser's codes (maybe a syntax error)."""
    return any(syntax_code(TSC, d.code) for d in result.diagnostics)


def _text(path: Path, texts: Texts) -> str | None:
    return texts[path] if path in texts else read_text(path)
