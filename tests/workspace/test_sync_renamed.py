"""A module renamed away and back reaches TypeScript 5.9's tsserver: its importer's answer
is tsc -p's again (issue 40: `Cannot find module './shapes'` stayed for good on a clean tree).

tsserver drops a watcher event of a file open in it, so lspd tells a file created before it
opens it again; the events seen while a file's lock is held (a baseline's texts held, a
question of unsaved content) are told once the lock is let go."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.ops.file_diagnostics import diagnostics
from lspd.workspace.overlay import overlaid
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import gate, typescript_committed

TS59 = "5.9.3"
SHAPES = (
    "export interface Person { name: string; age: number }\n"
    "export function label(p: Person): string { return p.name }\n"
)
MAIN = (
    "import { type Person, label } from './shapes'\n"
    "\n"
    "export const p: Person = { name: 'a', age: 'x' }\n"
    "export const l: string = label(p)\n"
)
EDITED = SHAPES.replace("age: number", "age: string")
CONFIG = (
    '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022", '
    '"module": "esnext", "moduleResolution": "bundler"}, "include": ["app"]}\n'
)
ERROR = re.compile(r"^app/main\.ts\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Found = list[tuple[int, int, str]]
Said = list[tuple[str, str]]  # (method, how: the watched change's type, or "")


def git(root: Path, *args: str) -> None:
    who = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *who, *args], cwd=root, check=True, capture_output=True, timeout=60)


def written(root: Path) -> Path:
    """app/main.ts importing app/shapes.ts, on TypeScript 5.9, in git."""
    files = {"app/shapes.ts": SHAPES, "app/main.ts": MAIN, "tsconfig.json": CONFIG}
    return typescript_committed(root, files, TS59)


@pytest.fixture(scope="module")
def truth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Found]:
    """tsc -p's errors of app/main.ts in each state of the test, on a copy of its own."""
    root = written(tmp_path_factory.mktemp("truth") / "ts59")
    found = {"clean": tsc(root)}
    os.rename(root / "app" / "shapes.ts", root / "app" / "model.ts")
    found["renamed"] = tsc(root)
    os.rename(root / "app" / "model.ts", root / "app" / "shapes.ts")
    (root / "app" / "shapes.ts").write_text(EDITED)
    found["edited"] = tsc(root)
    return found


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """The project, watched as the daemon watches it."""
    yield from warm_root(written(tmp_path / "ts59"), tmp_path / "logs", watch=True)


def asked(warm: Warm, path: str) -> Found:
    """`lspd diagnostics PATH`'s errors (tsserver's answer)."""
    result = warm.run(diagnostics(warm.ws, path))
    return sorted((d.line, d.column, d.code or "") for d in result.diagnostics)


def tsc(root: Path) -> Found:
    return sorted((int(a), int(b), c) for a, b, c in ERROR.findall(gate(root)[1]))


def reverted_by_git(warm: Warm) -> None:
    """`git checkout -q HEAD -- .; git clean -qfd`, as the examiner reverted a patch."""
    git(warm.root, "checkout", "-q", "HEAD", "--", ".")
    git(warm.root, "clean", "-qfd")


async def reverted_under_overlay(warm: Warm) -> None:
    """Reverted while a baseline's question holds HEAD's texts of the renamed files (as
    `check --baseline HEAD` does), the watcher's events arriving meanwhile."""
    shapes, model = warm.root / "app" / "shapes.ts", warm.root / "app" / "model.ts"
    async with warm.ws.gate.exclusive(), overlaid(warm.ws, {shapes: SHAPES, model: None}):
        os.rename(model, shapes)
        assert warm.ws.watcher is not None and await warm.ws.watcher.catch_up()


async def reverted_under_lock(warm: Warm) -> None:
    """Reverted while a call holding other text of the returning file (unsaved content)
    holds its lock (a question of the disk's text lets the events through:
    tests/workspace/test_sync_lock_kind.py)."""
    shapes, model = warm.root / "app" / "shapes.ts", warm.root / "app" / "model.ts"
    async with warm.ws.file_lock(shapes):
        os.rename(model, shapes)
        assert warm.ws.watcher is not None and await warm.ws.watcher.catch_up()


@pytest.mark.parametrize(
    ("revert", "opened"),
    [("git", True), ("git", False), ("overlay", False), ("lock", True)],
    ids=["git-shapes-open", "git-shapes-unopened", "overlay", "lock"],
)
def test_a_module_renamed_away_and_back_resolves_again(
    project: Warm, truth: dict[str, Found], revert: str, opened: bool
) -> None:
    root = project.root
    assert asked(project, "app/main.ts") == truth["clean"] == [(3, 39, "2322")]
    if opened:  # tsserver holds it: lspd closes it when it is deleted
        assert asked(project, "app/shapes.ts") == []
    os.rename(root / "app" / "shapes.ts", root / "app" / "model.ts")
    assert asked(project, "app/main.ts") == truth["renamed"] == [(1, 36, "2307")]

    if revert == "git":
        reverted_by_git(project)
    elif revert == "overlay":
        project.run(reverted_under_overlay(project))
    else:
        project.run(reverted_under_lock(project))
    assert sorted(p.name for p in (root / "app").iterdir()) == ["main.ts", "shapes.ts"]
    # Before: [(1, 36, '2307')] here, and after every later write of app/shapes.ts in place.
    assert asked(project, "app/main.ts") == truth["clean"]
    (root / "app" / "shapes.ts").write_text(EDITED)
    assert asked(project, "app/main.ts") == truth["edited"] == []


def wire(session: Session, path: Path, told: asyncio.Event | None = None) -> Said:
    """What `session`'s server is told of `path` from now on (`told` set once it hears the
    file changed on disk)."""
    said: Said = []
    uri, notify = path_to_uri(path), session.notify

    def recorded(method: str, params: dict[str, Any]) -> None:
        document = params.get("textDocument")
        if isinstance(document, dict) and document.get("uri") == uri:
            said.append((method, ""))
        for change in params.get("changes", []) if method.startswith("workspace/") else []:
            if change["uri"] == uri:
                said.append((method, str(change["type"])))
                if told is not None:
                    told.set()
        notify(method, params)

    session.notify = recorded  # type: ignore[method-assign]
    return said


def test_a_file_replaced_in_place_gets_its_new_text_alone(
    project: Warm, truth: dict[str, Found]
) -> None:
    """An atomic save of a file tsserver holds (there all along: no failed lookup of it) is
    its new text (didChange), not a close, a watcher event and an open (twice as slow a
    checkout of many files held, /tmp/s56rev/checkout_perf.py)."""
    root = project.root
    shapes = root / "app" / "shapes.ts"
    assert asked(project, "app/main.ts") == truth["clean"]
    assert asked(project, "app/shapes.ts") == []
    said = wire(project.ws.session_for(shapes), shapes)
    (root / "app" / "shapes.tmp").write_text(EDITED)
    os.replace(root / "app" / "shapes.tmp", shapes)  # inotify: created
    assert project.ws.watcher is not None and project.run(project.ws.watcher.catch_up())
    # Before: didClose, didChangeWatchedFiles (created), didOpen.
    assert said == [("textDocument/didChange", "")]
    assert asked(project, "app/main.ts") == truth["edited"] == []


async def reverted_under_lock_cut_short(warm: Warm, told: asyncio.Event) -> None:
    """Reverted under the returning file's lock; the telling at the lock's end cancelled
    once the server heard the file is there, while it reopens the file (its start lock held
    here: the one await of the telling)."""
    shapes, model = warm.root / "app" / "shapes.ts", warm.root / "app" / "model.ts"

    async def question() -> None:
        async with warm.ws.file_lock(shapes):
            os.rename(model, shapes)
            assert warm.ws.watcher is not None and await warm.ws.watcher.catch_up()

    async with warm.ws.session_for(shapes)._start_lock:
        task = asyncio.ensure_future(question())
        await told.wait()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert task.cancelled()


def test_changes_kept_back_outlive_a_cancelled_telling(
    project: Warm, truth: dict[str, Found]
) -> None:
    root = project.root
    shapes = root / "app" / "shapes.ts"
    assert asked(project, "app/shapes.ts") == []  # held: closed when deleted, reopened after
    os.rename(shapes, root / "app" / "model.ts")
    assert asked(project, "app/main.ts") == truth["renamed"]
    told = asyncio.Event()
    said = wire(project.ws.session_for(shapes), shapes, told)
    project.run(reverted_under_lock_cut_short(project, told))
    assert said == [("workspace/didChangeWatchedFiles", "1")]  # created; not reopened yet
    assert not project.ws.holds(shapes)
    assert asked(project, "app/main.ts") == truth["clean"]  # its refresh tells them again
    # Before: nothing more (the change kept back was forgotten once taken out to tell).
    assert said[1:] == [("workspace/didChangeWatchedFiles", "1"), ("textDocument/didOpen", "")]
    assert project.ws.holds(shapes)
