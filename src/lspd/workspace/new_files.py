"""A file not written yet, answered by the TypeScript project that will own it on disk.

tsserver gives an open file that is not on disk an inferred project of its own, with default
options: it matches a file to a tsconfig by the file names the tsconfig listed from disk, so
the configured project whose `include` would take it in does not. The tsconfig's options
(`customConditions`, `paths`, `types`), its global declarations and its own package name
(`import * as z from "<its name>"` through a custom `exports` condition) are then missing,
and the file gets errors tsc will never report (TS2307). tsserver does take an open file
into a configured project that references it, and answers for it from that project. So,
while a new file is held, one file of the tsconfig that would list it (its "host": on disk,
not among the files checked) is held with a `/// <reference path>` to it before its first
line: tsc's view, nothing written. The host's own answers are not asked (its lines moved by
one); the reference changes neither its declarations nor whether it is a module.

A file written but not yet taken in by its tsconfig's project (see `unplaced`) gets a host
too. TypeScript 7 (`tsc --lsp`) and the Python servers place an open new file by its path
already, so only tsserver's files get a host.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from lspd.lsp.diagnostics import Send
from lspd.servers.registry import definitions, node_executable
from lspd.workspace.files import stamp
from lspd.workspace.typescript_package import find_typescript

log = logging.getLogger(__name__)

TSSERVER = "typescript-language-server"  # the server whose new files need a host
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")  # tsserver looks for both, in this order
TIMEOUT_S = 60.0
MAX_HOST_BYTES = 200_000  # a smaller host costs tsserver less to parse again
HOST_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@dataclass(frozen=True)
class Owner:
    """The tsconfig that would list a new file, and its other root files."""

    config: Path
    files: tuple[Path, ...]
    others: tuple[Path, ...] = ()  # the other programs of its solution that would hold it


def candidate_configs(path: Path, root: Path) -> list[Path]:
    """The tsconfig.json / jsconfig.json files above `path` up to `root`, nearest first
    (tsserver's search, its projects' references aside)."""
    found = []
    for directory in path.parents:
        found += [c for name in CONFIG_NAMES if (c := directory / name).is_file()]
        if directory == root or root not in directory.parents:
            break
    return found


def typescript_for(path: Path, root: Path, fallback: Path) -> Path:
    """The TypeScript package that reads `path`'s tsconfig: the project's own when it has
    the compiler API (not 7's native one), else `fallback` (lspd's, as its tsserver)."""
    existing = next((d for d in path.parents if d.is_dir()), root)
    own = find_typescript(existing, root)
    if own is not None and (own / "lib" / "typescript.js").is_file():
        return own
    return fallback


def reader(path: Path, root: Path) -> Path:
    """The TypeScript package that reads `path`'s tsconfig (`typescript_for`), lspd's own
    tsserver's where the project's has no compiler API."""
    return typescript_for(path, root, definitions()[TSSERVER].npm_root() / "typescript")


def owner(path: Path, root: Path, typescript: Path) -> Owner | None:
    """The first tsconfig above `path` (or one it references) whose files would include
    `path` once written, as `typescript` reads it; None when none would, or it cannot tell
    (then tsserver places the file as it would anyway). Remembered while the configs it
    read are unchanged: asking takes Node 0.5 s (1.3-1.7 s on a busy machine) to load
    TypeScript, and an agent previews a new file again and again while writing it."""
    configs = candidate_configs(path, root)
    if not configs or not (typescript / "lib" / "typescript.js").is_file():
        return None
    key = (path, typescript, tuple(configs))
    known = _MEMO.get(key)
    if known is not None and all(stamp(c) == s for c, s in known[0]):
        return known[1]
    before = {c: stamp(c) for c in configs}  # as they were when asked
    try:
        found, read = _ask(path, typescript, configs)
    except Unanswered as exc:  # not remembered: the next call asks again
        log.warning("could not find the tsconfig of %s: %s", path, exc)
        return None
    stamps = {c: stamp(c) for c in read} | before
    _MEMO.pop(key, None)
    _MEMO[key] = (tuple(stamps.items()), found)
    while len(_MEMO) > MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))  # the oldest
    return found


MEMO_SIZE = 64  # new files whose tsconfig is remembered
Stamp = tuple[int, int] | None
_MEMO: dict[
    tuple[Path, Path, tuple[Path, ...]], tuple[tuple[tuple[Path, Stamp], ...], Owner | None]
] = {}


class Unanswered(Exception):
    """The project's TypeScript could not say which tsconfig would list a file."""


def _ask(path: Path, typescript: Path, configs: list[Path]) -> tuple[Owner | None, list[Path]]:
    """`owner` asked of `typescript`, and the configs it read to answer."""
    script = resources.files("lspd.workspace").joinpath("tsconfig_owner.js")
    request = json.dumps({"file": str(path), "configs": [str(c) for c in configs]})
    with resources.as_file(script) as runnable:
        try:
            done = subprocess.run(
                [node_executable(), str(runnable), str(typescript)],
                input=request,
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                cwd=typescript,
            )
            answer = json.loads(done.stdout) if done.returncode == 0 else None
        except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
            raise Unanswered(str(exc)) from None
    if not isinstance(answer, dict):
        raise Unanswered(done.stderr[-500:] or f"node exited with {done.returncode}")
    read = [Path(os.path.normpath(str(c))) for c in answer.get("read") or []]
    if not answer.get("config"):
        return None, read
    files = tuple(Path(os.path.normpath(str(f))) for f in answer.get("files") or [])
    others = tuple(Path(os.path.normpath(str(c))) for c in answer.get("others") or [])
    return Owner(Path(str(answer["config"])), files, others), read


def choose_host(files: tuple[Path, ...], avoid: set[Path]) -> Path | None:
    """The smallest source file of `files` on disk that is not in `avoid` (files checked
    or held) and does not start with `#!` (a line before it would be an error)."""
    sized = []
    for file in files:
        if file in avoid or not file.name.endswith(HOST_SUFFIXES) or "node_modules" in file.parts:
            continue
        try:
            size = file.stat().st_size
            if size > MAX_HOST_BYTES:
                continue
            with file.open("rb") as opened:
                if opened.read(2) == b"#!":
                    continue
        except OSError:
            continue
        sized.append((size, str(file), file))
    return min(sized)[2] if sized else None


async def unplaced(send: Send, path: Path, timeout: float) -> bool:
    """Whether tsserver has `path`, a file on disk, in no tsconfig's project. A file just
    written in a new directory stays in an inferred project under a project's own
    TypeScript 5.4 while lspd's watcher runs (tsserver then hears of files from lspd): it
    then needs a host as an unwritten file does. The project's file list is asked too: the
    project tsserver names may be one that, brought up to date, no longer holds the file
    (the host that took it in was just restored)."""
    response = await send(
        "workspace/executeCommand",
        {
            "command": "typescript.tsserverRequest",
            "arguments": ["projectInfo", {"file": str(path), "needFileNameList": True}],
        },
        timeout,
    )
    body = (response or {}).get("body") if isinstance(response, dict) else None
    if not isinstance(body, dict):
        return True
    name, files = body.get("configFileName"), body.get("fileNames") or []
    configured = isinstance(name, str) and name.endswith(".json")
    return not configured or str(path) not in files


def referencing(host: Path, text: str, new: list[Path]) -> str:
    """`text` (the host's) with a reference to each of `new` before its first line."""
    lines = []
    for path in new:
        relative = Path(os.path.relpath(path, host.parent)).as_posix()
        lines.append(f'/// <reference path="{relative}" />\n')
    return "".join(lines) + text
