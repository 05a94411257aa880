"""The state texts never written would make (`engine/overlaid_state.py`) in `ops`'s answers:
a builder's items and the servers' answers with the texts held (`ops/changes.diagnose`,
mypy's projects in one run of its daemon) as `DiagnosticsResult`s, as the whole check makes
them. Callers: `preview` (`ops/overlaid_check.py`), the committed state of a dirty work tree
(`ops/committed.py`) and a baseline's files outside the gate (`ops/beyond_gate.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import cast

from lspd.engine import overlaid_state as engine
from lspd.engine.overlaid_state import OverlaidState, Texts
from lspd.engine.python_trivia import Moves
from lspd.engine.stops import Stop
from lspd.lsp import shapes
from lspd.ops.changes import diagnose
from lspd.ops.check_memory import memory_of
from lspd.ops.convert import HeldConverter, convert_items
from lspd.ops.file_diagnostics import make_result
from lspd.ops.models import DiagnosticsResult
from lspd.ops.moved import moved
from lspd.ops.programs_joined import joined
from lspd.workspace import Workspace
from lspd.workspace.tsbuilder import Items


async def overlaid_state(
    ws: Workspace,
    texts: Texts,
    checked: Collection[Path],
    only: Collection[Path] | None = None,
) -> OverlaidState[DiagnosticsResult]:
    """`engine/overlaid_state.overlaid_state` with these answers (see there): the results
    `texts` would make, of the files the engine would check again for them."""
    return await engine.overlaid_state(ws, texts, checked, HeldAnswers(ws), memory_of(ws), only)


class HeldAnswers:
    """The engine's `Held`: results of texts never written as `DiagnosticsResult`s."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws

    def built(self, items: Mapping[Path, Items], texts: Texts) -> dict[Path, DiagnosticsResult]:
        """A builder's items as results, as the whole check makes them (`engine/builders.py`);
        a JSON module's (no server's file: `engine/program_data.data_state`) as its program's
        other files'."""
        ws = self.ws
        convert = HeldConverter(ws, "utf-16", texts)
        sources = [p for p in items if ws.handler(p) is not None]
        made = {}
        for path, found in items.items():
            source = path if ws.handler(path) or not sources else sources[0]
            handler = ws.definition_for(source)
            definition, toolchain = ws.pool.adapted(handler, ws.project_root(source, handler))
            label = None if toolchain is None else toolchain.label()
            converted = convert_items(convert, path, cast(list[shapes.Diagnostic], found))
            made[path] = make_result(ws, path, definition.name, label, converted)
        return made

    def joined(
        self, result: DiagnosticsResult, said: str, items: Items, texts: Texts
    ) -> DiagnosticsResult:
        """`result` and another program's tsc's `items` of its file, as the whole check joins
        them (`ops/programs_joined.py`: each one's diagnostics, the servers named)."""
        path = self.ws.resolve(result.path)
        convert = HeldConverter(self.ws, "utf-16", texts)
        converted = convert_items(convert, path, cast(list[shapes.Diagnostic], items))
        return joined(self.ws, [result, make_result(self.ws, path, said, None, converted)])[0]

    def moved(self, result: DiagnosticsResult, moves: Moves) -> DiagnosticsResult | None:
        """The disk's `result` after an edit of comments and blank lines (`ops/moved.py`)."""
        return moved(result, moves)

    async def asked(
        self, files: list[Path], texts: Texts, stops: list[Stop] | None = None
    ) -> list[DiagnosticsResult]:
        """`files` asked with `texts` held (`diagnose`); mypy's runs that stopped at a
        syntax error added to `stops`."""
        found = await diagnose(self.ws, files, texts)
        if stops is not None:
            stops += found.stops
        return found.results
