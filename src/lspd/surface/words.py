"""The words of parameters many operations share: their descriptions and CLI spellings.

A parameter's name, type and default are its ops function's; what a model and a CLI user
read about it is here (or in its table row, for a parameter of one operation). The
instructions of the MCP server (`lspd.surface.table.RULES`) explain positions, paging and
baselines once, so these stay short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CliForm = Literal["value", "file", "json", "negate", "flag", "changes"]

# The maximum of every `limit` (`lspd.ops.budget.MAX_LIMIT`, checked by the table's tests).
MAX_LIMIT = 1000


@dataclass(frozen=True)
class Words:
    """What a parameter's signature cannot say: its description (the schema's, the CLI's
    help) and its CLI spelling (see `lspd.surface.operation.Param`)."""

    description: str
    cli: str | None = None
    cli_form: CliForm = "value"
    cli_help: str | None = None


# The position every position operation takes first.
POSITION_WORDS = {
    "path": Words("File."),
    "line": Words("1-based."),
    "column": Words("1-based, in characters."),
    "symbol": Words("Name path instead of a position."),
}
# Said once in the server instructions; ends the description of every position operation.
AT = " Position or `symbol`."

SHARED = {
    "path": Words(
        "File, relative to the root.",
        cli_help="the file (a relative path starts at the current directory)",
    ),
    "limit": Words(f"Items per page (at most {MAX_LIMIT})."),
    "offset": Words("0-based index of the first item: a `next_offset`."),
    "baseline": Words(
        "`HEAD` (or a git revision) or `session`: also say which diagnostics are new since then."
    ),
    "unresolved": Words(
        "Add `unresolved` uses.",
        cli="--no-unresolved",
        cli_form="negate",
        cli_help="skip the scan for uses the checker cannot resolve",
    ),
    "all": Words(
        "Ask `outside` too.",
        cli_form="flag",
        cli_help="also ask the servers about the uses in files the gate does not check",
    ),
    "content": Words(
        "Unsaved text.",
        cli="--content-file",
        cli_form="file",
        cli_help="answer as if PATH held this file's text ('-': stdin); nothing is written",
    ),
}
