"""A file two tsconfig programs hold outside a solution-style layout (ts-pattern's:
tsconfig.json includes src, tests/tsconfig.json includes ../src and tests), checked in each
(`engine/solution_check.py`): its gate is `tsc -p .` and `tsc -p tests`, so lspd's errors
are the union of theirs, an error both say said once. TypeScript 5.4.5's builder gave
src/x.ts to the root program alone: tests' noUnusedLocals TS6133 there was never said."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm
from tests.engine.test_affected import watched
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_committed

OPTIONS: dict[str, object] = {"target": "ES2022", "module": "ESNext", "types": []}
OPTIONS |= {"moduleResolution": "bundler", "strict": True, "noEmit": True, "skipLibCheck": True}
TESTS = {"compilerOptions": {**OPTIONS, "noUnusedLocals": True}, "include": ["../src", "."]}
X = "export function f(): number {\n  const unused = 1;\n  return 2;\n}\n"
X += 'export const bad: number = "x";\n'  # both programs: said once, as each gate says it
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "tests/tsconfig.json": json.dumps(TESTS),
    "src/x.ts": X,
    "tests/x.test.ts": 'import { f } from "../src/x";\nexport const y: number = f();\n',
}
LINE = re.compile(r"^(.+?)\((\d+),(\d+)\): error TS(\d+): ")
Error = tuple[str, int, int, int]


@pytest.fixture(params=[TS_PINNED, TS7_PINNED])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """The layout on TypeScript 5.4.5 and 7.0.2, committed, the watcher running."""
    root = typescript_committed(tmp_path / "ts", FILES, request.param)
    yield from watched(root, tmp_path / "logs")


def tsc_p(root: Path, config: str) -> set[Error]:
    """`tsc -p CONFIG`'s errors (file, line, column, code)."""
    found = [LINE.match(s) for s in own_tsc(root, "-p", config, "--pretty", "false").splitlines()]
    return {(m[1], int(m[2]), int(m[3]), int(m[4])) for m in found if m}


def gate(root: Path) -> list[Error]:
    """The union of the project's two gates' errors, each once."""
    return sorted(tsc_p(root, ".") | tsc_p(root, "tests"))


def checked(warm: Warm) -> list[Error]:
    found = warm.run(check_all(warm.ws)).everything
    return sorted((str(d.path), d.line, d.column, int(str(d.code))) for d in found)


def test_a_file_two_configs_hold_has_the_errors_of_each(project: Warm) -> None:
    root = project.root
    assert tsc_p(root, ".") == {("src/x.ts", 5, 14, 2322)}
    assert tsc_p(root, "tests") == {("src/x.ts", 2, 9, 6133), ("src/x.ts", 5, 14, 2322)}
    assert checked(project) == gate(root) == [("src/x.ts", 2, 9, 6133), ("src/x.ts", 5, 14, 2322)]
    found = project.run(diagnostics(project.ws, "src/x.ts")).diagnostics
    assert sorted((d.line, d.column, d.code) for d in found) == [(2, 9, "6133"), (5, 14, "2322")]


def test_an_unused_local_added_is_new_in_a_baseline_check_and_a_preview(project: Warm) -> None:
    root = project.root
    checked(project)  # the disk's check first, as a daemon holds it
    text = X + "const other = 2;\n"  # noUnusedLocals: TS6133 in tests' program alone
    answer = project.run(previewed(project.ws, [{"path": "src/x.ts", "content": text}]))
    got = [(str(d.path), d.line, d.column, int(str(d.code))) for d in answer.changes.introduced]
    assert (got, answer.changes.fixed) == ([("src/x.ts", 6, 7, 6133)], [])
    before = gate(root)
    (root / "src/x.ts").write_text(text)
    after = gate(root)
    assert [e for e in after if e not in before] == [("src/x.ts", 6, 7, 6133)]
    assert checked(project) == after
    base = project.run(workspace_diagnostics(project.ws, baseline="HEAD"))
    assert base.changes is not None
    new = sorted((str(d.path), d.line, d.column, int(str(d.code))) for d in base.changes.introduced)
    assert new == [("src/x.ts", 6, 7, 6133)]


def test_a_body_edit_keeps_the_other_programs_errors_where_the_own_declares(
    tmp_path: Path,
) -> None:
    """immer's: its root tsconfig declares (`declaration`), so its preview answers every file
    anew, and tests' program, not asked of the file, gave it nothing: a body edit of an
    importer said "fixed" of tests' TS6133 in src/x.ts, and `check --baseline` "introduced"."""
    files = dict(FILES)
    declaring = {**OPTIONS, "declaration": True}
    files["tsconfig.json"] = json.dumps({"compilerOptions": declaring, "include": ["src"]})
    files["src/y.ts"] = (
        'import { f } from "./x";\nexport function g(): number {\n  return f();\n}\n'
    )
    root = typescript_committed(tmp_path / "ts", files, TS_PINNED)
    body = files["src/y.ts"].replace("  return f();", "  const twice = f() * 2;\n  return twice;")
    for warm in watched(root, tmp_path / "logs"):
        assert checked(warm) == gate(root)
        answer = warm.run(previewed(warm.ws, [{"path": "src/y.ts", "content": body}]))
        assert (answer.changes.introduced, answer.changes.fixed) == ([], [])
        (root / "src/y.ts").write_text(body)
        assert checked(warm) == gate(root)
        base = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert base.changes is not None
        assert (base.changes.introduced, base.changes.fixed) == ([], [])
