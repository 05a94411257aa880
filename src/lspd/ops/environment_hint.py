"""What an answer says once when imports did not resolve: which toolchain answered, and what
would make them resolve, where something would (an install, a `moduleResolution`, a
dependency to declare)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.ops.models import Diagnostic
from lspd.workspace.mypy_hook_env import hook_installs, hook_pin
from lspd.workspace.npm_installed import PACKAGE, installer, json_object

# Codes of an import that did not resolve, by checker (pyright family, ty, pyrefly, mypy).
_UNRESOLVED_IMPORT = {"reportMissingImports", "reportMissingModuleSource", "unresolved-import"}
_MYPY_UNFOUND = "import-not-found"
_UNRESOLVED_IMPORT |= {"missing-import", _MYPY_UNFOUND}
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
        or ("Cannot find module" in d.message and not _RELATIVE.search(d.message))
        for d in items
    )
    if not unresolved:
        return None
    used = toolchain or "the server's default"
    if used.startswith("typescript"):
        return _typescript_hint(used, items, root, path)
    mypy_unfound = any(d.code == _MYPY_UNFOUND and d.source == "mypy" for d in items)
    if mypy_unfound and path is not None and (installs := hook_installs(path.parent)):
        return (
            f"imports did not resolve with {used}: the pre-commit mypy hook installs "
            f"{', '.join(f'`{n}`' for n in installs)} beside mypy (`additional_dependencies`), "
            "and lspd runs mypy in the project's environment; install them there"
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


def _typescript_hint(
    used: str, items: list[Diagnostic], root: Path | None, path: Path | None
) -> str:
    """TypeScript's: a classic module resolution, a package no package.json declares, a
    library's optional peers, else an install."""
    if all(d.code == _CLASSIC for d in items if "Cannot find module" in d.message):
        return (
            f"imports did not resolve with {used} under the configuration's module resolution "
            "(TS2792: `classic`, what `module` ES2015 or later without `moduleResolution` "
            "means, finds no package in node_modules); tsc says the same: installing changes "
            "nothing, a `moduleResolution` (`bundler`, `node16`) does"
        )
    if names := _undeclared(items, path, root):
        return (
            f"imports did not resolve with {used}: no package.json from the file's folder up "
            f"declares {', '.join(f'`{n}`' for n in names)}, so installing brings nothing; "
            "add it to the dependencies (or mend the import)"
        )
    if peers := _optional_peers(items, path):
        library, names = peers
        return (
            f"imports did not resolve with {used} in {library}'s own declarations: "
            f"{', '.join(f'`{n}`' for n in names)}, its optional peer dependencies, which no "
            "install brings with it; tsc says the same (add them to the project's "
            "devDependencies, or set `skipLibCheck`)"
        )
    return (
        f"imports did not resolve with {used}; run `{installer(root)} install` in the "
        "project (a package of its workspace resolves once built, where its package.json "
        "points into a folder not built yet)"
    )


def _optional_peers(items: list[Diagnostic], path: Path | None) -> tuple[str, list[str]] | None:
    """Where `path` is a library's file (in node_modules) and each package TypeScript did
    not find there is an optional peer dependency its package.json declares (magicast's
    tsdown declarations import such peers): the library's name and those packages."""
    if path is None or "node_modules" not in path.parts:
        return None
    wanted = _wanted(items)
    for folder in path.parents:
        body = json_object(folder / PACKAGE)
        if not body:
            continue
        meta = body.get("peerDependenciesMeta")
        optional = {
            n
            for n, m in (meta.items() if isinstance(meta, dict) else ())
            if isinstance(m, dict) and m.get("optional") is True
        }
        if wanted and optional.issuperset(wanted):
            return str(body.get("name") or folder.name), sorted(set(wanted))
        return None
    return None


def _wanted(items: list[Diagnostic]) -> list[str]:
    """The package each import TypeScript did not find names; none where one names none
    (a relative path, `@/alias`)."""
    unfound = [d.message for d in items if "Cannot find module" in d.message]
    found = [_PACKAGE.search(m) for m in unfound if not _RELATIVE.search(m)]
    wanted = [m[1] for m in found if m is not None]
    return [] if len(wanted) < len(found) else wanted


def _undeclared(items: list[Diagnostic], path: Path | None, root: Path | None) -> list[str]:
    """The packages of the imports TypeScript did not find, where each is a package's name
    no package.json from `path`'s folder up to `root` declares (nor is named: a package
    importing itself), and none is Node's own; else none (an install may bring them)."""
    if path is None or root is None:
        return []
    wanted = _wanted(items)
    if not wanted or not _NODE.isdisjoint(wanted):
        return []  # (`node:fs`, `@/alias`: no package's name)
    declared: set[str] = set()
    for folder in (path.parent, *path.parent.parents):
        body = json_object(folder / PACKAGE)
        declared |= {body["name"]} if isinstance(body.get("name"), str) else set()
        declared |= {n for key in _DEPENDENCIES if isinstance(d := body.get(key), dict) for n in d}
        if folder == root or root not in folder.parents:
            break
    return [] if declared.intersection(wanted) else sorted(set(wanted))


def pinned_hint(toolchain: str, path: Path) -> str | None:
    """Where the pre-commit mypy hook over `path` pins another mypy than the one that
    answered (`toolchain`: `mypy 2.4.1 (.venv/bin/python)`), said so: their errors may
    differ (marshmallow's v1.11.2 accepts a `# type:` comment 2.4.1 rejects)."""
    pinned = hook_pin(path.parent)
    ran = toolchain.split(" ")[1] if toolchain.startswith("mypy ") else "?"
    if pinned is None or not ran[0].isdigit() or ran == pinned:  # (`?`: its version unread)
        return None
    return (
        f"{toolchain} answered, and the pre-commit mypy hook pins mypy {pinned} (its `rev`), "
        f"whose errors may differ: install mypy=={pinned} in the project's environment to "
        "check as the hook does"
    )
