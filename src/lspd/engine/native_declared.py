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

from lspd.engine.native_reach import NativeSeen, declared_alone
from lspd.workspace import Workspace
from lspd.workspace.toolchain import SERVER
from lspd.workspace.ts_declarations import Declarations

ALIKE_MOST = 32  # edited files whose declarations are compared (`edits_alike`)
Pairs = Mapping[Path, tuple[str | None, str | None]]


async def declared_alike(ws: Workspace, pairs: Pairs) -> set[Path]:
    """Of `pairs` (a file's text before an edit and after it; None: absent), the files
    whose declarations are the same in both; none read past `ALIKE_MOST` files (a checkout:
    their emit would cost seconds, and their importers are most files)."""
    edited = {
        path: (old, new)
        for path, (old, new) in pairs.items()
        if old is not None and new is not None and declared_alone(path)
    }
    if not edited or len(edited) > ALIKE_MOST:
        return set()
    texts = [(path, text) for path, both in edited.items() for text in both]
    found = await _declarations(ws).of(texts)
    alike = set()
    for at, path in enumerate(edited):
        before, after = found[2 * at], found[2 * at + 1]
        if before is not None and before == after:
            alike.add(path)
    return alike


async def edits_alike(
    ws: Workspace, edits: set[Path] | None, seen: NativeSeen | None, now: NativeSeen
) -> set[Path]:
    """Of the files edited since the last check (`seen`; `native_reach.native_edits`: None
    where every file is asked anyway), those whose declarations are as it saw them."""
    if seen is None or not edits:
        return set()
    return await declared_alike(ws, {p: (seen.texts.get(p), now.texts.get(p)) for p in edits})


def _declarations(ws: Workspace) -> Declarations:
    """The workspace's helper, made on first need, on lspd's own TypeScript."""
    if ws.declarations is None:
        definition = ws.definitions.get(SERVER)
        package = definition.npm_root() / "typescript" if definition is not None else Path()
        ws.declarations = Declarations(package, ws.log_dir / "ts-declarations.log")
    return ws.declarations
