"""Where a TypeScript 7 package's native compiler is, or why it cannot run here.

`typescript@7`'s `bin/tsc` is a small Node script that starts the native binary of a second
package, `@typescript/typescript-<platform>-<arch>` (an optional dependency: npm installs the
one for the machine it runs on). lspd runs that binary itself (`tsc --lsp --stdio`): no Node
wrapper in between, and a missing platform package is said as such, with what to install,
instead of a Node stack trace on the server's stderr. The lookup is Node's, from the package's
real directory: its own `node_modules`, then each directory above it (npm's flat layout,
pnpm's store, where the platform package sits beside typescript).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Python's names of the machine -> Node's `process.platform` and `process.arch`, which name
# the platform packages.
_PLATFORMS = {
    "linux": "linux",
    "darwin": "darwin",
    "win32": "win32",
    "freebsd": "freebsd",
    "openbsd": "openbsd",
    "netbsd": "netbsd",
    "sunos": "sunos",
    "aix": "aix",
}
_ARCHS = {
    "x86_64": "x64",
    "amd64": "x64",
    "aarch64": "arm64",
    "arm64": "arm64",
    "armv7l": "arm",
    "armv6l": "arm",
    "ppc64le": "ppc64",
    "ppc64": "ppc64",
    "s390x": "s390x",
    "riscv64": "riscv64",
    "loongarch64": "loong64",
    "mips64": "mips64el",
}


@dataclass(frozen=True)
class Native:
    """A TypeScript 7 package's compiler: its binary, or why it cannot run and the fix."""

    executable: Path | None
    problem: str = ""  # why it cannot run here
    fix: str = ""  # what to install, said as a command


# TypeScript 7's preview package: its `bin/tsgo` starts `@typescript/native-preview-<platform>`'s
# `lib/tsgo`, tsc's command line under another name (a gate of `tsgo --noEmit`)
PREVIEW = "@typescript/native-preview"


def platform_package(base: str = "typescript") -> str:
    """The platform package this machine needs, e.g. `@typescript/typescript-linux-x64`
    (`base`: `native-preview` for the preview's)."""
    system = next((n for p, n in _PLATFORMS.items() if sys.platform.startswith(p)), sys.platform)
    machine = platform.machine().lower()
    return f"@typescript/{base}-{system}-{_ARCHS.get(machine, machine)}"


def command_of(package: Path) -> str:
    """The compiler's command name of a TypeScript `package`: `tsgo` for the preview's."""
    try:
        name = json.loads((package / "package.json").read_text("utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        name = None
    return "tsgo" if name == PREVIEW else "tsc"


def tsc_script(package: Path) -> Path:
    """The package's Node script of its compiler (`bin/tsc`, the preview's `bin/tsgo`)."""
    return package / "bin" / command_of(package)


def locate(package: Path, version: str) -> Native:
    """The native `tsc` (the preview's `tsgo`) of the typescript `package` (version
    `version`), as its `bin/tsc` would find it."""
    command = command_of(package)
    needed = platform_package("native-preview" if command == "tsgo" else "typescript")
    for directory in (package, *package.parents):
        if directory.name == "node_modules":
            continue  # Node never looks in node_modules/node_modules
        found = directory / "node_modules" / needed
        if (found / "package.json").is_file():
            executable = found / "lib" / (f"{command}.exe" if sys.platform == "win32" else command)
            if os.access(executable, os.X_OK):
                return Native(executable)
            return Native(
                None,
                f"{needed} ({found}) has no executable lib/{executable.name}: a broken install",
                f"reinstall it: npm install --no-save {needed}@{version} in {_home(package)}",
            )
    return Native(
        None,
        f"its native compiler for this machine, {needed}, is not installed",
        f"npm install (or your package manager's install) in {_home(package)}, which "
        f"installs {needed}@{version} for this machine",
    )


def _home(package: Path) -> Path:
    """The directory whose install brought `package` (the one holding its node_modules)."""
    for directory in package.parents:  # pnpm: node_modules/.pnpm/typescript@7.0.2/node_modules
        if directory.name != "node_modules" and (directory / "package.json").is_file():
            return directory
    return package.parent.parent


# -- the configuration tsc rejects --------------------------------------------------------

_LOCATED = re.compile(r"^(?P<file>.+?)\((?P<line>\d+),(?P<column>\d+)\): error TS(?P<code>\d+): ")
_UNLOCATED = re.compile(r"^error TS(?P<code>\d+): ")
CONFIG_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ConfigError:
    """An error `tsc` reports of a project's configuration, where it reports it."""

    file: Path
    line: int
    column: int
    code: str
    message: str


def listed(
    tsc: list[str], config: Path, flags: tuple[str, ...] = ("--listFilesOnly",)
) -> tuple[list[Path], list[ConfigError]]:
    """The files of `tsc -p config`'s program, in its order (libraries too), and its errors:
    the configuration's (options TypeScript 7 removed: TS5102, TS5108; no inputs: TS18003;
    `tsc` stops at them, while its LSP says nothing of them and checks the files anyway),
    every file's syntax errors. `--listFilesOnly` stops before the check (other `flags`:
    tsc's run with them, its errors read alike)."""
    files: list[Path] = []
    try:
        done = subprocess.run(
            [*tsc, "-p", str(config), *flags, "--pretty", "false"],
            cwd=config.parent,
            capture_output=True,
            text=True,
            timeout=CONFIG_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [], [ConfigError(config, 1, 1, "", f"`tsc -p {config.name}` could not run: {exc}")]
    found: list[ConfigError] = []
    for line in done.stdout.splitlines():
        if line.startswith("  ") and found:  # the message goes on (`Use ... instead.`)
            last = found[-1]
            found[-1] = dataclasses.replace(last, message=f"{last.message}\n{line.strip()}")
        elif located := _LOCATED.match(line):
            file = (config.parent / located["file"]).resolve()
            where = int(located["line"]), int(located["column"])
            found.append(ConfigError(file, *where, located["code"], line[located.end() :]))
        elif unlocated := _UNLOCATED.match(line):
            found.append(ConfigError(config, 1, 1, unlocated["code"], line[unlocated.end() :]))
        elif os.path.isabs(line):  # a file of the program
            files.append(Path(line))
    return files, found


def shown(tsc: list[str], config: Path) -> dict[str, Any]:
    """`config` as `tsc -p config --showConfig` says it (its options merged with those it
    extends, its root files; ~15 ms on TypeScript 7); empty where it says nothing or cannot
    run."""
    try:
        done = subprocess.run(
            [*tsc, "-p", str(config), "--showConfig"],
            cwd=config.parent,
            capture_output=True,
            text=True,
            timeout=CONFIG_TIMEOUT_S,
            check=False,
        )
        said = json.loads(done.stdout) if done.returncode == 0 else {}
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return {}
    return said if isinstance(said, dict) else {}


def parsed_errors(tsc: list[str], texts: Mapping[Path, str]) -> list[ConfigError]:
    """The syntax errors tsc's parser finds in `texts` (file -> its text), each file alone:
    written under a temporary directory by its own name and parsed (`--listFilesOnly
    --noResolve --noLib`: nothing is checked, so a checker's grammar error of the parser's
    codes is none). 0.4 s for two small files. `--allowJs`: without it a JavaScript file is
    no root (TS6504) and its syntax errors were none: a fresh layout's src/a.js with a TS1109
    was said with its TS2322 and no stop, as the program read anew parses it here."""
    with tempfile.TemporaryDirectory(prefix="lspd-tsc-") as directory:
        names: dict[Path, Path] = {}
        for index, (path, text) in enumerate(texts.items()):
            copy = Path(directory) / str(index) / path.name
            copy.parent.mkdir()
            copy.write_text(text, encoding="utf-8")
            names[copy.resolve()] = path
        flags = ["--listFilesOnly", "--pretty", "false", "--noResolve", "--noLib", "--allowJs"]
        flags += ["--types", ""]
        try:
            done = subprocess.run(
                [*tsc, *flags, *map(str, names)],
                cwd=directory,
                capture_output=True,
                text=True,
                timeout=CONFIG_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return []
        found: list[ConfigError] = []
        for line in done.stdout.splitlines():
            located = _LOCATED.match(line)
            file = None if located is None else (Path(directory) / located["file"]).resolve()
            if located is not None and file in names:
                where = int(located["line"]), int(located["column"])
                found.append(
                    ConfigError(names[file], *where, located["code"], line[located.end() :])
                )
        return found
