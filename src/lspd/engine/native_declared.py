"""Which TypeScript 7 edits leave a file's declarations as they were: its importers cannot
see them, so the check and a preview ask the edited file alone, as `tsc --watch` re-checks
a file whose .d.ts did not change (a statement added in a function with its return type
written: kysely's object-utils.ts, imported by 627 files, asked them all again: 10.3 s for
a check `tsc --watch` makes in well under one).

The declarations are TypeScript's own emit of each text alone (`workspace/ts_declarations`):
a file whose exported values' types need the checker (`export const x = f()`), a `.d.ts`,
a JavaScript file or a text that does not parse is not told alike, and its importers are
asked as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lspd.workspace import Workspace
from lspd.workspace.toolchain import SERVER
from lspd.workspace.ts_declarations import Declarations

# The sources whose declarations TypeScript emits from the text alone (not `.d.ts`: global
# declarations, asked everywhere before this is asked; not JavaScript's JSDoc types).
SUFFIXES = (".ts", ".tsx", ".mts", ".cts")

Pairs = Mapping[Path, tuple[str | None, str | None]]


async def declared_alike(ws: Workspace, pairs: Pairs) -> set[Path]:
    """Of `pairs` (a file's text before an edit and after it; None: absent), the files
    whose declarations are the same in both."""
    edited = {
        path: (old, new)
        for path, (old, new) in pairs.items()
        if old is not None and new is not None and _emits(path)
    }
    if not edited:
        return set()
    texts = [(path, text) for path, both in edited.items() for text in both]
    found = await _declarations(ws).of(texts)
    alike = set()
    for at, path in enumerate(edited):
        before, after = found[2 * at], found[2 * at + 1]
        if before is not None and before == after:
            alike.add(path)
    return alike


def _emits(path: Path) -> bool:
    return path.name.endswith(SUFFIXES) and not path.name.endswith((".d.ts", ".d.mts", ".d.cts"))


def _declarations(ws: Workspace) -> Declarations:
    """The workspace's helper, made on first need, on lspd's own TypeScript."""
    if ws.declarations is None:
        definition = ws.definitions.get(SERVER)
        package = definition.npm_root() / "typescript" if definition is not None else Path()
        ws.declarations = Declarations(package, ws.log_dir / "ts-declarations.log")
    return ws.declarations
