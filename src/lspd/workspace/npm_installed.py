"""Whether a nested npm package's dependencies are installed, so that its tsconfig can be
checked as its own `tsc` would check it.

A repository holds packages its own install does not cover: zustand's `examples/starter`
has a package.json of its own (`typescript ^5`, react 18), no workspace of the root names
it, and the root's `pnpm install` leaves it without node_modules. Its tsconfig read by the
root's TypeScript 6 stopped at "moduleResolution=node10 is deprecated" (TS5107), and read by
any TypeScript its files' every import is "Cannot find module": `lspd check` failed a
project whose gate (`tsc --noEmit` at the root) is clean. Such a package is left out of the
gate, and the answer says why and what to run. Only a package inside another is: where
no package.json is above it (web/ of a repository with none at its root) it is the
project's own, checked as before (a fresh clone's "Cannot find module" errors are its
checker's too). A package is installed where it has node_modules, declares no
dependencies, or is a member of an enclosing npm/yarn workspace (`workspaces`, lerna's:
their installs hoist it; pnpm-workspace.yaml's `packages` where pnpm hoists too: else
pnpm gives each member a node_modules of its own). A workspace with a pnpm-workspace.yaml
is pnpm's, which reads no `workspaces`, unless only npm's, yarn's or bun's lockfile is
beside it. Membership
is read widely (a glob's `*` crosses folders, a `!` pattern excludes nothing): a package
taken for a member is checked, as before; a member taken for none would be left out.
"""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path
from typing import Any

import yaml

from lspd.workspace.files import read_text

PACKAGE = "package.json"
PNPM = "pnpm-workspace.yaml"
LERNA = "lerna.json"
_PNPM_LOCK = "pnpm-lock.yaml"
_OTHER_LOCKS = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "bun.lock", "bun.lockb")
# what an installer leaves in the node_modules it made: pnpm's, and the others'
_PNPM_MADE = (".pnpm", ".modules.yaml")
_OTHERS_MADE = (".package-lock.json", ".yarn-integrity", ".yarn-state.yml")
_DECLARED = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def uninstalled(config: Path, root: Path, python: bool = False) -> Path | None:
    """The package folder holding the tsconfig `config` (below `root`) where its dependencies
    are not installed (above); None where they are, or no package holds it. A package no
    other encloses is the repository's own, checked as the root's is, unless the repository
    is a Python project (`python`): strawberry's e2e/, a bun project never installed, said
    "tsc stopped" (its `types` not found) with 0 errors."""
    package = package_of(config.parent, root)
    if package is None or package == root or (package / "node_modules").exists():
        return None
    manifest = json_object(package / PACKAGE)
    if not any(isinstance(manifest.get(key), dict) and manifest[key] for key in _DECLARED):
        return None  # nothing to install
    enclosed = False  # a package of another's repository, not the repository's own
    for above in package.parents:
        if (named := _member(package, above)) is not None:  # installed, unless pnpm's own
            return package if named == PNPM and not _hoisted(above) else None
        enclosed = enclosed or (above / PACKAGE).is_file()
        if above == root:
            break
    return package if enclosed or python else None


def deciding(config: Path, root: Path) -> list[Path]:
    """The paths whose change can change `uninstalled(config, root)`, installed or not: those
    of the package holding it inside another (`watched`); none for the root's own."""
    package = package_of(config.parent, root)
    return [] if package is None or package == root else watched(package, root)


def watched(package: Path, root: Path) -> list[Path]:
    """The paths whose change can install `package`, or leave it uninstalled: its
    node_modules, and each workspace file and lockfile from it up to `root` that could name
    it or say who installs it."""
    paths = [package / "node_modules"]
    for above in (package, *package.parents):
        paths += [above / PACKAGE, above / PNPM, above / LERNA, above / ".npmrc"]
        paths += [above / _PNPM_LOCK, *(above / name for name in _OTHER_LOCKS)]
        if (above / PNPM).is_file():  # who installed it, where no lockfile says (`_pnpm`)
            paths.append(above / "node_modules")
        if above == root:
            break
    return paths


def package_of(directory: Path, root: Path) -> Path | None:
    """The nearest folder from `directory` up to `root` holding a package.json, or None."""
    for folder in (directory, *directory.parents):
        if (folder / PACKAGE).is_file():
            return folder
        if folder == root or root not in folder.parents:
            return None
    return None


def member(package: Path, workspace: Path) -> bool:
    """Whether the package folder `package` is a member of the workspace at `workspace`."""
    return workspace in package.parents and _member(package, workspace) is not None


def _member(package: Path, workspace: Path) -> str | None:
    """The file of the workspace at `workspace` naming `package` among its members (its
    pnpm-workspace.yaml where pnpm installs it, else an npm/yarn `workspaces` or lerna's),
    or None."""
    relative = package.relative_to(workspace).as_posix()
    if _pnpm(workspace):
        sources = [(PNPM, _yaml(workspace / PNPM).get("packages"))]
    else:
        declared = json_object(workspace / PACKAGE).get("workspaces")
        if isinstance(declared, dict):  # yarn's {"packages": [...]}
            declared = declared.get("packages")
        sources = [(PACKAGE, declared), (LERNA, _yaml(workspace / LERNA).get("packages"))]
    for name, patterns in sources:
        listed = patterns if isinstance(patterns, list) else []
        if any(_names(p, relative) for p in listed if isinstance(p, str)):
            return name
    return None


def _pnpm(workspace: Path) -> bool:
    """Whether pnpm installs the workspace at `workspace`: it has a pnpm-workspace.yaml, and
    pnpm's lockfile or no other installer's beside it; where none is (not committed), the
    node_modules it installed says (npm's `.package-lock.json` beside a leftover
    pnpm-workspace.yaml: npm's), else pnpm's."""
    if not (workspace / PNPM).is_file():
        return False
    if (workspace / _PNPM_LOCK).is_file():
        return True
    if any((workspace / name).is_file() for name in _OTHER_LOCKS):
        return False
    installed = workspace / "node_modules"
    if any((installed / name).exists() for name in _PNPM_MADE):
        return True
    return not any((installed / name).exists() for name in _OTHERS_MADE)


def _hoisted(workspace: Path) -> bool:
    """Whether the pnpm workspace at `workspace` installs as npm does, into its root's
    node_modules (`node-linker=hoisted` in its .npmrc, `nodeLinker: hoisted` in its
    pnpm-workspace.yaml): else each member's dependencies are in its own node_modules, and
    a member without one is not installed (valtio's website, `typescript ^5`, of a root
    installed by npm: the root's TypeScript 6 failed its tsconfig)."""
    npmrc = read_text(workspace / ".npmrc") or ""
    if re.search(r"^\s*node-linker\s*=\s*hoisted\s*$", npmrc, re.M):
        return True
    return _yaml(workspace / PNPM).get("nodeLinker") == "hoisted"


def _yaml(path: Path) -> dict[str, Any]:
    """The table of the YAML (or JSON) file at `path`; empty where it is missing or none."""
    text = read_text(path)
    try:
        body = yaml.safe_load(text) if text is not None else None
    except (yaml.YAMLError, ValueError):  # ValueError: a date YAML cannot make
        return {}
    return body if isinstance(body, dict) else {}


def _names(pattern: str, relative: str) -> bool:
    """Whether a workspace's member `pattern` names the package at `relative` (below it).
    `.` is the workspace's own package alone (jotai's pnpm-workspace.yaml `packages: [.]`:
    its examples/* and website, never installed, were taken for members)."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.rstrip("/")
    if pattern in ("", ".") or pattern.startswith("!"):
        return False
    return fnmatch.fnmatch(relative, pattern)


def json_object(path: Path) -> dict[str, Any]:
    """The object of the JSON file at `path` (a package.json); empty where it is missing,
    unreadable or no object: read leniently, as npm's reading is no concern of lspd's."""
    text = read_text(path)
    try:
        body = json.loads(text) if text is not None else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


# The lockfile each package manager writes: the first found names the install to run.
_INSTALLERS = {_PNPM_LOCK: "pnpm", "yarn.lock": "yarn", "bun.lock": "bun", "bun.lockb": "bun"}


def installer(root: Path | None) -> str:
    """The package manager whose lockfile the project at `root` (or a folder above) holds:
    the install an answer tells to run (TanStack/store's pnpm was told `npm install`); npm
    without one."""
    for folder in (root, *root.parents) if root is not None else ():
        for lock, manager in _INSTALLERS.items():
            if (folder / lock).is_file():
                return manager
        if (folder / "package-lock.json").is_file():
            return "npm"
    return "npm"
