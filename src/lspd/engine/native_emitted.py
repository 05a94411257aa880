"""The declaration pass's errors, which TypeScript 7's tsc reports beside a program's syntax
errors (where TypeScript 5's reports the syntax errors alone).

TypeScript 7's `tsc -p` stops its diagnostics at the syntax errors as 5's does (no options,
global or semantic diagnostics), but then emits anyway, and what the declaration emitter
says is added: with `declaration` (or `composite`), TS9007/TS9011 of `isolatedDeclarations`
and TS4094 ("exported anonymous class type may not be private") were said beside the
syntax errors, with `noEmit` or `outDir` alike (7.0.2; 5.9.3 says them only where it emits,
not with `noEmit`), but not where an incremental program (`incremental`, `composite`) is not
emitted (`noEmit`: none said, as 5's); `noEmitOnError` makes the emit say the syntax errors
instead (the syntax errors alone). TypeScript 7's LSP says these errors among a file's semantic
ones; they are told apart by their codes: those of the declaration emitter and its symbol
tracker (TypeScript 5.9's `transformers/declarations`, and TS2883 of 7's tracker).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from lspd.engine.native_items import code_of
from lspd.lsp import shapes
from lspd.workspace.tsc_native import shown
from lspd.workspace.tsconfig_extends import Stamps, configured_stamps

_ACCESS = {  # "... has or is using private name ..." of the declaration emitter
    *range(4000, 4017, 2),
    *range(4019, 4079),
    *range(4081, 4086),
    *(4091, 4092, *range(4094, 4104), 4106, 4107, 4108, 4118),
}
_TRACKER = {2527, 2742, 2883, 5088, 6232, 7056}  # a type the emitter cannot write
_ISOLATED = {*range(9005, 9024), *range(9025, 9040)}  # 9007-: isolatedDeclarations
EMITTED = frozenset(_ACCESS | _TRACKER | _ISOLATED)
# A tsconfig's (and those it extends') stamps -> whether tsc reports them (`beside_syntax`)
_read: dict[Path, tuple[Stamps, bool]] = {}


def emitted(item: shapes.Diagnostic) -> bool:
    """Whether an item is of the declaration pass (by its code)."""
    return code_of(item) in EMITTED


def kept(items: Iterable[shapes.Diagnostic]) -> list[shapes.Diagnostic]:
    """The declaration pass's items of `items`."""
    return [item for item in items if emitted(item)]


async def beside_syntax(tsc: list[str], config: Path) -> bool:
    """Whether TypeScript 7's `tsc -p config` (`tsc`: its argv before the arguments) reports
    the declaration pass's errors beside a syntax error: its options emit declarations
    (`declaration`, `composite`), neither `noEmitOnError` nor an incremental program's
    `noEmit` (`incremental`, `composite`: 7.0.2's emit skipped) is set, as `tsc --showConfig` says
    them (~15 ms; kept until the tsconfig or one it extends changes). False where it cannot
    say (the syntax errors alone, as before)."""
    now = configured_stamps(config)
    if now is None:
        return False
    if (kept_read := _read.get(config)) is not None and kept_read[0] == now:
        return kept_read[1]
    found = await asyncio.to_thread(_options, tsc, config)
    _read[config] = now, found
    return found


def _options(tsc: list[str], config: Path) -> bool:
    options = shown(tsc, config).get("compilerOptions")
    if not isinstance(options, dict):
        return False

    def on(name: str) -> bool:
        return options.get(name) is True

    incremental = on("incremental") or on("composite")
    quiet = on("noEmitOnError") or (on("noEmit") and incremental)
    return (on("declaration") or on("composite")) and not quiet
