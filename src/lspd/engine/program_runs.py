"""A TypeScript program's errors from its own `tsc -p CONFIG --noEmit` on disk, where no
server or builder answers for it: the other programs of a file two hold (a solution's
referenced projects, `tsc -p tests` beside `tsc -p .`: `engine/solution_check.py`) on
TypeScript 7, whose server answers each file under one program.

Each program's run writes its `.tsbuildinfo` to a file of this process's and the next run
reads it, so after an edit tsc checks again only what the edit affects, as `tsc --watch`:
effect 4.1's 572 files, 31.4 s a whole run, 3.6 s after a comment edit (a CI run beside).
tsc's `--pretty` answer is read (`workspace/tsc_copy.said_by`): it alone shows where an
error ends (its squiggles), as the server's items do.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import re
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import cast

from lspd.lsp import shapes
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from lspd.workspace.files import stamp
from lspd.workspace.tsc_copy import Checked, TscError, said_by
from lspd.workspace.tsc_incremental import checked_output, dropped
from lspd.workspace.tsc_native import locate
from lspd.workspace.typescript_package import find_typescript, package_version

TIMEOUT_S = 600.0
Items = dict[Path, list[shapes.Diagnostic]]
# (workspace root, config) -> (the stamps it ran at, its items by file)
_ran: dict[tuple[Path, Path], tuple[object, Items]] = {}
# one run at a time of each program's build-info file (`_build_info`)
_running: dict[Path, threading.Lock] = {}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CONFIG = re.compile(r"^.+?\.json:\d+:\d+ - error TS\d+: ")  # tsc --pretty's, of a config


async def program_items(ws: Workspace, config: Path, files: Iterable[Path]) -> Items:
    """The errors of `config`'s program by file (`tsc -p CONFIG --noEmit`), kept while the
    stamps of `files` and the config are as they were."""
    stamps = tuple((p, stamp(p)) for p in (config, *files))
    kept = _ran.get((ws.root, config))
    if kept is not None and kept[0] == stamps:
        return kept[1]
    tsc = compiler_of(ws, config)
    if tsc is None:
        return {}
    items = await asyncio.to_thread(_run, tsc, config, _build_info(ws.root, config))
    _ran[(ws.root, config)] = (stamps, items)
    return items


def compiler_of(ws: Workspace, config: Path) -> list[str] | None:
    """The argv of the project's own `tsc` for `config` (TypeScript 7's native binary, or
    5's `lib/tsc.js` run by Node); None without one."""
    package = find_typescript(config.parent, ws.root)
    version = None if package is None else package_version(package)
    if package is None or version is None:
        return None
    if int(version.split(".")[0]) >= 7:
        native = locate(package, version).executable
        return None if native is None else [str(native)]
    script = package / "lib" / "tsc.js"
    return [node_executable(), str(script)] if script.is_file() else None


def items_of(checked: Checked) -> Items:
    """tsc's errors as LSP items by file (UTF-16 positions)."""
    found: Items = {}
    for error in checked.errors:
        found.setdefault(error.file, []).append(_item(error))
    return found


def _build_info(root: Path, config: Path) -> Path:
    """The file `config`'s runs on disk keep their build state in (none of the project's:
    its own `tsBuildInfoFile` is left as it is), in a folder of this process's."""
    name = hashlib.sha256(f"{root}\0{config}".encode()).hexdigest()[:20]
    return Path(_folder().name) / f"{name}.tsbuildinfo"


@functools.cache
def _folder() -> tempfile.TemporaryDirectory[str]:
    """This process's folder of build-info files, made at its first run (gone with it)."""
    return tempfile.TemporaryDirectory(prefix="lspd-tsbuildinfo-")


def _run(tsc: list[str], config: Path, build_info: Path) -> Items:
    """tsc's errors by file, each from its start to its end (`--pretty`'s squiggles), in
    LSP's lines, as tsc says them beside its configuration's errors (`solution_check.
    _configured`'s); none where tsc could not say (it did not run, an error of a library's
    file)."""
    with _running.setdefault(build_info, threading.Lock()):
        output = checked_output(tsc, config, build_info, TIMEOUT_S)
    if output is None:
        dropped(build_info)  # a run cut short: the next one starts anew
        return {}
    lines = _ANSI.sub("", output).split("\n")
    # a configuration's error (tsconfig.node.json:14:5 - error TS5023): `_configured` says
    # it; the rest is the program's answer, which tsc gives where the option stops nothing
    lines = ["" if _CONFIG.match(line) else line for line in lines]
    top = Path(config.anchor)  # the disk's paths are their own (no copy)
    found = said_by("\n".join(lines), config.parent, top, top, {}, configured=True)
    return {} if found is None else items_of(found)


def _item(error: TscError) -> shapes.Diagnostic:
    start = {"line": error.line - 1, "character": error.column - 1}
    end = {"line": error.end_line - 1, "character": error.end_column - 1}
    return cast(
        shapes.Diagnostic,
        {
            "range": {"start": start, "end": end},
            "severity": 1,
            "code": int(error.code),
            "source": "ts",
            "message": error.message,
        },
    )
