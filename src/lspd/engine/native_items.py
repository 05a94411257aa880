"""TypeScript 7's items as its LSP says them: an item's code, and tsc's syntax error as the
LSP said it (`tsc -p --listFilesOnly` and tsc's parser say a line, a column, a code and a
message; the LSP's item has the range a question's answer shows)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lspd.lsp import shapes
from lspd.workspace.tsc_native import ConfigError

Items = list[shapes.Diagnostic]


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
