"""The workspace's own packages as their importers name them: a bare specifier
(`'@demo/utils'`) that node_modules resolves, through the symlink a workspaces install makes
(npm, yarn, pnpm: node_modules/@demo/utils -> ../../packages/utils), to a folder under the
root is an import of that package's files, the entry its package.json names (`exports`,
`types`, `typings`, `main`, `module`; index without them), a subpath export too
(`@demo/utils/lib`); and a package's own files import it by its own `name` where its
package.json has `exports` (a self-reference, no link: `"fmtkit/esm"` in fmtkit's files;
`own_packages`). `engine/native_reach.import_aliases` follows these as it follows tsconfig
`paths`: by the entry file's name (`./dist/index.d.ts`, tsc's output of `src/index.ts`, is
`index`), never by module resolution (an edit in one package reached the files of another only
where they named a changed declaration: tsc -b's errors in them missed, issue 40).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from lspd.engine.ts_ranges import Sevens, sevens

# package.json fields naming a package's entry when it has no `exports` (or beside them)
_ENTRIES = ("types", "typings", "main", "module")


def workspace_packages(root: Path, places: Iterable[Path]) -> dict[Path, str]:
    """The folders under `root` (outside any node_modules) that a node_modules of `places`, or
    of such a folder (pnpm links a package's dependencies in its own), links to as a package:
    each one's name as imported (`@demo/utils`)."""
    found: dict[Path, str] = {}
    queue, scanned = [p / "node_modules" for p in places], set()
    while queue:
        modules = queue.pop()
        if modules in scanned:
            continue
        scanned.add(modules)
        for name, target in _links(modules):
            inside = _under(root, target)
            if inside is not None and "node_modules" not in inside and target not in found:
                found[target] = name
                queue.append(target / "node_modules")
    return found


def own_packages(places: Iterable[Path]) -> dict[Path, str]:
    """The folders of `places` whose package.json lets the package's own files import it by
    its `name`: one with `exports` (TypeScript resolves such a self-reference under node16,
    nodenext and bundler, the only moduleResolution TypeScript 7 has: node10 and classic are
    gone, TS5108)."""
    found: dict[Path, str] = {}
    for place in places:
        try:
            text = (place / "package.json").read_text("utf-8", errors="replace")
            manifest = json.loads(text)
        except (OSError, ValueError):
            continue
        if isinstance(manifest, dict) and _exporting(manifest.get("exports")):
            name = manifest.get("name")
            if isinstance(name, str) and name:
                found[place] = name
    return found


def _links(modules: Path) -> Iterable[tuple[str, Path]]:
    """The packages of one node_modules folder that are symlinks, with their real folders."""
    for entry in _entries(modules):
        if entry.name.startswith("@") and not entry.is_symlink() and entry.is_dir():
            for inner in _entries(Path(entry.path)):
                if inner.is_symlink():
                    yield f"{entry.name}/{inner.name}", Path(os.path.realpath(inner.path))
        elif entry.is_symlink() and not entry.name.startswith("."):
            yield entry.name, Path(os.path.realpath(entry.path))


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []


def _under(root: Path, path: Path) -> tuple[str, ...] | None:
    """`path`'s parts below `root`; None outside it."""
    try:
        return path.relative_to(root).parts
    except ValueError:
        return None


def package_entries(name: str, folder: Path) -> list[tuple[str, list[str]]] | None:
    """The specifiers importers use for the package `name` at `folder`, each with the files
    (targets, conditions' and fallbacks' alike) they can resolve to; None where they cannot
    be followed by name (`typesVersions` remaps every specifier where there is no `exports`).
    Beside `exports`, TypeScript reads `typesVersions` only where exports are not
    (`resolvePackageJsonExports: false`): its maps are followed too, as aliases of the
    package's name and subpaths (`"sub": ["./src/other.ts"]`: `other` by `sub`, the name)."""
    try:
        manifest = json.loads((folder / "package.json").read_text("utf-8", errors="replace"))
    except (OSError, ValueError):
        return [(name, ["index"])]
    if not isinstance(manifest, dict):
        return [(name, ["index"])]
    exports = manifest.get("exports")
    versions = manifest.get("typesVersions")
    if versions and not _exporting(exports):
        return None
    mapped = [(name, list(strings(manifest[f]))) for f in _ENTRIES if f in manifest]
    mapped += _versions_read(name, versions)
    if isinstance(exports, dict) and any(str(key).startswith(".") for key in exports):
        for key, target in exports.items():
            subpath = str(key)[1:] if str(key).startswith(".") else ""
            mapped.append((name + subpath, list(strings(target))))
    elif exports is not None:
        mapped.append((name, list(strings(exports))))
    return mapped if mapped else [(name, ["index"])]


def _versions_read(name: str, versions: object) -> list[tuple[str, list[str]]]:
    """`typesVersions`' maps as specifiers and their targets: a subpath's target by the
    subpath and by the package's name (`"index.d.ts"` remaps the root). TypeScript takes the
    first range its version matches: the ranges up to the first every TypeScript 7 matches
    (`*`, `>=4.8`), none after it (jotai's `"*"` range for TypeScript before 3.8 maps every
    subpath to one file: not followed by name, every file was asked after any edit), and
    none that no TypeScript 7 matches (kysely's `"<5.4"`, the same: `ts_ranges`)."""
    mapped: list[tuple[str, list[str]]] = []
    for version, paths in versions.items() if isinstance(versions, dict) else ():
        matched = sevens(str(version))
        if matched is Sevens.NONE:
            continue
        for key, targets in paths.items() if isinstance(paths, dict) else ():
            found = list(strings(targets))
            mapped.append((f"{name}/{key}", found))
            if "*" not in str(key):
                mapped.append((name, found))
        if matched is Sevens.EVERY:
            break
    return mapped


def _exporting(exports: object) -> bool:
    """Whether a package.json's `exports` is one TypeScript follows (as JavaScript tests it:
    `{}` counts, null or "" not)."""
    return exports is not None and exports is not False and exports != "" and exports != 0


def strings(value: object) -> Iterable[str]:
    """Every string in a package.json `exports` or `imports` target (conditions,
    fallbacks)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
