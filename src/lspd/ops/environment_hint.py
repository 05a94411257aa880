"""What an answer says once when imports did not resolve: which toolchain answered, and what
would make them resolve, where something would (an install, a `moduleResolution`, a
dependency to declare)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.ops.models import Diagnostic
from lspd.workspace.npm_installed import PACKAGE, installer, json_object

# Codes of an import that did not resolve, by server (pyright family, ty, pyrefly).
_UNRESOLVED_IMPORT = {"reportMissingImports", "reportMissingModuleSource", "unresolved-import"}
# TypeScript's "did you mean to set the 'moduleResolution' option": classic resolution
# (hotscript's `module: ESNext`) looks in no node_modules; an install resolves nothing
_CLASSIC = "2792"
# A relative specifier that did not resolve names a file not there: no install brings it.
_RELATIVE = re.compile(r"Cannot find module ['`\"]\.{0,2}/")
# The package a bare specifier TypeScript did not find names (`printj`, `@scope/pkg/sub`)
_PACKAGE = re.compile(r"Cannot find module ['`\"]((?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*)[/'`\"]")
_DEPENDENCIES = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
# Node's own modules: their types come with @types/node, a dependency of another name
_NODE = {"assert", "buffer", "child_process", "crypto", "events", "fs", "http", "https", "net"}
_NODE |= {"os", "path", "process", "stream", "url", "util", "zlib", "worker_threads", "vm"}
_NODE |= {"readline", "tty", "dns", "module", "timers", "perf_hooks", "querystring", "v8"}


def environment_hint(
    toolchain: str | None,
    items: list[Diagnostic],
    restricted: bool = False,
    root: Path | None = None,
    path: Path | None = None,
) -> str | None:
    """Said once when imports did not resolve: which interpreter answered, how to change it
    (restricted mode ignores lspd.toml's `python`: it is not the way there). For TypeScript,
    a package no package.json from the file's folder (`path`) up to `root` declares is
    said so: installing brings it no more than it did (consola's `printj`)."""
    unresolved = any(
        d.code in _UNRESOLVED_IMPORT
        or d.code == "missing-import"
        or ("Cannot find module" in d.message and not _RELATIVE.search(d.message))
        for d in items
    )
    if not unresolved:
        return None
    used = toolchain or "the server's default"
    if used.startswith("typescript") and all(
        d.code == _CLASSIC for d in items if "Cannot find module" in d.message
    ):
        return (
            f"imports did not resolve with {used} under the configuration's module resolution "
            "(TS2792: `classic`, what `module` ES2015 or later without `moduleResolution` "
            "means, finds no package in node_modules); tsc says the same: installing changes "
            "nothing, a `moduleResolution` (`bundler`, `node16`) does"
        )
    if used.startswith("typescript") and (names := _undeclared(items, path, root)):
        return (
            f"imports did not resolve with {used}: no package.json from the file's folder up "
            f"declares {', '.join(f'`{n}`' for n in names)}, so installing brings nothing; "
            "add it to the dependencies (or mend the import)"
        )
    if used.startswith("typescript"):
        return (
            f"imports did not resolve with {used}; run `{installer(root)} install` in the "
            "project (a package of its workspace resolves once built, where its package.json "
            "points into a folder not built yet)"
        )
    if restricted:
        return (
            f"imports did not resolve with {used}: restricted mode runs lspd's own toolchain "
            "and ignores the project's environment and lspd.toml; install the dependencies "
            "there, or serve without --restricted if you trust this repository"
        )
    return (
        f"imports did not resolve with {used}; install the project's dependencies there, "
        'create the project\'s .venv (lspd picks it up), or set `python = "path/to/venv"` '
        "in lspd.toml"
    )


def _undeclared(items: list[Diagnostic], path: Path | None, root: Path | None) -> list[str]:
    """The packages of the imports TypeScript did not find, where each is a package's name
    no package.json from `path`'s folder up to `root` declares (nor is named: a package
    importing itself), and none is Node's own; else none (an install may bring them)."""
    if path is None or root is None:
        return []
    unfound = [d.message for d in items if "Cannot find module" in d.message]
    found = [_PACKAGE.search(m) for m in unfound if not _RELATIVE.search(m)]
    wanted = [m[1] for m in found if m is not None]
    if not wanted or len(wanted) < len(found) or not _NODE.isdisjoint(wanted):
        return []  # (`node:fs`, `@/alias`: no package's name)
    declared: set[str] = set()
    for folder in (path.parent, *path.parent.parents):
        body = json_object(folder / PACKAGE)
        declared |= {body["name"]} if isinstance(body.get("name"), str) else set()
        declared |= {n for key in _DEPENDENCIES if isinstance(d := body.get(key), dict) for n in d}
        if folder == root or root not in folder.parents:
            break
    return [] if declared.intersection(wanted) else sorted(set(wanted))
