"""The configurations only another TypeScript checks: a script running a TypeScript
installed under another name (tailwind-merge's `node node_modules/typescript-compat/bin/tsc
--project scripts/typescript-compatibility/tsconfig.json`, an alias of TypeScript 3.8.3
beside the project's 6.0.3). lspd checks a project with one TypeScript, so such a
configuration was checked with the project's: 0 errors where its gate says 2 (`satisfies`,
which 3.8 cannot parse). It is said not checked now, with the TypeScript that checks it.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.npm_installed import json_object
from lspd.workspace.tsc_scripts import named_in, package_commands, tool_at

_PROJECT_OWN = "typescript"  # the package a project's own `tsc` is of


def other_typescript(packages: list[Path]) -> dict[Path, str]:
    """Each configuration the scripts of the package.json files at `packages` give only the
    tsc of another package than `typescript` (`node_modules/NAME/bin/tsc`), with a note
    saying which."""
    others: dict[Path, str] = {}
    own: set[Path] = set()
    for package in packages:
        for words in package_commands(package):
            if (at := tool_at(words)) is None:
                continue
            named = named_in([words], package.parent)
            if (name := _other(words[at])) is None:
                own |= named
                continue
            for config in named:
                others.setdefault(config, _note(package.parent, name))
    return {config: note for config, note in others.items() if config not in own}


def _other(tool: str) -> str | None:
    """The package a tsc path is of, where it is another than TypeScript's own
    (`node_modules/typescript-compat/bin/tsc`: `typescript-compat`); else None (a `tsgo`'s:
    TypeScript 7's preview, which lspd runs)."""
    parts = tool.split("/")
    if "node_modules" not in parts[:-2] or parts[-2:] != ["bin", "tsc"]:
        return None
    name = "/".join(parts[parts.index("node_modules") + 1 : -2])
    return None if name in (_PROJECT_OWN, ".") or not name else name


def _note(folder: Path, name: str) -> str:
    version = json_object(folder / "node_modules" / name / "package.json").get("version")
    which = f"TypeScript {version}" if isinstance(version, str) else "another TypeScript"
    return (
        f"only {name}'s tsc ({which}) checks, not the project's own TypeScript: lspd "
        "checks a project with one"
    )
