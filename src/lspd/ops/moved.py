"""A file's result after an edit of comments and blank lines (`engine/python_trivia.py`):
the same diagnostics, each on the line its code moved to. Both the whole check
(`ops/check.py`) and a state never written (`ops/overlaid_state.py`) answer such an edit so,
asking no server."""

from __future__ import annotations

from lspd.engine.python_trivia import Moves
from lspd.ops.models import DiagnosticsResult


def moved(result: DiagnosticsResult, moves: Moves) -> DiagnosticsResult | None:
    """`result` with each diagnostic on its moved lines; None when one stands off the moved
    code (then the file is asked)."""
    diagnostics = []
    for d in result.diagnostics:
        lines = moves.span(d.line, d.column, d.end_line, d.end_column)
        if lines is None:
            return None
        diagnostics.append(d.model_copy(update={"line": lines[0], "end_line": lines[1]}))
    return result.model_copy(update={"diagnostics": diagnostics})
