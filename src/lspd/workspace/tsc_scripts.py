"""The tsconfigs a project's package.json scripts type-check that lspd's walk does not find
by name: neverthrow's `"test-types": "tsc --noEmit -p ./tests/tsconfig.tests.json"` checks
its tests beside `"typecheck": "tsc --noEmit"`; named neither tsconfig.json nor
jsconfig.json, that configuration was no project of the gate, and its 7 files were left out.

Only a type-check is read: a `tsc` command with `--noEmit` and `-p`/`--project` naming a
file of the project (a build's `tsc -p tsconfig.build.json` emits, and checking its
program too would check the same files twice). A folder named is its tsconfig.json, which
the walk finds already.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from lspd.workspace.files import read_text

PACKAGE = "package.json"
_PROJECT = ("-p", "--project")
_SPLIT = ("&&", "||", ";", "|")


def scripted_configs(packages: list[Path], root: Path) -> list[Path]:
    """The configuration files under `root` the scripts of the package.json files at
    `packages` type-check with `tsc --noEmit -p FILE`."""
    found: list[Path] = []
    for package in packages:
        for command in package_commands(package):
            config = _checked(command, package.parent)
            if config is not None and root in config.parents and config.is_file():
                found += [] if config in found else [config]
    return found


def package_commands(package: Path) -> list[list[str]]:
    """The words of each command of the scripts of the package.json at `package` (`a && b`:
    two)."""
    try:
        scripts = json.loads(read_text(package) or "{}").get("scripts")
    except (ValueError, AttributeError):
        return []
    commands: list[list[str]] = []
    for script in scripts.values() if isinstance(scripts, dict) else ():
        try:
            words = shlex.split(str(script))
        except ValueError:
            continue
        command: list[str] = []
        for word in [*words, ";"]:
            if word in _SPLIT:
                commands.append(command)
                command = []
            else:
                command.append(word)
    return commands


def _checked(words: list[str], folder: Path) -> Path | None:
    """The configuration file a `tsc --noEmit -p FILE` command names, from `folder`."""
    at = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] == "tsc"), None)
    if at is None or "--noEmit" not in words[at:]:
        return None
    arguments = words[at + 1 :]
    for i, word in enumerate(arguments):
        named = word.split("=", 1)[1] if word.startswith("--project=") else None
        if word in _PROJECT and i + 1 < len(arguments):
            named = arguments[i + 1]
        if named is not None:
            path = (folder / named).resolve()
            return None if path.is_dir() else path
    return None
