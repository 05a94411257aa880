"""The TypeScript builder helper gives back the memory of a big check once it is idle (its
checker dropped), a check asked before then is answered at once and right, the checks
after it decide as before, and a re-check of many files collects the old checker once 20
files are being checked anew (a real helper on lspd's TypeScript)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm
from tests.engine.test_affected import checked_anew, errors, watched
from tests.workspace.toolchains import TS_PINNED, typescript_package

MANY = 60  # over the helper's GC_AFTER: a check of this many files owes a collection
CONFIG = '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}\n'


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    yield from many(tmp_path)


@pytest.fixture(params=[None, TS_PINNED], ids=["lspd's", "5.4"])
def versions(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """The project on lspd's TypeScript and on its own 5.4 (whose builder keeps its state
    behind `getState()`)."""
    yield from many(tmp_path, request.param)


def many(tmp_path: Path, version: str | None = None) -> Iterator[Warm]:
    """`MANY` files importing core.ts, on lspd's TypeScript or the project's own `version`."""
    root = (tmp_path / "ts").resolve()
    if version is not None:
        (root / "node_modules").mkdir(parents=True)
        (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(CONFIG)
    (root / "src/core.ts").write_text("export const one = (): number => 1;\n")
    for i in range(MANY):
        text = f'import {{ one }} from "./core";\nexport const v{i}: number = one() + {i};\n'
        (root / f"src/m{i}.ts").write_text(text)
    yield from watched(root, tmp_path / "logs")


def said(log: Path, words: str) -> list[str]:
    """The helper's log lines containing `words`."""
    text = log.read_text() if log.exists() else ""
    return [line for line in text.splitlines() if words in line]


def returned(log: Path) -> list[str]:
    """The helper's lines saying it gave memory back."""
    return said(log, "memory returned")


def test_a_big_check_returns_memory_when_idle_and_a_check_meanwhile_is_answered(
    project: Warm,
) -> None:
    assert errors(project) == []
    assert len(checked_anew(project)) == MANY + 1
    [builder] = project.ws.builders.values()
    pid = builder.pid

    # Asked right after the big check: answered, not kept waiting for the collection.
    (project.root / "src/m0.ts").write_text("export const v0: number = 'no';\n")
    assert errors(project) == [
        ("src/m0.ts", 1, "Type 'string' is not assignable to type 'number'.")
    ]
    assert checked_anew(project) == ["src/m0.ts"]

    deadline = time.monotonic() + 60
    while not returned(builder.log_path):  # the helper's log line is the event
        assert time.monotonic() < deadline, builder.log_path.read_text()
        project.run(asyncio.sleep(0.1))
    [line] = returned(builder.log_path)  # once: the check meanwhile owed none
    assert "heap used" in line

    (project.root / "src/m0.ts").write_text("export const v0: number = 0;\n")
    assert project.run(check_all(project.ws)).everything == []
    assert checked_anew(project) == ["src/m0.ts"]
    assert builder.pid == pid  # the same helper, its program kept

    # Its checker was dropped with the memory: a declaration change still reaches every importer.
    assert said(builder.log_path, "old checker collected") == []  # no check so far was big
    (project.root / "src/core.ts").write_text("export const one = (): string => '1';\n")
    found = errors(project)
    assert len(found) == MANY - 1  # m0 no longer imports core
    assert ("src/m1.ts", 2, "Type 'string' is not assignable to type 'number'.") in found
    assert len(checked_anew(project)) == MANY
    # m0's check made a checker since the idle collection: it was collected before the
    # 60 files were checked, once.
    [line] = said(builder.log_path, "old checker collected")
    assert "heap used" in line


def test_a_body_edit_right_after_the_cold_check_rechecks_that_file_alone(versions: Warm) -> None:
    project = versions
    assert errors(project) == []
    assert len(checked_anew(project)) == MANY + 1
    # At once: no idle time for the helper to sign every file ahead of an edit. The changed
    # file's old declarations are signed when the builder is next asked.
    core = project.root / "src/core.ts"
    core.write_text(core.read_text() + "// a comment, nothing declared\n")
    assert errors(project) == []
    assert checked_anew(project) == ["src/core.ts"]
    # A JSDoc comment is in the .d.ts, not in what an importer checks against.
    core.write_text("/** The number one. */\n" + core.read_text())
    assert errors(project) == []
    assert checked_anew(project) == ["src/core.ts"]
    core.write_text(core.read_text().replace("The number one", "One"))
    assert errors(project) == []
    assert checked_anew(project) == ["src/core.ts"]
    [builder] = project.ws.builders.values()
    assert returned(builder.log_path) == []  # the idle work had not run
