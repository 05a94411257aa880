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
dependencies, or is a member of an enclosing npm/yarn/pnpm workspace (`workspaces`,
pnpm-workspace.yaml's `packages`, lerna's: their installs link or hoist it). Membership
is read widely (a glob's `*` crosses folders, a `!` pattern excludes nothing): a package
taken for a member is checked, as before; a member taken for none would be left out.
"""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path
from typing import Any

import yaml

from lspd.workspace.files import read_text

PACKAGE = "package.json"
_DECLARED = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def uninstalled(config: Path, root: Path) -> Path | None:
    """The package folder holding the tsconfig `config` (below `root`) where its dependencies
    are not installed (above); None where they are, or no package holds it."""
    package = package_of(config.parent, root)
    if package is None or package == root or (package / "node_modules").exists():
        return None
    manifest = json_object(package / PACKAGE)
    if not any(isinstance(manifest.get(key), dict) and manifest[key] for key in _DECLARED):
        return None  # nothing to install
    enclosed = False  # a package of another's repository, not the repository's own
    for above in package.parents:
        if _member(package, above):
            return None
        enclosed = enclosed or (above / PACKAGE).is_file()
        if above == root:
            break
    return package if enclosed else None


def watched(package: Path, root: Path) -> list[Path]:
    """The paths whose change can install `package` (an uninstalled one): its node_modules,
    and each workspace file from it up to `root` that could name it."""
    paths = [package / "node_modules"]
    for above in (package, *package.parents):
        paths += [above / PACKAGE, above / "pnpm-workspace.yaml", above / "lerna.json"]
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


def _member(package: Path, workspace: Path) -> bool:
    """Whether the workspace at `workspace` names `package` among its members."""
    patterns: list[str] = []
    declared = json_object(workspace / PACKAGE).get("workspaces")
    if isinstance(declared, dict):  # yarn's {"packages": [...]}
        declared = declared.get("packages")
    patterns += declared if isinstance(declared, list) else []
    for name, key in (("pnpm-workspace.yaml", "packages"), ("lerna.json", "packages")):
        text = read_text(workspace / name)
        if text is None:
            continue
        try:
            body = yaml.safe_load(text)  # JSON is YAML too
        except yaml.YAMLError:
            continue
        found = body.get(key) if isinstance(body, dict) else None
        patterns += found if isinstance(found, list) else []
    relative = package.relative_to(workspace).as_posix()
    return any(_names(p, relative) for p in patterns if isinstance(p, str))


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
