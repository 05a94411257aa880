"""The TypeScript configurations whose errors the whole check asks their project's own tsc
for (`ops/tsconfig.config_results`), and with which tsc: TypeScript 7's sessions' folders'
(the command before `--lsp`), then each tsconfig.json / jsconfig.json of the gate's
TypeScript 5 projects (node_modules/typescript's tsc). A solution's referenced programs
named otherwise (Vite's tsconfig.node.json) are `engine/solution_check`'s, which leaves
these to it: one listing each, and each error said once."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from lspd.workspace.scope import last_scope
from lspd.workspace.toolchain import NATIVE, SERVER
from lspd.workspace.tsc_native import tsc_script
from lspd.workspace.typescript_package import find_typescript, package_version

CONFIGS = ("tsconfig.json", "jsconfig.json")

# (the configuration, its project's own tsc's argv, the server named, its toolchain)
Asked = tuple[Path, list[str], str, str | None]
Found = tuple[Path, str | None]  # a project's node_modules/typescript and its version


def asked(ws: Workspace) -> list[Asked]:
    """Each configuration `config_results` asks, with its tsc, server and toolchain."""
    found: dict[Path, Asked] = {}
    # the scope the check began with (none made: a check of paths or of every file); an
    # editor's configuration: tsc's errors of it no gate says (preact-signals'
    # docs/tsconfig.json's TS5089, its `jsx` against the root's jsxFactory; vue-router's
    # e2e/tsconfig.json's TS5108, a TypeScript 7 session's folder)
    projects = scope.projects if (scope := last_scope(ws)) is not None else ()
    editors = {p.project / Path(p.config or "").name for p in projects if not p.gated}
    for session in list(ws.sessions.values()):
        command = session.definition.resolved_command()
        if session.name != NATIVE or session.definition.unavailable or "--lsp" not in command:
            continue
        for folder in session.folders:
            config = next((folder / n for n in CONFIGS if (folder / n).is_file()), None)
            if config is not None and config not in editors:
                tsc = command[: command.index("--lsp")]
                found.setdefault(config, (config, tsc, session.name, session.toolchain))
    typescript = _typescripts(ws.root)
    for project in projects:
        # labelled as shown (packages/p1/tsconfig.json): a root's alone was asked before
        config = project.project / Path(project.config or "").name
        if project.language != "typescript" or config.name not in CONFIGS or config in found:
            continue
        if not project.gated:
            continue
        if project.config != ws.display(config):
            continue
        package, version = typescript(project.project) or (None, None)
        if package is None or version is None or int(version.split(".")[0]) >= 7:
            continue  # lspd's own TypeScript (none of the project's), or a native one
        tsc = [node_executable(), str(tsc_script(package))]
        found[config] = (config, tsc, SERVER, version)
    return list(found.values())


def _typescripts(root: Path) -> Callable[[Path], Found | None]:
    """`find_typescript` and `package_version` for one check, each folder's
    node_modules/typescript looked at once and each package's version read once (37
    tsconfigs of vscode-languageserver-node under one root's TypeScript 5: 37 walks up and
    37 package.json read each check). Nothing is kept past the check: another
    node_modules/typescript (npm install, a link moved) is the next check's."""
    version = functools.cache(package_version)

    @functools.cache
    def package(directory: Path) -> Path | None:
        return find_typescript(directory, directory)  # that folder's own alone

    def found(project: Path) -> Found | None:
        for directory in (project, *project.parents):
            if (typescript := package(directory)) is not None:
                return typescript, version(typescript)
            if directory == root or root not in directory.parents:
                break
        return None

    return found
