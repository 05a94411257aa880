"""A TypeScript solution-style layout (Vite's: tsconfig.json `{"files": [], "references":
[app, node]}`) checked as its gate, `tsc -b`, checks it (`engine/solution_check.py`): a file
both referenced projects include is checked under each one's options, and each program's
errors of it are counted, as `tsc -b` prints them (a `document` use: nothing under the app's
lib DOM, TS2584 under the node's ES2023; an error both see: twice). The project's own
`tsc -b` on 7.0.2 and 5.9.3 asserted beside."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import solution_check
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from lspd.servers.registry import node_executable
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

OPTIONS = {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "bundler",
    "types": [],
    "skipLibCheck": True,
    "noEmit": True,
    "strict": True,
}
APP = {"tsBuildInfoFile": "./node_modules/.tmp/app.tsbuildinfo", "lib": ["ES2021", "DOM"]}
NODE = {"tsBuildInfoFile": "./node_modules/.tmp/node.tsbuildinfo", "lib": ["ES2023"]}
SHAPES = "export const width: number = 3;\n"
FILES = {
    "tsconfig.json": json.dumps(
        {
            "files": [],
            "references": [{"path": "./tsconfig.app.json"}, {"path": "./tsconfig.node.json"}],
        }
    ),
    "tsconfig.app.json": json.dumps({"compilerOptions": {**OPTIONS, **APP}, "include": ["app"]}),
    "tsconfig.node.json": json.dumps(
        {"compilerOptions": {**OPTIONS, **NODE}, "include": ["tools"]}
    ),
    "app/shapes.ts": SHAPES,
    "app/main.ts": 'import { width } from "./shapes";\nexport const area: string = width * 2;\n',
    "tools/build.ts": "export const out = 'dist';\n",
}
SHARED = ["tools", "app/shapes.ts"]  # tsconfig.node.json's include, app/shapes.ts added
DOCUMENT = "export const title = document.title;\n"  # fine in the app, TS2584 in node
LINE = re.compile(r"^(.+?)\((\d+),(\d+)\): error TS(\d+): (.*)$")


TS59 = "5.9.3"  # `tsc -b` of referenced projects without `composite` (noEmit): 5.6 and later


@pytest.fixture(params=[TS7_PINNED, TS59])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """The solution layout on TypeScript 7.0.2 and 5.9.3, committed, the watcher running."""
    yield from solution(tmp_path, FILES, request.param)


def solution(tmp_path: Path, files: dict[str, str], version: str) -> Iterator[Warm]:
    """`files` on TypeScript `version` (linked into node_modules), committed, watched."""
    root = written(tmp_path / "ts", files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    yield from watched(committed(root), tmp_path / "logs")


def tsc_b(root: Path) -> list[tuple[str, int, int, int, str]]:
    """The project's gate: `tsc -b` from cold (its build info removed), each error."""
    shutil.rmtree(root / "node_modules" / ".tmp", ignore_errors=True)
    done = subprocess.run(
        [node_executable(), "node_modules/typescript/bin/tsc", "-b", "--pretty", "false"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = [LINE.match(line) for line in done.stdout.splitlines()]
    return sorted((m[1], int(m[2]), int(m[3]), int(m[4]), m[5]) for m in found if m)


def checked(warm: Warm) -> list[tuple[str, int, int, int, str]]:
    found = warm.run(check_all(warm.ws)).everything
    return sorted((str(d.path), d.line, d.column, int(str(d.code)), d.message) for d in found)


def shared(root: Path, text: str) -> None:
    """tsconfig.node.json includes app/shapes.ts too, and app/shapes.ts gets `text`."""
    config = json.loads((root / "tsconfig.node.json").read_text())
    (root / "tsconfig.node.json").write_text(json.dumps({**config, "include": SHARED}))
    (root / "app/shapes.ts").write_text(SHAPES + text)


def introduced(warm: Warm) -> list[tuple[str, int, int]]:
    answer = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
    assert answer.changes is not None
    return sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)


def test_a_file_in_both_programs_is_checked_under_each(project: Warm) -> None:
    root = project.root
    assert (
        checked(project)
        == tsc_b(root)
        == [("app/main.ts", 2, 14, 2322, "Type 'number' is not assignable to type 'string'.")]
    )
    shared(root, DOCUMENT)
    truth = tsc_b(root)
    assert ("app/shapes.ts", 2, 22, 2584) in [t[:4] for t in truth]
    assert checked(project) == truth
    assert introduced(project) == [("app/shapes.ts", 2, 2584)]


def test_an_error_both_programs_see_counts_once_per_program(project: Warm) -> None:
    root = project.root
    shared(root, 'export const dup: number = "x";\n')
    truth = tsc_b(root)
    assert [t[:4] for t in truth].count(("app/shapes.ts", 2, 14, 2322)) == 2
    assert checked(project) == truth
    assert introduced(project) == [("app/shapes.ts", 2, 2322), ("app/shapes.ts", 2, 2322)]


def test_a_syntax_error_stops_its_program_alone(project: Warm) -> None:
    root = project.root  # tsc -b: the app program's syntax error alone, its type error unsaid
    (root / "app/main.ts").write_text(
        'import { width } from "./shapes";\nexport const area = (width;\n'
    )
    truth = tsc_b(root)
    assert [t[:4] for t in truth] == [("app/main.ts", 2, 27, 1005)]
    assert checked(project) == truth
    answer = project.run(workspace_diagnostics(project.ws, baseline="HEAD"))
    assert answer.changes is not None
    assert [(d.path, d.code) for d in answer.changes.introduced] == [("app/main.ts", "1005")]
    assert [(s.checker, s.at) for s in answer.changes.stopped] == [("tsc", ["app/main.ts:2"])]
    assert [d.path for d in answer.changes.fixed] == []


def test_a_preview_rechecks_the_importers_in_the_referenced_program(project: Warm) -> None:
    root = project.root  # the builder of tsconfig.app.json, not of the solution's (no file)
    before = tsc_b(root)
    change = [{"path": "app/shapes.ts", "content": 'export const width: string = "3";\n'}]
    answer = project.run(previewed(project.ws, change))
    got = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)
    (root / "app/shapes.ts").write_text(str(change[0]["content"]))
    after = tsc_b(root)
    assert got == sorted((t[0], t[1], t[3]) for t in after if t not in before)
    assert got == [("app/main.ts", 2, 2362)]


def test_a_preview_of_a_file_in_both_programs_checks_it_in_each(project: Warm) -> None:
    # TypeScript 5: each program's builder over the texts; 7: the server, and each other
    # program's own tsc -p on a copy holding them (its server answers from the app's alone)
    root = project.root  # on disk: the error both programs see; the preview adds `document`
    shared(root, 'export const dup: number = "x";\n')
    before = tsc_b(root)
    checked(project)  # the disk's check first, as a daemon holds it
    text = SHAPES + 'export const dup: number = "x";\n' + DOCUMENT
    answer = project.run(previewed(project.ws, [{"path": "app/shapes.ts", "content": text}]))
    got = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)
    (root / "app/shapes.ts").write_text(text)
    after = tsc_b(root)
    assert got == sorted((t[0], t[1], t[3]) for t in after if t not in before)
    assert (got, answer.changes.fixed) == ([("app/shapes.ts", 3, 2584)], [])


def test_a_preview_fixing_the_other_programs_error_says_it_fixed(project: Warm) -> None:
    # the disk's state asked again (a second sample, `engine/second_sample.py`) held the
    # server's answer alone: the node program's TS2584 was in one check of the disk, not in
    # the other, so not fixed
    root = project.root
    shared(root, DOCUMENT)
    before = tsc_b(root)
    checked(project)
    answer = project.run(previewed(project.ws, [{"path": "app/shapes.ts", "content": SHAPES}]))
    fixed = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.fixed)
    (root / "app/shapes.ts").write_text(SHAPES)
    after = tsc_b(root)
    assert fixed == sorted((t[0], t[1], t[3]) for t in before if t not in after)
    assert (answer.changes.introduced, fixed) == ([], [("app/shapes.ts", 2, 2584)])


def test_the_other_programs_errors_end_where_the_servers_do(project: Warm) -> None:
    # tsc -p's errors of the node program (--pretty false) had a start alone: the error both
    # programs see said at 2:14-2:14 beside the server's 2:14-2:17
    shared(project.root, 'export const dup: number = "x";\n' + DOCUMENT)
    found = project.run(check_all(project.ws)).everything
    spans = [(str(d.path), d.line, d.column, d.end_line, d.end_column, d.code) for d in found]
    assert sorted(spans) == [
        ("app/main.ts", 2, 14, 2, 18, "2322"),
        ("app/shapes.ts", 2, 14, 2, 17, "2322"),
        ("app/shapes.ts", 2, 14, 2, 17, "2322"),
        ("app/shapes.ts", 3, 22, 3, 30, "2584"),
    ]


def test_a_files_diagnostics_hold_each_programs_errors(project: Warm) -> None:
    root = project.root
    project.run(check_all(project.ws))  # the gate's scope read, as a daemon holds it
    shared(root, DOCUMENT)
    found = project.run(diagnostics(project.ws, "app/shapes.ts")).diagnostics
    assert [(d.line, d.column, d.code) for d in found] == [(2, 22, "2584")]
    answer = project.run(diagnostics(project.ws, "app/shapes.ts", baseline="HEAD"))
    assert answer.changes is not None
    assert [(d.line, d.code) for d in answer.changes.introduced] == [(2, "2584")]


@pytest.mark.parametrize("version", [TS7_PINNED, TS59])
def test_a_dirty_tree_s_head_state_checks_it_in_each(tmp_path: Path, version: str) -> None:
    # HEAD's state made of HEAD's texts held over a dirty tree (`overlaid_state`): on
    # TypeScript 7 the server alone answered app/shapes.ts there, so the node program's
    # TS2584, which only moved a line, was new
    node = json.loads(FILES["tsconfig.node.json"])
    files = {
        **FILES,
        "tsconfig.node.json": json.dumps({**node, "include": SHARED}),
        "app/shapes.ts": SHAPES + DOCUMENT,
    }
    root = written(tmp_path / "ts", files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    committed(root)
    before = tsc_b(root)
    (root / "app/shapes.ts").write_text("// moved\n" + SHAPES + DOCUMENT)
    after = tsc_b(root)
    assert [t[:4] for t in after if t[0] == "app/shapes.ts"] == [("app/shapes.ts", 3, 22, 2584)]
    assert len(before) == len(after) == 2
    for warm in watched(root, tmp_path / "logs"):
        answer = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert answer.changes is not None
        assert (answer.changes.introduced, answer.changes.fixed) == ([], [])
        assert answer.changes.unchanged == 2


def test_a_dirty_tree_s_new_error_in_the_other_program_is_new(tmp_path: Path) -> None:
    # TypeScript 7, the daemon started with the `document` use written (HEAD's state made of
    # HEAD's texts held): tsc -b says TS2584 new. The second sample of the disk's state
    # (committed._again) was the server's answer alone, so the node program's TS2584 was in
    # one check of the changed text only: 0 new
    node = json.loads(FILES["tsconfig.node.json"])
    files = {**FILES, "tsconfig.node.json": json.dumps({**node, "include": SHARED})}
    root = written(tmp_path / "ts", files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    committed(root)
    before = tsc_b(root)
    (root / "app/shapes.ts").write_text(SHAPES + DOCUMENT)
    new = [(t[0], t[1], t[3]) for t in tsc_b(root) if t not in before]
    assert new == [("app/shapes.ts", 2, 2584)]
    for warm in watched(root, tmp_path / "logs"):
        assert introduced(warm) == new


def test_the_whole_checks_progress_counts_the_tsconfigs_asked_after_its_files(
    tmp_path: Path,
) -> None:
    """The whole check asks `tsc --listFilesOnly` of each referenced program holding a file
    (its configuration's errors, as `tsc -b` says them) after every file is answered: its
    progress counts those runs, so it says all done only once they ran. Before, '3 of 3'
    while they ran (a post-edit hook: 'the gate's files: 250 of 250 checked' for seconds on
    a 250-file solution, the check still running)."""
    told: list[tuple[int, int, int]] = []  # done, total, and the programs asked by then

    def progress(root: Path, done: int, total: int) -> None:
        told.append((done, total, sum(k[0] == root for k in solution_check._configs_ran)))

    for warm in solution(tmp_path, FILES, TS59):
        warm.run(check_all(warm.ws, progress=functools.partial(progress, warm.root)))
    assert told[-1] == (5, 5, 2)  # 3 files, then tsconfig.app.json and tsconfig.node.json
    assert [t for t in told if t[0] == t[1]] == [(5, 5, 2)]


def test_a_preview_of_a_new_file_both_programs_include_checks_it_in_each(project: Warm) -> None:
    # a new file no check has placed yet. TypeScript 5: its items came of its nearest
    # tsconfig's program alone, the solution's, which holds none (hono's spec and build
    # programs: the build's TS6133 went unsaid); 7: of the program its server answers from
    for _ in (project,):
        root = project.root
        config = json.loads((root / "tsconfig.node.json").read_text())
        (root / "tsconfig.node.json").write_text(
            json.dumps({**config, "include": ["tools", "app"]})
        )
        before = tsc_b(root)
        checked(project)  # the disk's check first, as a daemon holds it
        text = 'export const dup: number = "x";\n' + DOCUMENT
        answer = project.run(previewed(project.ws, [{"path": "app/new.ts", "content": text}]))
        got = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)
        (root / "app/new.ts").write_text(text)
        after = tsc_b(root)
        assert got == sorted((t[0], t[1], t[3]) for t in after if t not in before)
        assert got == [("app/new.ts", 1, 2322), ("app/new.ts", 1, 2322), ("app/new.ts", 2, 2584)]
