"""Never stale: answers about files as they are now, through the file watcher, on real servers.

No test sleeps between writing a file and asking about it: that is the point. Each runs on
basedpyright and on typescript-language-server.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from lspd.errors import ServerTimeout
from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics, navigation
from lspd.ops import symbols as symbols_ops
from lspd.servers.registry import ServerDefinition
from lspd.workspace import Workspace
from tests.conftest import Warm, warm_workspace

FAKE_SERVER = Path(__file__).parent.parent / "fake_lsp_server.py"


@dataclass(frozen=True)
class Language:
    """The same small programs in one language."""

    fixture: str
    folder: str
    suffix: str
    fine: str  # a clean module
    broken: str  # one type error
    callee_one: str  # def f(a)
    callee_two: str  # def f(a, b)
    caller: str  # imports f from module `lib` and calls f(1)
    importer: str  # imports `value` from module `late`
    late: str  # defines `value`

    def path(self, module: str) -> str:
        return f"{self.folder}/{module}{self.suffix}"


PYTHON = Language(
    fixture="py",
    folder="pkg",
    suffix=".py",
    fine="x: int = 1\n",
    broken='x: int = "one"\n',
    callee_one="def f(a: int) -> int:\n    return a\n",
    callee_two="def f(a: int, b: int) -> int:\n    return a + b\n",
    caller="from pkg.lib import f\n\nf(1)\n",
    importer="from pkg.late import value\n\nprint(value)\n",
    late="value = 1\n",
)
TYPESCRIPT = Language(
    fixture="ts",
    folder="src",
    suffix=".ts",
    fine="export const x: number = 1;\n",
    broken='export const x: number = "one";\n',
    callee_one="export function f(a: number): number { return a; }\n",
    callee_two="export function f(a: number, b: number): number { return a + b; }\n",
    caller='import { f } from "./lib";\n\nf(1);\n',
    importer='import { value } from "./late";\n\nconsole.log(value);\n',
    late="export const value = 1;\n",
)


@pytest.fixture(scope="module", params=[PYTHON, TYPESCRIPT], ids=["python", "typescript"])
def watched(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Warm, Language]]:
    """A warm workspace whose file watcher runs, as in the daemon."""
    language: Language = request.param
    for warm in warm_workspace(language.fixture, tmp_path_factory, watch=True):
        yield warm, language


def errors(warm: Warm, path: str, content: str | None = None) -> int:
    result = warm.run(file_diagnostics.diagnostics(warm.ws, path, content))
    assert result.fresh
    return result.errors


def test_fifty_rounds_of_break_and_fix_are_never_stale(watched: tuple[Warm, Language]) -> None:
    warm, language = watched
    path = warm.root / language.path("flip")
    stale = 0
    for round_ in range(50):
        broken = round_ % 2 == 0
        path.write_text(language.broken if broken else language.fine)
        stale += errors(warm, language.path("flip")) != (1 if broken else 0)
    assert stale == 0


def test_a_changed_signature_reaches_the_caller(watched: tuple[Warm, Language]) -> None:
    warm, language = watched
    callee = warm.root / language.path("lib")
    callee.write_text(language.callee_one)
    (warm.root / language.path("caller")).write_text(language.caller)
    assert errors(warm, language.path("caller")) == 0
    for _ in range(3):  # the callee is never opened: only the watcher tells the server
        callee.write_text(language.callee_two)
        assert errors(warm, language.path("caller")) == 1
        callee.write_text(language.callee_one)
        assert errors(warm, language.path("caller")) == 0


def test_created_deleted_and_renamed_files(watched: tuple[Warm, Language]) -> None:
    warm, language = watched
    late = warm.root / language.path("late")
    (warm.root / language.path("importer")).write_text(language.importer)
    assert errors(warm, language.path("importer")) == 1  # `late` does not exist yet
    late.write_text(language.late)
    assert errors(warm, language.path("importer")) == 0
    renamed = late.rename(warm.root / language.path("later"))
    assert errors(warm, language.path("importer")) == 1
    renamed.rename(late)
    assert errors(warm, language.path("importer")) == 0
    late.unlink()
    assert errors(warm, language.path("importer")) == 1
    late.write_text(language.late)
    assert errors(warm, language.path("importer")) == 0


def test_an_open_file_deleted_and_written_again_is_reopened(
    watched: tuple[Warm, Language],
) -> None:
    warm, language = watched
    path = warm.root / language.path("phoenix")
    path.write_text(language.fine)
    assert errors(warm, language.path("phoenix")) == 0
    path.unlink()
    warm.run(warm.ws.refresh_open_documents(catch_up=True))
    assert not any(d.path == path for s in warm.ws.sessions.values() for d in s.documents.values())
    path.write_text(language.broken)
    warm.run(warm.ws.refresh_open_documents(catch_up=True))
    assert any(d.path == path for s in warm.ws.sessions.values() for d in s.documents.values())
    assert errors(warm, language.path("phoenix")) == 1


def test_a_burst_of_500_writes_leaves_answers_right(watched: tuple[Warm, Language]) -> None:
    """Like a branch switch: many files at once, then questions right away."""
    warm, language = watched
    burst = warm.root / language.folder / "burst"
    burst.mkdir()
    for index in range(500):
        (burst / f"m{index}{language.suffix}").write_text(language.fine)
    callee = warm.root / language.path("lib")
    callee.write_text(language.callee_two)
    (warm.root / language.path("caller")).write_text(language.caller)
    assert errors(warm, language.path("caller")) == 1
    hover = warm.run(navigation.hover(warm.ws, language.path("caller"), line=3, column=1))
    assert "b" in hover.contents  # the new signature, with its second parameter
    callee.write_text(language.callee_one)
    assert errors(warm, language.path("caller")) == 0


def test_unsaved_content_never_leaks_into_other_answers(watched: tuple[Warm, Language]) -> None:
    warm, language = watched
    target = language.path("overlay")
    (warm.root / target).write_text(language.fine)

    async def mixed() -> list[int]:
        calls = [
            file_diagnostics.diagnostics(warm.ws, target, language.broken if i % 2 else None)
            for i in range(10)
        ]
        return [result.errors for result in await asyncio.gather(*calls)]

    assert warm.run(mixed()) == [0, 1] * 5  # each caller sees its own text, never another's
    assert errors(warm, target) == 0
    symbols = warm.run(symbols_ops.document_symbols(warm.ws, target))
    assert [s.name_path for s in symbols.symbols] == ["x"]


def test_a_diagnostics_timeout_is_an_error_naming_the_server(tmp_path: Path) -> None:
    """A server that never publishes gets an explicit timeout, never an empty list."""
    (tmp_path / "a.fake").write_text("text\n")
    silent = ServerDefinition(
        name="fake-ls",
        language="fake",
        command=(sys.executable, str(FAKE_SERVER), "--mode", "normal"),
        extensions={".fake": "fake"},
    )

    async def scenario() -> None:
        ws = Workspace(tmp_path, diagnostics_timeout=0.5, log_dir=tmp_path / "logs")
        session = ws.session(silent)
        try:
            document = await session.sync_document(tmp_path / "a.fake", "text\n", "fake")
            with pytest.raises(ServerTimeout, match=r"fake-ls .*within 0.5 s.*not clean"):
                await session.diagnostics(document, ws.diagnostics_timeout)
        finally:
            await ws.close()

    asyncio.run(scenario())


def test_workspace_diagnostics_are_fresh_and_keep_the_files_open(
    watched: tuple[Warm, Language],
) -> None:
    # With a watcher (as in the daemon) the files a check opened on a pull server stay
    # open, in step with the disk, so the next check costs what changed (lspd.ops.check);
    # TypeScript's are checked by its builder and never opened in tsserver (engine.builders).
    warm, language = watched
    folder = warm.root / language.folder / "scan"
    folder.mkdir()
    (folder / f"bad{language.suffix}").write_text(language.broken)
    (folder / f"good{language.suffix}").write_text(language.fine)
    glob = f"{language.folder}/scan/*"
    result = warm.run(check_ops.workspace_diagnostics(warm.ws, paths=[glob]))
    assert (result.files_matched, result.files_checked, result.errors) == (2, 2, 1)
    assert result.files[0].path == f"{language.folder}/scan/bad{language.suffix}"
    assert warm.ws.holds(folder / f"bad{language.suffix}") is (language is not TYPESCRIPT)
    (folder / f"good{language.suffix}").write_text(language.broken)  # no sleep
    assert warm.run(check_ops.workspace_diagnostics(warm.ws, paths=[glob])).errors == 2
