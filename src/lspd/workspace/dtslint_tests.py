"""dtslint's tests: the folders a package's scripts run `dtslint` on (io-ts's `dtslint
--expectOnly dtslint`) hold `// $ExpectType T` assertions, which dtslint checks beside
TypeScript's errors, and `// $ExpectError` lines, whose error it expects. lspd checks their
tsconfig with TypeScript's rules alone, and had said nothing of the assertions: a changed
return type that breaks an `$ExpectType` fails dtslint and was answered "0 new errors".
The folder's line of the scope now says what is not run.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lspd.workspace.project_scope import ProjectScope
from lspd.workspace.tsc_scripts import package_commands, tool_at

NOTE = (
    "dtslint's tests: its `$ExpectType` assertions are not run, and an error a `$ExpectError` "
    "line expects is said; TypeScript's rules alone"
)
_VALUED = {"--localTs", "--version"}  # dtslint's options taking the next word


def dtslint_noted(projects: list[ProjectScope], packages: list[Path]) -> list[ProjectScope]:
    """`projects`, those of the folders dtslint runs on (or below one) given `NOTE`."""
    folders = dtslint_folders(packages)
    return [
        replace(p, note=p.note or NOTE) if p.files and _under(p.project, folders) else p
        for p in projects
    ]


def dtslint_folders(packages: list[Path]) -> set[Path]:
    """The folders the scripts of the package.json files at `packages` run dtslint on
    (`dtslint DIR`; none named: the package's own folder)."""
    found: set[Path] = set()
    for package in packages:
        for words in package_commands(package):
            if (at := tool_at(words, "dtslint")) is None:
                continue
            named, skip = [], False
            for word in words[at + 1 :]:
                if not skip and not word.startswith("-"):
                    named.append(word)
                skip = word in _VALUED
            found |= {(package.parent / w).resolve() for w in named} or {package.parent}
    return found


def _under(folder: Path, folders: set[Path]) -> bool:
    return any(f == folder or f in folder.parents for f in folders)
