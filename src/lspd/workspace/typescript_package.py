"""The TypeScript package a project runs: its nearest `node_modules/typescript`, or, where
its gate runs `tsgo`, TypeScript 7's preview (`@typescript/native-preview`).

rolldown-plugin-dts checks itself with `"typecheck": "tsgo --noEmit"` and keeps
`typescript@6` beside it for its build's declarations; lspd checked it with TypeScript 6,
whose errors differ (TS5107 "deprecated" where tsgo says TS5108 "removed", a `baseUrl` TS6
lets `ignoreDeprecations` pass and tsgo rejects). Where a script of the project's
package.json (or one above it, up to the root) runs `tsgo` and none runs `tsc`, and the
preview is installed, the preview is the project's TypeScript: its native `tsgo --lsp`
answers (`tsc_native.locate`), as TypeScript 7's `tsc` does.
"""

from __future__ import annotations

import json
from pathlib import Path

from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.npm_installed import json_object
from lspd.workspace.tsc_native import PREVIEW
from lspd.workspace.tsc_scripts import package_commands, tool_at

_MANIFEST = "package.json"
_DEPENDENCIES = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def preview_gate(project: Path, root: Path) -> Path | None:
    """The installed `@typescript/native-preview` (symlinks resolved) of a project whose
    gate runs `tsgo` and not `tsc`; None otherwise."""
    folders = _up_to(project, root)
    package = next(
        (p for d in folders if ((p := d / "node_modules" / PREVIEW) / _MANIFEST).is_file()), None
    )
    if package is None:
        return None  # most projects: a stat per folder, no script read
    tools = {
        words[at].rsplit("/", 1)[-1]
        for folder in folders
        for words in package_commands(folder / _MANIFEST)
        if (at := tool_at(words)) is not None
    }
    return package.resolve() if tools == {"tsgo"} else None


def find_typescript(project: Path, root: Path) -> Path | None:
    """The nearest `node_modules/typescript` from `project` up to `root` (symlinks resolved);
    TypeScript 7's preview where the gate runs its `tsgo` (`preview_gate`)."""
    if (preview := preview_gate(project, root)) is not None:
        return preview
    for directory in _up_to(project, root):
        package = directory / "node_modules" / "typescript"
        if (package / _MANIFEST).is_file():
            return package.resolve()
    return None


def names_typescript(directory: Path, root: Path) -> bool:
    """Whether a package.json from `directory` up to `root` names TypeScript: depends on it
    (or TypeScript 7's preview) or has a script running `tsc`/`tsgo`. jsonschema vendors a
    test suite whose package.json names none, beside a Deno script: no gate checks it."""
    return any(_names(folder / _MANIFEST) for folder in _up_to(directory, root))


def _names(manifest: Path) -> bool:
    """Whether the package.json at `manifest` names TypeScript; read again only when it
    changed (a Python project's loose files ask of their folders' one by one)."""
    return _NAMED.get(manifest, (manifest,), lambda: (_read_names(manifest), ()))


def _read_names(manifest: Path) -> bool:
    body = json_object(manifest)
    for field in _DEPENDENCIES:
        named = body.get(field)
        if isinstance(named, dict) and any(n in named for n in ("typescript", PREVIEW)):
            return True
    return any(tool_at(words) is not None for words in package_commands(manifest))


_NAMED: Memo[bool] = Memo()


def _up_to(project: Path, root: Path) -> list[Path]:
    """`project` and the folders above it up to `root` (itself alone outside it)."""
    folders = []
    for directory in (project, *project.parents):
        folders.append(directory)
        if directory == root or root not in directory.parents:
            break
    return folders


def package_version(package: Path) -> str | None:
    """The `version` of an npm package's package.json; None when it cannot be read."""
    try:
        return str(json.loads((package / "package.json").read_text("utf-8"))["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
