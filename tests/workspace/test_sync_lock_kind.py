"""A file's lock held for a question of the disk's text lets the watcher's change of it
through (issue 40): only a lock holding other text (unsaved content, a baseline's text)
keeps it back until it is let go.

TypeScript 5.9's tsserver, app/main.ts importing app/shapes.ts: `diagnostics app/main.ts`
asked while `diagnostics app/shapes.ts` is in flight, after an edit of shapes.ts, said the
old shapes.ts's 3:39 TS2322 where tsc -p says no error (the edit's event was kept back until
the other question let shapes.ts's lock go)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.lsp.diagnostics import TSC_DIAGNOSTICS
from lspd.lsp.session import Session
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import DiagnosticsResult
from tests.conftest import Warm, warm_root
from tests.workspace.test_sync_renamed import EDITED, wire, written
from tests.workspace.toolchains import gate

OWN_ERROR = EDITED + "export const n: number = 'x'\n"  # shapes.ts's own TS2322 at 3:14
ERROR = re.compile(r"^(app/\w+\.ts)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
ASKING = {TSC_DIAGNOSTICS, "syntacticDiagnosticsSync", "semanticDiagnosticsSync"}
WAIT_S = 120.0  # a bound on each event waited for, not a pause
Found = list[tuple[int, int, str]]


def tsc(root: Path, text: str) -> dict[str, Found]:
    """tsc -p's errors by file with app/shapes.ts holding `text`, on a copy of its own."""
    (root / "app" / "shapes.ts").write_text(text)
    found: dict[str, Found] = {"app/main.ts": [], "app/shapes.ts": []}
    for file, line, column, code in ERROR.findall(gate(root)[1]):
        found[file].append((int(line), int(column), code))
    return found


@pytest.fixture(scope="module")
def truth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Found]]:
    root = written(tmp_path_factory.mktemp("truth") / "ts59")
    return {"edited": tsc(root, EDITED), "own error": tsc(root, OWN_ERROR)}


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """The project, watched as the daemon watches it."""
    yield from warm_root(written(tmp_path / "ts59"), tmp_path / "logs", watch=True)


def errors(result: DiagnosticsResult) -> Found:
    return sorted((d.line, d.column, d.code or "") for d in result.diagnostics)


def held_at_its_request(session: Session, path: Path) -> tuple[asyncio.Event, asyncio.Event]:
    """(asking, go): `asking` is set when `session`'s diagnostics request of `path` is about
    to go out (its question holds the file's lock then), which waits for `go`."""
    asking, go = asyncio.Event(), asyncio.Event()
    send = session.send

    async def held(method: str, params: Any, timeout: float) -> Any:
        arguments = params.get("arguments") if isinstance(params, dict) else None
        if arguments and arguments[0] in ASKING and arguments[1].get("file") == str(path):
            asking.set()
            await go.wait()
        return await send(method, params, timeout)

    session.send = held  # type: ignore[method-assign]
    return asking, go


async def written_mid_question(warm: Warm, text: str, also: str | None) -> tuple[Found, Found]:
    """app/shapes.ts given `text` while `diagnostics app/shapes.ts` holds its lock (its
    request to tsserver held back), the watcher caught up; `diagnostics also` asked then
    (none: []); then the question of shapes.ts answers. Both answers' errors."""
    shapes = warm.root / "app" / "shapes.ts"
    asking, go = held_at_its_request(warm.ws.session_for(shapes), shapes)
    question = asyncio.ensure_future(diagnostics(warm.ws, "app/shapes.ts"))
    try:
        await asyncio.wait_for(asking.wait(), WAIT_S)
        assert warm.ws.sync.locked(shapes)  # the question's: the disk's text held
        shapes.write_text(text)
        assert warm.ws.watcher is not None and await warm.ws.watcher.catch_up()
        between = [] if also is None else errors(await diagnostics(warm.ws, also))
    finally:
        go.set()
    return between, errors(await asyncio.wait_for(question, WAIT_S))


def test_a_question_of_a_file_another_holds_the_lock_of_answers_the_disk(
    project: Warm, truth: dict[str, dict[str, Found]]
) -> None:
    """The reviewer's /tmp/s56rev/between.py as a test."""
    shapes = project.root / "app" / "shapes.ts"
    assert errors(project.run(diagnostics(project.ws, "app/main.ts"))) == [(3, 39, "2322")]
    assert errors(project.run(diagnostics(project.ws, "app/shapes.ts"))) == []
    said = wire(project.ws.session_for(shapes), shapes)
    between, own = project.run(written_mid_question(project, EDITED, "app/main.ts"))
    # Before: [(3, 39, '2322')], the old shapes.ts's, until the lock was let go.
    assert between == truth["edited"]["app/main.ts"] == []
    assert own == truth["edited"]["app/shapes.ts"] == []
    assert said == [("textDocument/didChange", "")]  # told once, under the lock


def test_a_question_whose_file_changes_mid_question_answers_the_new_text(
    project: Warm, truth: dict[str, dict[str, Found]]
) -> None:
    """The didChange reaches tsserver while the question of the file is in flight (after it
    opened the document, before it asks): it answers the text tsserver holds, the new one,
    its positions read in the new text."""
    shapes = project.root / "app" / "shapes.ts"
    assert errors(project.run(diagnostics(project.ws, "app/shapes.ts"))) == []
    said = wire(project.ws.session_for(shapes), shapes)
    _, own = project.run(written_mid_question(project, OWN_ERROR, None))
    # Before: [] (the old text's: the change was kept back while the question held the lock).
    assert own == truth["own error"]["app/shapes.ts"] == [(3, 14, "2322")]
    assert said == [("textDocument/didChange", "")]
    main = project.run(diagnostics(project.ws, "app/main.ts"))
    assert errors(main) == truth["own error"]["app/main.ts"] == []
