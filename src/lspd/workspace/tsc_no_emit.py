"""Whether the gate's tsc runs on a configuration give it `--noEmit`: then tsc's checks of
where a program writes (TS5055: an output over an input; TS5056) are no errors of the
gate, though the configuration emits.

jiti's `"test:types": "tsgo --noEmit"` checks a tsconfig that emits (no `noEmit`) with
`allowJs` over lib/*.mjs: as `tsc -p` reads it, each .mjs's output would overwrite it, 40
TS5055 that stopped the whole program's check, where its gate says 0. Read from the
scripts of the configuration's package (its nearest package.json) and the root's.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.npm_installed import PACKAGE, package_of
from lspd.workspace.tsc_scripts import CHECKERS, package_commands, tool_at

# tsc's checks of where a program writes, which `--noEmit` leaves out
WRITES = frozenset({"5055", "5056"})
_PROJECT = ("-p", "--project")
_NO_EMIT = "--noemit"


def run_without_emit(config: Path, root: Path) -> bool:
    """Whether a script runs tsc (tsgo, vue-tsc) on `config`, and every such run gives it
    `--noEmit`."""
    folder = package_of(config.parent, root)
    packages = dict.fromkeys([*([folder / PACKAGE] if folder else []), root / PACKAGE])
    runs = [
        [w.lower() for w in words[at + 1 :]]
        for package in packages
        for words in package_commands(package)
        if (at := tool_at(words, CHECKERS)) is not None and _on(config, words[at + 1 :], package)
    ]
    return bool(runs) and all(_NO_EMIT in options for options in runs)


def _on(config: Path, options: list[str], package: Path) -> bool:
    """Whether a tsc command's `options`, run in `package`'s folder, check `config`: the
    one `-p` names (a file, or a folder's tsconfig.json), else the folder's tsconfig.json."""
    named = [options[i + 1] for i, o in enumerate(options[:-1]) if o.lower() in _PROJECT]
    if not named:
        return config == package.parent / "tsconfig.json"
    path = (package.parent / named[-1]).resolve()
    return config in (path, path / "tsconfig.json")
