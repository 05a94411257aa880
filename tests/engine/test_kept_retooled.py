"""A toolchain changed between a saved kept result and a restart (`engine/kept.made_before`):
the note names it as the live daemon does ("the toolchain changed since its result was made
(mypy 1.13.0 (.venv/bin/python) -> mypy 2.4.1 (.venv/bin/python))"). Before, the result
made again after the restart was said "(checked)" alone: the one it replaced was the saved
one of the earlier toolchain, which nothing read. Real mypy 1.13.0 and 2.4.1, real
TypeScript 5.4.5 and lspd's 5.9, each's own run asserted beside it; one-shot questions,
each a fresh workspace reading the same state directory (as a restarted daemon)."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import mypy_113
from tests.ops.test_new_files import lspd_typescript
from tests.ops.test_since_kept_toolchain import ARG_TYPE, FILES, FILTER, TS2322
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_tsbuilder_syntax import CONFIG, tsc_of
from tests.workspace.toolchains import typescript_committed

CHANGED = "the toolchain changed since its result was made"


async def since_head(ws: Workspace) -> object:
    return await workspace_diagnostics(ws, baseline="HEAD")


def test_a_restart_names_another_mypy(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES, mypy_113()))
    assert cli_errors(root) == []
    first = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert "(checked)" in first.scope and CHANGED not in first.scope
    (root / ".venv").unlink()
    (root / ".venv").symlink_to(mypy_env())  # mypy 2.4.1 installed in its place
    assert [(f, line, code) for f, line, _, code, _ in cli_errors(root)] == [ARG_TYPE]
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
    moved = "(mypy 1.13.0 (.venv/bin/python) -> mypy 2.4.1 (.venv/bin/python))"
    assert f"(checked; {CHANGED} {moved}: checked again by it)" in since.scope
    again = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert "(read back)" in again.scope and CHANGED not in again.scope  # said once


def test_a_restart_names_another_typescript(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/f.ts": FILTER})
    assert tsc_of(root, tmp_path, {})[0] == TS2322
    first = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert (first.introduced, first.unchanged) == ([], 1)
    (root / "node_modules" / "typescript").unlink()
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    assert tsc_of(root, tmp_path, {}) == []
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert (since.introduced, since.fixed, since.unchanged) == ([], [], 0)
    assert f"(checked; {CHANGED} (typescript 5.4.5, project -> typescript 5.9" in since.scope
