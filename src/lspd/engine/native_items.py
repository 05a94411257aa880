"""TypeScript 7's items as its LSP says them: an item's code, and tsc's syntax error as the
LSP said it (`tsc -p --listFilesOnly` and tsc's parser say a line, a column, a code and a
message; the LSP's item has the range a question's answer shows)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import cast

from lspd.lsp import shapes
from lspd.lsp.answers import PULL_DIAGNOSTICS
from lspd.lsp.session import Session
from lspd.workspace.tsc_native import ConfigError

Items = list[shapes.Diagnostic]
# A check is a gate, not an interactive answer: a slow file on a busy machine must not fail
# it (the first files asked of a server wait for its project to load: `native_check`'s
# LOAD_TIMEOUT_S; effect's 572 files, 523,000 lines, took over 30 s on 2 cores at load 20).
FILE_TIMEOUT_S = 120.0


def tsc_item(parsed: Mapping[Path, Items], error: ConfigError) -> shapes.Diagnostic:
    """tsc's syntax error as the LSP said it (its range), else as tsc says it. The LSP's item
    at its column, or the only one of its line, code and message: `',' expected.` three
    times on one line (58:5, 58:17, 58:27) was said three times at the first one's place."""
    line, code = error.line - 1, int(error.code)
    point: shapes.Position = {"line": line, "character": error.column - 1}
    alike = [
        item
        for item in parsed.get(error.file, [])
        if (item["range"]["start"]["line"], code_of(item), item.get("message"))
        == (line, code, error.message)
    ]
    at = [item for item in alike if item["range"]["start"]["character"] == point["character"]]
    if at or len(alike) == 1:
        return (at or alike)[0]
    return {
        "range": {"start": point, "end": point},
        "severity": 1,
        "code": code,
        "source": "ts",
        "message": error.message,
    }


def code_of(item: shapes.Diagnostic) -> int:
    """An item's TypeScript code (0: none)."""
    code = str(item.get("code"))
    return int(code) if code.isdigit() else 0


async def pulled(session: Session, path: Path, timeout: float) -> list[shapes.Diagnostic]:
    """`path`'s diagnostics pulled from `session` without opening it."""
    params: shapes.DocumentParams = {"textDocument": {"uri": path.as_uri()}}
    report = await session.request(PULL_DIAGNOSTICS, params, timeout)
    session.pulled_answer()  # through loading: a hook no longer says it loads
    return cast(list[shapes.Diagnostic], (report.get("items") if report else None) or [])
