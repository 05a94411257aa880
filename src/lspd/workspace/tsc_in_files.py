"""The tsc commands of the script files a package's scripts run.

hono's `build` script is `bun ./build/build.ts`, and that file runs `tsc --emitDeclarationOnly
--declaration --project tsconfig.build.json` (a zx-style template), the program its CI builds
src/ with under `noUnusedLocals`, which its checked `tsconfig.spec.json` leaves off. Read
from the package.json alone, that program was no gate's: an unused local failing the CI
build was said by no program. A file a script runs (`node`, `bun`, `tsx`, `ts-node`, ...: a
.js or .ts file of the package) is read for `tsc ...` text, each one a command of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

# What runs a script file given it: `bun ./build/build.ts`, `node scripts/build.mjs`
_RUNNERS = {"node", "bun", "tsx", "ts-node", "esno", "esrun", "jiti", "vite-node", "zx"}
_SOURCES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
_MOST_BYTES = 200_000  # a build script this large is generated
# `tsc` and its words up to the end of its string or line (`${...}` placeholders dropped)
_TSC = re.compile(r"(?<![\w./@-])tsc(?![\w.-])((?:[ \t]+(?:\$\{[^}\n]*\}|[^\s`'\"$;&|)]+))*)")
_PLACEHOLDER = re.compile(r"\$\{[^}\n]*\}")  # a template's placeholder: no word known here
# an option naming the configuration, and a word of it (not a placeholder)
_NAMING = re.compile(r"(?:^|\s)(?:-p|--project|-b|--build)\s+(?!\$\{)[^\s-]")


def script_files(commands: list[list[str]], folder: Path) -> list[Path]:
    """The script files under `folder` the `commands` (a package's, run in `folder`) run."""
    found = []
    for words in commands:
        if not words or words[0].rsplit("/", 1)[-1] not in _RUNNERS:
            continue
        for word in words[1:]:
            path = (folder / word).resolve()
            if word.endswith(_SOURCES) and folder in path.parents and path.is_file():
                found.append(path)
                break
    return list(dict.fromkeys(found))


def tsc_commands(path: Path) -> list[list[str]]:
    """Each `tsc ...` of the script file at `path` that names its configuration (`-p`,
    `--project`, `-b`, `--build`), as a command's words; one naming none (msw's `tsc --noEmit
    ${files}` checks the files given it, no configuration) is not known, and left out."""
    try:
        if path.stat().st_size > _MOST_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    commands = []
    for found in _TSC.finditer(text):
        if _NAMING.search(found[1]):
            commands.append(["tsc", *_PLACEHOLDER.sub(" ", found[1]).split()])
    return commands
