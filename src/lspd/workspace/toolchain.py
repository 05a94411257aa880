"""The project's own toolchain: the TypeScript and the Python a project's gate runs with.

An answer that disagrees with the project's own `tsc` or type checker is worse than none, so a
session runs what the project runs, as VS Code's "Use Workspace Version" does:

- TypeScript: the nearest `node_modules/typescript` from the project up to the workspace root
  (npm, yarn's node_modules and pnpm's symlinks; Yarn PnP is not supported), TypeScript 7's
  preview where the gate runs its `tsgo` (typescript_package.py), else lspd's own.
  Its major decides the server: up to 6, tsserver through typescript-language-server; from 7,
  the package's own native `tsc --lsp --stdio` (tsc_native.py), whichever was chosen. A
  TypeScript that cannot run (a platform package missing, a broken install) makes the
  session refuse to start, saying what to install: never another TypeScript in its place,
  whose errors would differ from the project's gate. lspd's own TypeScript 7 runs only where
  the project has none and lspd.toml chooses `typescript-native` (or `typescript = "lspd"`).
- Python: `python` in lspd.toml, else a virtual environment in the project or the workspace
  root, else `python3` on PATH; never lspd's own environment. A `python3` on PATH that is a
  shim (pyenv, asdf, mise: a script choosing an interpreter per directory) is asked once
  which interpreter it runs, while the server starts (`settle`; `lspd serve` asks it ahead:
  lsp/interpreter_ask.py): pyright asks the shim at each of its set-ups otherwise, 0.25-0.35 s
  each here.
- The checker: a language server the project installs itself (`basedpyright-langserver` in its
  environment, or `pyright-langserver` standing in for it: own_server.py;
  `typescript-language-server` in its node_modules) is run instead of lspd's; where it
  installs none and its gate runs pyright, lspd's pyright of its version (pyright_gate.py);
  where its gate runs ty alone, ty (ty_gate.py).
All of it came with the repository; restricted mode (`lspd serve --restricted`) turns it off.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import subprocess
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.lsp import interpreter_ask
from lspd.lsp.interpreter_ask import Ask, is_script, python_on_path
from lspd.servers.registry import ServerDefinition, definitions
from lspd.workspace import tsc_native
from lspd.workspace.mypy_installed import distribution_version
from lspd.workspace.own_server import Chosen, node_last, python_server
from lspd.workspace.typescript_package import find_typescript, package_version

log = logging.getLogger(__name__)

VENV_NAMES = (".venv", "venv", "env")
ASK_TIMEOUT_S = 10.0  # for a shim to say which interpreter it runs
SERVER = "typescript-language-server"  # TypeScript up to 6, through tsserver
NATIVE = "typescript-native"  # TypeScript 7 and later: `tsc --lsp --stdio`


@dataclass(frozen=True)
class Toolchain:
    """What a session runs of the project: its TypeScript or Python, and where it came from."""

    kind: str  # "typescript" or "python"
    path: Path  # the typescript package directory, or the interpreter
    version: str | None
    origin: str  # "project", "lspd", "lspd.toml" or "PATH"
    server: str | None = None  # the project's own copy of the language server, if it runs
    server_version: str | None = None  # its distribution and version: `basedpyright 1.40.2`
    problem: str | None = None  # why it cannot run here (the session then refuses to start)
    fix: str | None = None  # what to install or do about `problem`

    def label(self, by: str | None = None) -> str:
        """`typescript 5.4.5, project`, `python 3.11.7 .venv/bin/python, project` (`by`: the
        server running it, if not the one chosen); one that cannot run says why, what to do."""
        name = self.kind if self.version is None else f"{self.kind} {self.version}"
        if self.kind == "python":
            name += f" {self.path}"
        label = f"{name}, {self.origin}"
        if self.server_version:  # another version answers otherwise (`_own_server_version`)
            label += f", {self.server_version}"
        label += ", its own server" if self.server else ""
        label += f", by {by}" if by else ""
        if self.problem is not None:
            label += f", cannot run here: {self.problem}" + (f"; {self.fix}" if self.fix else "")
        return label


@dataclass(frozen=True)
class Choice:
    """The toolchain settings of lspd.toml: `typescript` and `python` (None = find it)."""

    typescript: str = "project"  # "project", "lspd" or a path to a typescript package
    python: Path | None = None  # an interpreter or an environment directory
    restricted: bool = False  # run lspd's own servers and settings only


def adapt(
    definition: ServerDefinition,
    project: Path,
    root: Path,
    choice: Choice,
    servers: Mapping[str, ServerDefinition] | None = None,
) -> tuple[ServerDefinition, Toolchain | None]:
    """`definition` set up to run the project's toolchain, and that toolchain. The server
    may be another of `servers` (default: as defined): the project's TypeScript 7 runs its
    own `tsc --lsp` whichever TypeScript server was chosen."""
    if definition.toolchain == "typescript":
        return _typescript(definition, project, root, choice, servers or definitions())
    if definition.toolchain == "python":
        return _python(definition, project, root, choice, servers or definitions())
    return definition, None


# -- TypeScript ----------------------------------------------------------------------------


def _typescript(
    definition: ServerDefinition,
    project: Path,
    root: Path,
    choice: Choice,
    servers: Mapping[str, ServerDefinition],
) -> tuple[ServerDefinition, Toolchain | None]:
    if choice.restricted or choice.typescript == "lspd":
        return definition, _lspd_typescript(definition)
    if choice.typescript != "project":
        package: Path | None = (root / choice.typescript).resolve()
        origin = "lspd.toml"
    else:
        package, origin = find_typescript(project, root), "project"
    if package is None:  # lspd's own: TypeScript 7 only where lspd.toml chooses its server
        return definition, _lspd_typescript(definition)
    version = package_version(package)
    if version is None:  # never a silent switch to another TypeScript
        problem = f"{package}/package.json is missing or has no version: a broken install"
        return _unavailable(definition, Toolchain("typescript", package, None, origin), problem)
    major = version.split(".")[0]
    if major.isdigit() and int(major) >= 7:
        return _native(servers.get(NATIVE, definition), package, version, origin)
    if definition.name == NATIVE:  # the project's TypeScript 5 runs as its gate runs it
        definition = servers.get(SERVER, definition)
    if not (package / "lib" / "tsserver.js").is_file():
        toolchain = Toolchain("typescript", package, version, origin)
        return _unavailable(definition, toolchain, f"{package} has no lib/tsserver.js")
    options = dict(definition.initialization_options)
    options["tsserver"] = {**options.get("tsserver", {}), "path": str(package / "lib/tsserver.js")}
    requires = tuple(r for r in definition.requires if "/typescript/" not in r)
    adapted = dataclasses.replace(definition, initialization_options=options, requires=requires)
    own_server = _own_typescript_server(project, root)
    if own_server is not None:
        adapted = dataclasses.replace(
            adapted, command=(adapted.command[0], str(own_server), *adapted.command[2:])
        )
    return adapted, Toolchain(
        "typescript", package, version, origin, str(own_server) if own_server else None
    )


def _native(
    definition: ServerDefinition, package: Path, version: str, origin: str
) -> tuple[ServerDefinition, Toolchain]:
    """TypeScript 7 or later: its own native compiler serves LSP (`tsc --lsp --stdio`);
    typescript-language-server needs tsserver.js, which 7 no longer has."""
    found = tsc_native.locate(package, version)
    if found.executable is None:
        toolchain = Toolchain("typescript", package, version, origin)
        return _unavailable(definition, toolchain, found.problem, found.fix)
    command = (str(found.executable), *definition.command[2:])
    adapted = dataclasses.replace(definition, command=command, requires=(), install={})
    return adapted, Toolchain("typescript", package, version, origin)


def _unavailable(
    definition: ServerDefinition,
    toolchain: Toolchain,
    problem: str,
    fix: str = "reinstall the project's dependencies (npm install)",
) -> tuple[ServerDefinition, Toolchain]:
    """`definition` refusing to start with `problem` (ServerDefinition.unavailable), never
    replaced by another TypeScript whose errors would differ from the project's gate."""
    broken = dataclasses.replace(toolchain, problem=problem, fix=fix)
    which = f"{toolchain.kind} {toolchain.version or ''}".strip()
    why = f"the {toolchain.origin}'s {which} ({toolchain.path}) cannot run here: {problem}"
    refusing = dataclasses.replace(definition, unavailable=why, install={"manual": fix})
    return refusing, broken


def _own_typescript_server(project: Path, root: Path) -> Path | None:
    for directory in (project, *project.parents):
        cli = directory / "node_modules" / "typescript-language-server" / "lib" / "cli.mjs"
        if cli.is_file():
            return cli.resolve()
        if directory == root or root not in directory.parents:
            break
    return None


def _lspd_typescript(definition: ServerDefinition) -> Toolchain:
    package = definition.npm_root() / "typescript"
    return Toolchain("typescript", package, package_version(package), "lspd")


# -- Python --------------------------------------------------------------------------------


def find_python(project: Path, root: Path, configured: Path | None) -> tuple[Path, str] | None:
    """The interpreter for `project` and where it came from, or None when there is none."""
    if configured is not None:
        interpreter = interpreter_of(configured)
        return (interpreter, "lspd.toml") if interpreter is not None else None
    for directory in dict.fromkeys((project, root)):
        for env in _environments(directory):
            interpreter = interpreter_of(env)
            if interpreter is not None:
                return interpreter, "project"
    on_path = python_on_path()
    return (on_path, "PATH") if on_path is not None else None


def _environments(directory: Path) -> list[Path]:
    """Virtual environments directly in `directory`: the usual names first, then any other."""
    named = [directory / name for name in VENV_NAMES if (directory / name / "pyvenv.cfg").is_file()]
    try:
        others = sorted(
            child
            for child in directory.iterdir()
            if child.name not in VENV_NAMES and (child / "pyvenv.cfg").is_file()
        )
    except OSError:
        others = []
    return named + others


def interpreter_of(path: Path) -> Path | None:
    """The interpreter at `path`, or in the environment directory `path`."""
    if path.is_dir():
        for name in ("bin/python", "bin/python3", "Scripts/python.exe"):
            if os.access(path / name, os.X_OK):
                return path / name
        return None
    return path if os.access(path, os.X_OK) else None


def environment_of(interpreter: Path) -> Path | None:
    """The virtual environment holding `interpreter` (its `pyvenv.cfg`), if any."""
    env = interpreter.parent.parent
    return env if (env / "pyvenv.cfg").is_file() else None


def python_version(interpreter: Path) -> str | None:
    """The version from `pyvenv.cfg` (cheap: no process), else None."""
    env = environment_of(interpreter)
    if env is None:
        return None
    try:
        for line in (env / "pyvenv.cfg").read_text("utf-8").splitlines():
            key, _, value = line.partition("=")
            if key.strip() in ("version", "version_info"):
                return value.strip()
    except OSError:
        pass
    return None


def _python(
    definition: ServerDefinition,
    project: Path,
    root: Path,
    choice: Choice,
    servers: Mapping[str, ServerDefinition],
) -> tuple[ServerDefinition, Toolchain | None]:
    # Restricted: never an interpreter of the repository (pyright runs it to learn its paths).
    if choice.restricted:
        on_path = python_on_path()
        found = (on_path, "PATH") if on_path is not None else None
    else:
        found = find_python(project, root, choice.python)
    if found is None:
        return definition, None
    interpreter, origin = found
    bin_dir = interpreter.parent
    own = origin != "PATH" and os.sep not in definition.command[0]
    # the project's server, else the gate's (`own_server.python_server`); not in restricted mode
    chosen = Chosen(definition)
    if not choice.restricted and os.sep not in definition.command[0]:
        chosen = python_server(definition, project, bin_dir, servers, own)
    definition = chosen.definition
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**definition.env, "PATH": node_last(definition, path) if own else path}
    if (venv := environment_of(interpreter)) is not None:
        env["VIRTUAL_ENV"] = str(venv)
    # pyright and basedpyright read `python.pythonPath`; ty and pyrefly take VIRTUAL_ENV.
    adapted = _python_path(dataclasses.replace(definition, env=env), str(interpreter))
    server = server_version = None
    if (own_server := chosen.own) is not None:
        adapted = dataclasses.replace(adapted, command=(str(own_server), *definition.command[1:]))
        server, server_version = str(own_server), _own_server_version(interpreter, own_server)
    python, label = python_version(interpreter), chosen.label or server_version
    return adapted, Toolchain("python", interpreter, python, origin, server, label)


def _own_server_version(interpreter: Path, server: Path) -> str | None:
    """`basedpyright 1.40.2`: the distribution of the environment's own server and its
    version, from its `.dist-info` (one small read, no process). Without it, the label
    and the kept result's key were the same after `pip install basedpyright==<other>` in
    the project's .venv: HEAD's result made by the old version was read back and compared
    with the new version's answers."""
    name = server.name.removesuffix("-langserver")
    version = distribution_version(interpreter, name)
    return None if version is None else f"{name} {version}"


def _python_path(definition: ServerDefinition, interpreter: str) -> ServerDefinition:
    """`definition` with `interpreter` as its `python.pythonPath` setting."""
    python = {**definition.settings.get("python", {}), "pythonPath": interpreter}
    return dataclasses.replace(definition, settings={**definition.settings, "python": python})


# -- a shim on PATH ----------------------------------------------------------------------------


Settle = Callable[[], Awaitable[tuple[ServerDefinition, str]]]


def settler(
    definition: ServerDefinition, toolchain: Toolchain | None, project: Path
) -> Settle | None:
    """What a session of `definition` runs at each start of its server, to settle `toolchain`
    in `project` (see `settle`): the server as it runs then, and the toolchain's label. None
    when nothing may change. The question is noted now (`interpreter_ask.ASKED`: the daemon
    remembers prewarm's, to ask it ahead next time)."""
    if toolchain is None or toolchain.kind != "python" or toolchain.origin != "PATH":
        return None
    shim = toolchain
    if (first := _ask(definition, shim, project)) is not None:
        interpreter_ask.ASKED.append(first)

    async def run() -> tuple[ServerDefinition, str]:
        try:
            ask = _ask(definition, shim, project)
            if ask is None:
                return definition, shim.label()
            # Taken at once, not in the thread: the daemon kills the questions asked ahead
            # and not taken once prewarm's servers run (daemon/head_start.settle).
            asking = interpreter_ask.take(ask)
            executable, version = await asyncio.to_thread(
                interpreter_ask.read, asking, ask, ASK_TIMEOUT_S
            )
        except Exception:  # the server then asks the shim itself, as it would without lspd
            log.exception("asking %s which interpreter it runs failed", shim.path)
            return definition, shim.label()
        settled, runs = _settled(definition, shim, executable, version)
        return settled, runs.label()

    return run


def settle(
    definition: ServerDefinition, toolchain: Toolchain, project: Path
) -> tuple[ServerDefinition, Toolchain]:
    """The interpreter behind a `python3` shim on PATH, as the server would find it there
    (same directory, same environment), set as its `pythonPath`; unchanged otherwise or when
    the shim cannot say (the server then asks it, as before). Blocks: run it in a thread."""
    ask = _ask(definition, toolchain, project)
    if ask is None:
        return definition, toolchain
    try:
        return _settled(definition, toolchain, *interpreter_ask.answer(ask, ASK_TIMEOUT_S))
    except (OSError, ValueError, subprocess.SubprocessError):
        return definition, toolchain


def _ask(definition: ServerDefinition, toolchain: Toolchain, project: Path) -> Ask | None:
    """The question to the shim, run as the server would run it; None when `toolchain`'s
    interpreter is no script (it is the interpreter)."""
    if not is_script(toolchain.path):
        return None
    return interpreter_ask.asked(toolchain.path, project, {**os.environ, **definition.env})


def _settled(
    definition: ServerDefinition, toolchain: Toolchain, executable: str, version: str
) -> tuple[ServerDefinition, Toolchain]:
    settled = _python_path(definition, executable)
    return settled, dataclasses.replace(toolchain, path=Path(executable), version=version)
