"""`check --baseline HEAD PATHS` of a file outside the gate whose checker stopped at a syntax
error at HEAD (`ops/beyond_gate.py`: the files outside the gate checked at the baseline's
texts, `Part.before_stops`; tsserver's held answer's stop, `changes.diagnose`): what the
checker did not check there is not introduced, as for the gate's files (the kept result's
stops). The gate is src/ (tsconfig's include); test/a.ts, outside it (tsserver's inferred
project), is committed with a type error and a syntax error (tsc says the syntax error
alone), then fixed: its type error, not checked at HEAD, was introduced. (mypy checks no
file outside its `files`: no stop of its there.) Real tsserver (lspd's TypeScript 5.9),
its tsc asserted beside."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.ops.test_file_since_kept_stops import ts_project
from tests.workspace.toolchains import node_executable

WRONG = 'export const wrong: number = "x";\n'
BROKEN = WRONG + "export function broken( {\n"  # tsc stops at test/a.ts:3 (its end)


def tsc(root: Path, path: str) -> list[str]:
    """tsc's own errors of one file (outside every tsconfig), as its inferred project."""
    done = subprocess.run(
        [node_executable(), "node_modules/typescript/bin/tsc", "--noEmit", "--pretty", "false",
         "--strict", path],
        cwd=root, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done.stdout.splitlines()


def test_what_tsc_did_not_check_at_head_outside_the_gate_is_not_introduced(
    tmp_path: Path,
) -> None:
    root = ts_project(tmp_path)
    test = root / "test/a.ts"
    test.parent.mkdir()
    test.write_text(BROKEN)
    subprocess.run(["git", "add", "test"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "test"], cwd=root, check=True)
    assert tsc(root, "test/a.ts") == ["test/a.ts(3,1): error TS1005: '}' expected."]
    test.write_text(WRONG)
    assert tsc(root, "test/a.ts")[0].startswith("test/a.ts(1,14): error TS2322")

    async def ask(ws: Workspace) -> Any:
        return await workspace_diagnostics(ws, ["test/a.ts"], baseline="HEAD")

    changes = answer(root, ask).changes
    assert changes is not None and "1 file(s) outside the gate" in changes.scope, changes.scope
    assert (changes.introduced, changes.stopped) == ([], [])
    assert [(d.path, d.line, d.code) for d in changes.fixed] == [("test/a.ts", 3, "1005")]
    assert [s.model_dump() for s in changes.baseline_stopped] == [
        {
            "checker": "tsc",
            "at": ["test/a.ts:3"],
            "files": ["test/a.ts"],
            "not_checked": 1,
            "why": None,
        }
    ]
