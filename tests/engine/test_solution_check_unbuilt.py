"""A file a referenced program includes whose nearest tsconfig.json no solution references
(issue 40): tsconfig.json references tsconfig.app.json alone, which includes src/**, so
src/tools/x.ts too; src/tools/tsconfig.json, the file's nearest, is built by no `tsc -b`.
The gate checks the file in the app's program (lib ES2023, no DOM: a `document` use is
TS2584) and never in the tools' (lib DOM: nothing), so lspd says the app's errors of it,
never the tools'. The project's own `tsc -b` on 7.0.2 and 5.9.3 asserted beside."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import program_runs, solution_check
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm, answer
from tests.engine.test_affected import written
from tests.engine.test_solution_check import (
    OPTIONS,
    TS59,
    checked,
    introduced,
    solution,
    tsc_b,
)
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

APP = {"tsBuildInfoFile": "./node_modules/.tmp/app.tsbuildinfo", "lib": ["ES2023"]}
FILES = {
    "tsconfig.json": json.dumps({"files": [], "references": [{"path": "./tsconfig.app.json"}]}),
    "tsconfig.app.json": json.dumps({"compilerOptions": {**OPTIONS, **APP}, "include": ["src"]}),
    "src/tools/tsconfig.json": json.dumps(
        {"compilerOptions": {**OPTIONS, "lib": ["ES2023", "DOM"]}}
    ),
    "src/main.ts": "export const width: number = 3;\n",
    "src/tools/x.ts": "export const out = 'dist';\n",
}
DOCUMENT = "export const title = document.title;\n"  # TS2584 in the app, fine in the tools


@pytest.fixture(params=[TS7_PINNED, TS59])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    yield from solution(tmp_path, FILES, request.param)


def file_errors(warm: Warm, path: str, baseline: str | None = None) -> list[tuple[int, int]]:
    answer = warm.run(diagnostics(warm.ws, path, baseline=baseline))
    return sorted((d.line, int(str(d.code))) for d in answer.diagnostics)


def test_the_app_programs_errors_of_a_file_whose_nearest_is_unbuilt(project: Warm) -> None:
    root = project.root
    assert checked(project) == tsc_b(root) == []
    (root / "src/tools/x.ts").write_text(DOCUMENT)
    truth = tsc_b(root)
    assert [t[:4] for t in truth] == [("src/tools/x.ts", 1, 22, 2584)]
    assert checked(project) == truth
    assert file_errors(project, "src/tools/x.ts") == [(1, 2584)]
    assert introduced(project) == [("src/tools/x.ts", 1, 2584)]


def test_the_unbuilt_programs_own_errors_are_never_said(project: Warm) -> None:
    # src/tools/tsconfig.json reports unused locals, the app's program does not: tsc -b
    # never checks the file under the tools' options, so neither does lspd
    root = project.root
    tools = json.loads(FILES["src/tools/tsconfig.json"])
    tools["compilerOptions"]["noUnusedLocals"] = True
    (root / "src/tools/tsconfig.json").write_text(json.dumps(tools))
    (root / "src/tools/x.ts").write_text("const unused = 1;\nexport const out = 'dist';\n")
    assert tsc_b(root) == []
    assert checked(project) == []
    assert file_errors(project, "src/tools/x.ts") == []
    assert introduced(project) == []
    assert file_errors(project, "src/tools/x.ts", baseline="HEAD") == []


def test_a_preview_and_a_files_baseline_say_the_app_programs_error(project: Warm) -> None:
    root = project.root
    checked(project)  # the disk's check first, as a daemon holds it
    answer = project.run(previewed(project.ws, [{"path": "src/tools/x.ts", "content": DOCUMENT}]))
    got = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)
    assert got == [("src/tools/x.ts", 1, 2584)]
    (root / "src/tools/x.ts").write_text(DOCUMENT)
    assert [t[:4] for t in tsc_b(root)] == [("src/tools/x.ts", 1, 22, 2584)]
    found = project.run(diagnostics(project.ws, "src/tools/x.ts", baseline="HEAD"))
    assert found.changes is not None
    assert [(d.line, d.code) for d in found.changes.introduced] == [(1, "2584")]


@pytest.mark.parametrize("version", [TS7_PINNED, TS59])
def test_one_shot_questions_say_the_app_programs_error(tmp_path: Path, version: str) -> None:
    root = written(tmp_path / "ts", FILES)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    committed(root)
    (root / "src/tools/x.ts").write_text(DOCUMENT)
    assert [t[:4] for t in tsc_b(root)] == [("src/tools/x.ts", 1, 22, 2584)]
    result = answer(root, lambda ws: diagnostics(ws, "src/tools/x.ts"))
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(1, 22, "2584")]
    found = answer(root, lambda ws: workspace_diagnostics(ws, limit=100)).diagnostics
    assert [(d.path, d.line, d.code) for d in found] == [("src/tools/x.ts", 1, "2584")]
    head = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    assert head.changes is not None
    assert [(d.path, d.line, d.code) for d in head.changes.introduced] == [
        ("src/tools/x.ts", 1, "2584")
    ]
    one = answer(root, lambda ws: diagnostics(ws, "src/tools/x.ts", baseline="HEAD"))
    assert one.changes is not None
    assert [(d.line, d.code) for d in one.changes.introduced] == [(1, "2584")]


def test_the_whole_checks_progress_counts_the_unbuilt_files_program(tmp_path: Path) -> None:
    # TypeScript 7 answers src/tools/x.ts from its build's program too: that program's own
    # tsc -p, seconds on a cold one, ran uncounted (2 of 3 files shown while it ran)
    told: list[tuple[int, int, int, int]] = []  # done, total, programs run and listed then

    def progress(root: Path, done: int, total: int) -> None:
        ran = sum(k[0] == root for k in program_runs._ran)
        told.append((done, total, ran, sum(k[0] == root for k in solution_check._configs_ran)))

    for warm in solution(tmp_path, FILES, TS7_PINNED):
        (warm.root / "src/tools/x.ts").write_text(DOCUMENT)
        found = warm.run(check_all(warm.ws, progress=functools.partial(progress, warm.root)))
        assert [(d.path, d.code) for d in found.everything] == [("src/tools/x.ts", "2584")]
    # 2 files, the app's program for src/tools/x.ts (tsc -p), its listing (tsc -b's errors)
    assert told[-1] == (4, 4, 1, 1)
    assert [t for t in told if t[0] == 3] == [(3, 4, 1, 0)]
