"""The servers a workspace's markers make certain, for a `serve` with nothing remembered
(issue 43: the cold start of a workspace lspd never served, or of a fresh state directory).

`head_start` starts ahead what the last run's prewarm started; with no such record the
server spawned only after lspd's imports and the `python3` shim was asked only once the
server answered `initialize`. Here the record is made from what prewarm will start for
certain: the server the pool picks for a language (servers.toml's first for the extension;
with an lspd.toml, which may choose another, nothing starts ahead at all) when the root holds
one of its markers and a file of the language lies under the root with no marker between
(prewarm's project at the root), run as its session runs it (command, directory, environment,
log), with the shim's question the session will ask. Nothing else is guessed: a virtual
environment in the workspace, the project's own TypeScript server or TypeScript 7, a server
not installed, no `python3` on PATH: the session starts those as ever. The records go through
`head_start`'s checks as a remembered one does, and a start no session asks for exactly is
killed once prewarm runs.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lspd.dirs import state_dir
from lspd.lsp import interpreter_ask, process

if TYPE_CHECKING:
    from lspd.servers.registry import ServerDefinition

# Walked to find a file of the language under the root (directories; breadth first).
LOOKED_AT = 200
PASSED_OVER = frozenset({"node_modules", "__pycache__", "dist", "build", "target"})


def records(root: Path) -> list[dict[str, Any]]:
    """The starts (`head_start`'s records) the markers at `root` make certain: the Python
    and the TypeScript server's, each with its questions to a shim."""
    from lspd.servers.registry import definition_for_path  # with servers.toml: ~0.035 s CPU

    made: list[dict[str, Any]] = []
    for probe in ("x.py", "x.ts"):
        definition = definition_for_path(Path(probe))
        if definition is None or not any((root / m).is_file() for m in definition.roots):
            continue
        if not _needed(root, definition.name, definition.roots):
            continue
        if definition.toolchain == "python":
            made += _python(root, definition)
        elif definition.toolchain == "typescript":
            made += _typescript(root, definition)
    return made


def _needed(root: Path, name: str, markers: tuple[str, ...]) -> bool:
    """Whether a file that server `name` answers lies under `root` with no directory holding
    one of its `markers` between (then prewarm starts it at the root); hidden, dependency
    and environment directories are passed over, at most `LOOKED_AT` directories looked at."""
    from lspd.servers.registry import definition_for_path

    for directory, files in _walk(root):
        if directory != root and any(m in files for m in markers):
            continue  # a project of its own: prewarm starts it there, if at all
        for file in files:
            handler = definition_for_path(directory / file)
            if handler is not None and handler.name == name:
                return True
    return False


def _walk(root: Path) -> Iterator[tuple[Path, set[str]]]:
    todo, looked = [root], 0
    while todo and looked < LOOKED_AT:
        directory, looked = todo.pop(0), looked + 1
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        files = {e.name for e in entries if e.is_file()}
        if "pyvenv.cfg" in files:
            continue
        yield directory, files
        below = (e for e in entries if e.is_dir(follow_symlinks=False))
        todo += sorted(Path(e.path) for e in below if not _passed_over(e.name))


def _passed_over(name: str) -> bool:
    return name.startswith(".") or name in PASSED_OVER


def _python(root: Path, definition: ServerDefinition) -> list[dict[str, Any]]:
    """basedpyright as its session runs it with `python3` on PATH (workspace/toolchain.py
    `_python`), and the question to that `python3` when it is a shim; none when the
    workspace holds a virtual environment (the session runs that one)."""
    try:
        if any((child / "pyvenv.cfg").is_file() for child in root.iterdir()):
            return []
    except OSError:
        return []
    interpreter = interpreter_ask.python_on_path()
    if interpreter is None:
        return []
    path = f"{interpreter.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**definition.env, "PATH": path}
    if (interpreter.parent.parent / "pyvenv.cfg").is_file():
        env["VIRTUAL_ENV"] = str(interpreter.parent.parent)
    adapted = dataclasses.replace(definition, env=env)
    made = [_server(root, adapted)] if adapted.missing() is None else []
    if made and interpreter_ask.is_script(interpreter):
        made.append({"ask": str(interpreter), "cwd": str(root), "env": env})
    return made


def _typescript(root: Path, definition: ServerDefinition) -> list[dict[str, Any]]:
    """typescript-language-server as its session runs it with the project's TypeScript up
    to 6 (given in its initialization options) or lspd's own; none for a TypeScript 7 or a
    broken one (another server, or a refusal) or the project's own server."""
    modules = root / "node_modules"
    if (modules / "typescript-language-server").exists():
        return []
    package = modules / "typescript"
    if (package / "package.json").exists():
        try:
            version = str(json.loads((package / "package.json").read_text("utf-8"))["version"])
        except (OSError, ValueError, KeyError, TypeError):
            return []
        major = version.split(".")[0]
        if not major.isdigit() or int(major) >= 7 or not (package / "lib/tsserver.js").is_file():
            return []
        requires = tuple(r for r in definition.requires if "/typescript/" not in r)
        definition = dataclasses.replace(definition, requires=requires)
    return [_server(root, definition)] if definition.missing() is None else []


def _server(root: Path, definition: ServerDefinition) -> dict[str, Any]:
    """The record of `definition`'s start at the root: what `Session._start` spawns."""
    own = definition.resolved_env()
    env = {name: value for name, value in process.server_env(own).items() if name in own}
    return {
        "command": definition.resolved_command(),
        "cwd": str(root),
        "env": env,
        "log_path": str(state_dir(root) / "logs" / f"{definition.name}.log"),
    }
