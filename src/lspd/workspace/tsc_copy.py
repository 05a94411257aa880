"""A TypeScript program checked by its own `tsc -p` in a state never written, on a copy.

TypeScript 7's LSP (`tsc --lsp`) holds no file absent: a file a held state deletes is held
as an empty text, and it still resolves its name. Where another file of that name would
resolve it once it is gone (`eq.d.ts` beside `eq.ts`, `eq/index.ts`), tsc checks the
importers against that file; the LSP said "File '/abs/eq.ts' is not a module." (TS2306)
and none of the errors the other file's types make. Such a state is checked here by tsc
itself on a copy holding the held texts (`workspace/tsc_copy_layout.py`): `tsc -p <config>
--noEmit --listFiles --pretty`, its answer read here (also of a run on the disk: `said_by`).
The copy is kept for the next question (`workspace/tsc_kept.py`: only what moved is copied
again), or made afresh and removed where another question holds it. A kept copy's tsc keeps
its build state beside it (`tsc_kept.build_info`): the next question's run checks again what
the texts moved since affect, as `tsc --watch` (effect 4.1 on TypeScript 7, a preview of a
leaf edit of a file `tsc -p tests` holds too: 28-40 s, a whole run each, before). A fresh
copy's run is whole (its start and libraries included).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from lspd.lsp.text import from_ecmascript
from lspd.workspace import tsc_kept
from lspd.workspace.copies import LeadsOut
from lspd.workspace.files import read_text
from lspd.workspace.tsc_copy_layout import Layout, in_state
from lspd.workspace.tsc_incremental import checked_output

CHECK_TIMEOUT_S = 300.0
READS = 3  # tsc runs of a question at most: the later ones each read ignored files copied
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# tsc --pretty's error: `file:line:column - error TS2322: message` (its chain on the lines
# after), a blank line, then its source lines (`12 text`) each under its squiggles' line.
_HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+) - error TS(?P<code>\d+): ")
_ROW = re.compile(r"^( *)(\d+) ")
_UNPLACED = re.compile(r"^error TS(?P<code>\d+): ")
_RELATED = re.compile(r"^\s+\S+:\d+:\d+")  # TypeScript 7's related place, in the chain


@dataclass(frozen=True)
class TscError:
    """An error tsc said: its file, its start and end (1-based lines, 1-based UTF-16
    columns; the end past its last character), its code and message."""

    file: Path
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str


@dataclass(frozen=True)
class Checked:
    """tsc's answer of a program in one state: its files (the project's, by their paths in
    `root`) and the errors it said of them."""

    files: frozenset[Path]
    errors: tuple[TscError, ...]
    configured: bool = False  # it said an error of a configuration (left out of `errors`)
    configs: tuple[TscError, ...] = ()  # those errors (one said without a place: line 1)


def checked_copy(
    tsc: list[str],
    root: Path,
    config: Path,
    texts: Mapping[Path, str | None],
    base: Path,
    configured: bool = False,
) -> Checked | None:
    """What `tsc -p config` (`tsc`: the compiler's argv before its arguments) says of the
    program in the state `texts` make (None: absent; the disk's for the rest), run on a copy
    of `root` under `base`: the one kept there for `config` (`workspace/tsc_kept.py`), or a
    fresh one where another question holds it. None when it could not say (it did not run,
    timed out, or said an error of no file of the project: a configuration's, unless
    `configured`: then the files' errors as tsc said them beside it, `Checked.configured`
    set; tsc says none where the configuration's options err, its semantic errors where the
    configuration's parser did, TS5023). Its `--pretty` answer is read: it alone shows where
    an error ends (its squiggles)."""
    base.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="tsc-scratch-", dir=base)).resolve()
    try:
        return _checked(tsc, root, config, texts, base, scratch, configured)
    except LeadsOut:  # a held text under node_modules or a linked folder: not on a copy
        return None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _checked(
    tsc: list[str],
    root: Path,
    config: Path,
    texts: Mapping[Path, str | None],
    base: Path,
    scratch: Path,
    configured: bool,
) -> Checked | None:
    """`checked_copy` with its scratch folder made."""
    layout = Layout.of(root, config, texts)
    copy = tsc_kept.folder(base, root, config, layout.top).resolve()
    with tsc_kept.taken(copy, root) as manifest:
        if manifest is not None:
            if not manifest.files:  # a new copy: the disk it takes bounded first
                tsc_kept.swept(base.parent)
            build_info = tsc_kept.build_info(copy)  # its last run's: only what moved again
            try:
                return _answered(tsc, config, layout, copy, manifest, build_info, configured)
            except OSError:  # (a folder where a file now is): made anew next time
                manifest.files.clear()
                manifest.links.clear()
    fresh = tsc_kept.Manifest()
    build_info = scratch / "lspd.tsbuildinfo"
    return _answered(tsc, config, layout, scratch / "copy", fresh, build_info, configured)


def _answered(
    tsc: list[str],
    config: Path,
    layout: Layout,
    copy: Path,
    manifest: tsc_kept.Manifest,
    build_info: Path,
    configured: bool,
) -> Checked | None:
    """tsc -p's answer on `copy` brought to the state (`tsc_copy_layout.in_state`), its
    build state in `build_info`; asked again where it read an ignored file at its real
    path, that file then copied (`tsc_kept.read_through`)."""
    root = layout.root
    for _ in range(READS):
        here = in_state(layout, copy, manifest)
        where = here / config.relative_to(root)
        output = checked_output(tsc, where, build_info, CHECK_TIMEOUT_S)
        if output is None:
            return None
        listed = (Path(os.path.normpath(line)) for line in output.split("\n") if line[:1] == "/")
        read = tsc_kept.read_through(root, copy, manifest.hidden, listed)
        if not read:
            return said_by(output, where.parent, here, root, layout.texts, configured, config)
        manifest.opened = sorted({*manifest.opened, *read})
    return None


def said_by(
    output: str,
    cwd: Path,
    copy: Path,
    root: Path,
    texts: Mapping[Path, str | None],
    configured: bool = False,
    config: Path | None = None,
) -> Checked | None:
    """tsc's `--listFiles --pretty` `output`, run in `cwd`, read (`_said`): the files of
    `copy` by their paths in `root` (the same folder for a run on the disk), positions in
    LSP's lines of the held `texts` (the disk's for the rest); None where it could not say
    (at a configuration's error too, unless `configured`: see `checked_copy`). An error
    said without a place is `config`'s (its path in `root`) at its first line, as `tsc -p
    --listFilesOnly`'s reading says it (`tsc_native.listed`)."""
    said = _said(_ANSI.sub("", output).split("\n"), cwd, copy, root, config)
    if said is None or (said.configured and not configured):
        return None
    return _in_lsp_lines(said, texts)


def _said(
    lines: list[str], cwd: Path, copy: Path, root: Path, config: Path | None = None
) -> Checked | None:
    """tsc's output read: the program's files and the errors of the project's files, by
    their paths in `root` (a message naming the copy names `root`); None at an error of a
    file outside the copy (a library's). A configuration's error (said without a place, or
    of a JSON file no file of the program) is left out, `Checked.configured` said. A JSON
    module's error is its file's (`defaults.json(2,1): error TS1005`, unclosed: tsc's
    answer alone, a stop)."""
    files: set[Path] = set()
    errors: list[TscError] = []
    unplaced: list[TscError] = []
    configured, at = False, 0
    while at < len(lines):
        line = lines[at]
        at += 1
        if os.path.isabs(line):
            if (path := Path(os.path.normpath(line))).is_relative_to(copy):
                files.add(root / path.relative_to(copy))
            continue
        if (bare := _UNPLACED.match(line)) is not None:
            configured = True
            message = [line[bare.end() :]]
            while at < len(lines) and lines[at].strip() and not _RELATED.match(lines[at]):
                message.append(lines[at].strip())  # its chain, as `--pretty false` says it
                at += 1
            text = "\n".join(message).replace(str(copy), str(root))
            if config is not None:
                unplaced.append(TscError(config, 1, 1, 1, 1, bare["code"], text))
            continue
        if (header := _HEADER.match(line)) is None:
            continue
        file = Path(os.path.normpath(cwd / header["file"]))
        if not file.is_relative_to(copy):
            return None
        message = [line[header.end() :]]
        while at < len(lines) and lines[at]:  # its chain
            message.append(lines[at])
            at += 1
        start = int(header["line"]), int(header["column"])
        end, at = _end(lines, at + 1, start)
        text = "\n".join(message).replace(str(copy), str(root))
        here = root / file.relative_to(copy)
        errors.append(TscError(here, *start, *end, header["code"], text))
    said = [e for e in errors if e.file.suffix != ".json" or e.file in files]
    configured |= len(said) < len(errors)  # a tsconfig's (listed after the errors)
    configs = [*unplaced, *(e for e in errors if e not in said)]
    return Checked(frozenset(files), tuple(said), configured, tuple(configs))


def _in_lsp_lines(checked: Checked, texts: Mapping[Path, str | None]) -> Checked:
    """tsc's positions are in ECMAScript's lines, which U+2028 and U+2029 end too; lspd's are
    LSP's (\n, \r\n, \r): an error of a file holding either, read as it is, was another
    line's (an error that stayed: both new and fixed), so it is moved to LSP's lines."""
    errors = []
    for error in checked.errors:
        text = texts[error.file] if error.file in texts else read_text(error.file)
        if text is not None and ("\u2028" in text or "\u2029" in text):
            line, column = from_ecmascript(text, error.line, error.column)
            end_line, end_column = from_ecmascript(text, error.end_line, error.end_column)
            error = replace(error, line=line, column=column, end_line=end_line)
            error = replace(error, end_column=end_column)
        errors.append(error)
    return replace(checked, errors=tuple(errors))


def _end(lines: list[str], at: int, start: tuple[int, int]) -> tuple[tuple[int, int], int]:
    """Where the error whose source lines start at `lines[at]` ends: past its last
    squiggle, on the last source line shown (`start` where none is); and the line after
    its source lines."""
    end, number, gutter = start, None, None
    while at < len(lines) and lines[at]:
        line = lines[at]
        at += 1
        row = _ROW.match(line)
        if row is not None and (gutter is None or len(row[0]) - 1 == gutter):
            gutter, number = len(row[0]) - 1, int(row[2])
        elif gutter is not None and number is not None and "~" in line[gutter + 1 :]:
            end = number, line[gutter + 1 :].rindex("~") + 2
    return end, at
