"""A TypeScript file's JSX pragmas, and what makes TypeScript 7's server read them again.

`/** @jsxImportSource x */` and `/** @jsxRuntime classic */` in a file's leading block
comments imply an import of its own (`x/jsx-runtime`, or none). TypeScript 7.0.2's server
(`tsc --lsp`) updates its program after a change of one file by replacing that file when
its imports, references and directives are the same (`canReplaceFileInProgram`), which
does not look at these pragmas: the old jsx-runtime import stayed (the pragma added: no
TS2875 where `tsc -p` said it; taken away: the error kept), after a `didChange`, a watched
file's change and a close and reopen alike. A change of the program's configuration
(`didChangeWatchedFiles` of its tsconfig, the text the same) makes it build the program
anew (0.05 s on a 30-file project, as a one-file update, at load 16): lspd tells it so
whenever a text it gives or lets go of changes a file's pragmas (`Documents`), and the
check does when the disk's does (`engine/native_implied.py`). Other edits of the kind are
read right: `/// <reference types|path>`, `// @ts-nocheck`, `import()` types, `@jsx` and
`@jsxFrag` (the checker's).
"""

from __future__ import annotations

import re
from pathlib import Path

from lspd.lsp.text import path_to_uri

Pragmas = tuple[str, ...]

# Where TypeScript reads pragmas from: the comments before the file's first token.
_LEADING = re.compile(r"\A(?:#![^\n]*)?(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_BLOCK = re.compile(r"/\*.*?\*/", re.DOTALL)
_PRAGMA = re.compile(r"@(jsxImportSource|jsxRuntime)\s+(\S+)")
_SCRIPTS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_CONFIGS = ("tsconfig", "jsconfig")


def implied(text: str) -> Pragmas:
    """The `@jsxImportSource` and `@jsxRuntime` pragmas of `text`'s leading block comments,
    as `("jsxImportSource preact", ...)`: () for most files."""
    if "@jsx" not in text:
        return ()
    leading = _LEADING.match(text)
    head = leading.group(0) if leading else ""
    return tuple(
        f"{name} {value.removesuffix('*/')}"
        for block in _BLOCK.findall(head)
        for name, value in _PRAGMA.findall(block)
    )


def scripted(path: Path) -> bool:
    """Whether `path` is a file TypeScript reads pragmas of."""
    return path.name.endswith(_SCRIPTS) and not path.name.endswith((".d.ts", ".d.mts", ".d.cts"))


def disk_pragmas(path: Path) -> Pragmas:
    """`implied` of `path`'s text on disk, read as far as its leading comments can go in
    a file's first 64 KB (none when it cannot be read)."""
    try:
        with path.open("rb") as file:
            return implied(file.read(65536).decode("utf-8", errors="replace"))
    except OSError:
        return ()


def configs_near(path: Path) -> list[Path]:
    """The tsconfig*.json and jsconfig*.json of the nearest folder above `path` holding any:
    the configuration of the program holding it, in the usual layouts (a Vite app's
    tsconfig.app.json beside the solution's tsconfig.json: both)."""
    for folder in path.parents:
        found = sorted(
            p for p in folder.glob("*config*.json") if p.name.startswith(_CONFIGS) and p.is_file()
        )
        if found:
            return found
    return []


def rebuilt(configs: list[Path]) -> list[dict[str, object]]:
    """The `didChangeWatchedFiles` changes that make TypeScript 7's server build the
    programs of `configs` anew."""
    return [{"uri": path_to_uri(p), "type": 2} for p in configs]
