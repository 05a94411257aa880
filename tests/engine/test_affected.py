"""After an edit, the whole-workspace check asks again only about what the edit can affect:
a TypeScript project through its builder (what it checked anew is asserted, not the time),
with the same results as a fresh check and no file left open in tsserver."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lspd.engine.python_affected import NAMING
from lspd.ops.budget import compact
from lspd.ops.check import check_all, summary
from lspd.ops.check_memory import memory_of
from lspd.ops.file_diagnostics import Known, check_file
from lspd.ops.models import DiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.memory import tidy
from tests.conftest import Warm

CORE = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"
CONFIG = (
    '{"compilerOptions": {"strict": true, "noEmit": true, "target": "ES2020", "module": "commonjs",'
    ' "isolatedModules": ISOLATED}, "include": ["src"]}\n'
)
FILES = {
    "tsconfig.json": CONFIG,
    "src/core.ts": CORE,
    "src/user.ts": 'import { add } from "./core";\nexport const three: number = add(1, 2);\n',
    "src/other.ts": 'import { add } from "./core";\nexport const four = add(2, 2);\n',
    "src/leaf.ts": "export const x: string = 'x';\n",
}


def written(root: Path, files: dict[str, str]) -> Path:
    """`root` (resolved) holding `files` (relative path -> text)."""
    root = root.resolve()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def make(root: Path, isolated: bool) -> Path:
    flag = "true" if isolated else "false"
    return written(root, {name: text.replace("ISOLATED", flag) for name, text in FILES.items()})


# With isolatedModules the builder hands out only the changed file and forgets the
# diagnostics of the files importing it: both ways must re-check the same files.
@pytest.fixture(params=[False, True], ids=["modules", "isolated"])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """A small TypeScript project with its watcher running, as in the daemon."""
    yield from watched(make(tmp_path / "ts", request.param), tmp_path / "logs")


def watched(root: Path, logs: Path) -> Iterator[Warm]:
    runner = asyncio.Runner()
    warm = Warm(Workspace(root, log_dir=logs), runner)
    try:
        assert warm.run(warm.ws.watch())
        yield warm
    finally:
        runner.run(warm.ws.close())
        runner.close()


def checked_anew(warm: Warm) -> list[str]:
    """The files the builder checked again in the last check."""
    [builder] = warm.ws.builders.values()
    [project] = builder.projects.values()
    return sorted(warm.ws.display(p) for p in project.checked)


def errors(warm: Warm) -> list[tuple[str | None, int, str]]:
    found = warm.run(check_all(warm.ws)).everything
    return [(d.path, d.line, d.message) for d in found]


def fresh(root: Path, logs: Path) -> dict[str, object]:
    """The check of a workspace opened anew on the same files."""

    async def run() -> dict[str, object]:
        ws = Workspace(root, log_dir=logs)
        try:
            return compact(summary(await check_all(ws)))
        finally:
            await ws.close()

    return asyncio.run(run())


def test_each_edit_rechecks_only_what_it_can_affect(project: Warm, tmp_path: Path) -> None:
    root = project.root
    assert errors(project) == []
    assert checked_anew(project) == ["src/core.ts", "src/leaf.ts", "src/other.ts", "src/user.ts"]
    first = project.run(check_all(project.ws))
    assert project.run(check_all(project.ws)) is first  # unchanged: last check as it was

    (root / "src/leaf.ts").write_text("export const x: string = 1;\n")
    assert errors(project) == [
        ("src/leaf.ts", 1, "Type 'number' is not assignable to type 'string'.")
    ]
    assert checked_anew(project) == ["src/leaf.ts"]
    second = project.run(check_all(project.ws))
    assert [r for r in second.results if r not in first.results] == [
        r for r in second.results if r.path == "src/leaf.ts"
    ]  # the others' results are last time's, not made again

    # The first edit of a file nothing changed before: its body alone, so it alone.
    (root / "src/core.ts").write_text(CORE.replace("a + b", "b + a"))
    errors(project)
    assert checked_anew(project) == ["src/core.ts"]

    (root / "src/core.ts").write_text(CORE.replace("): number", "): string").replace("a + b", "''"))
    assert errors(project) == [
        ("src/leaf.ts", 1, "Type 'number' is not assignable to type 'string'."),
        ("src/user.ts", 2, "Type 'string' is not assignable to type 'number'."),
    ]
    assert checked_anew(project) == ["src/core.ts", "src/other.ts", "src/user.ts"]
    assert compact(summary(project.run(check_all(project.ws)))) == fresh(root, tmp_path / "l2")


def test_a_check_leaves_nothing_open_in_tsserver(project: Warm) -> None:
    project.run(check_all(project.ws))
    assert not any(project.ws.holds(project.root / name) for name in FILES)
    assert all(not s.documents for s in project.ws.sessions.values())


def test_an_idle_builder_stops_and_the_next_check_starts_it(project: Warm) -> None:
    assert errors(project) == []
    [builder] = project.ws.builders.values()
    assert builder.pid is not None
    builder.last_used -= 10
    project.run(tidy(project.ws, 5.0))
    assert builder.pid is None
    (project.root / "src/leaf.ts").write_text("export const x: string = 1;\n")
    assert errors(project) == [
        ("src/leaf.ts", 1, "Type 'number' is not assignable to type 'string'.")
    ]
    assert checked_anew(project) == ["src/core.ts", "src/leaf.ts", "src/other.ts", "src/user.ts"]


PYTHON = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "pkg/user.py": "import json\n\nfrom pkg.core import add\n\nthree: int = add(1, 2)\n"
    "text: str = json.dumps(three)\n",
    "pkg/leaf.py": 'x: str = "x"\n',
    "pkg/json.py": "y: int = 1\n",  # the word json is in user.py: not an import of it
}


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    """A small Python project on basedpyright, its watcher running as in the daemon."""
    root = written(tmp_path / "py", PYTHON)
    yield from watched(root, tmp_path / "logs")


def asked(warm: Warm) -> tuple[list[str], list[tuple[str | None, int, str | None]]]:
    """The files the check asked the server about, and the errors it found."""
    checked = warm.run(check_all(warm.ws))
    found = [(d.path, d.line, d.code) for d in checked.everything if d.severity == "error"]
    return [warm.ws.display(p) for p in checked.asked], found


def test_python_asks_again_only_an_edit_whose_declarations_stay(
    python: Warm, tmp_path: Path
) -> None:
    root, core = python.root, python.root / "pkg/core.py"
    assert asked(python) == (sorted(PYTHON), [])
    (root / "pkg/leaf.py").write_text("x: str = 1\n")
    assert asked(python) == (["pkg/leaf.py"], [("pkg/leaf.py", 1, "reportAssignmentType")])
    (root / "pkg/json.py").write_text("y: int = 1\nz: int = 2\n")
    assert asked(python) == (["pkg/json.py"], [("pkg/leaf.py", 1, "reportAssignmentType")])
    core.write_text("def add(a: int, b: int) -> int:\n    # swapped\n    return b + a\n")
    assert asked(python) == (["pkg/core.py"], [("pkg/leaf.py", 1, "reportAssignmentType")])
    core.write_text("def add(a: int, b: int) -> str:\n    return str(a + b)\n")
    assert asked(python) == (  # a declaration changed: its importers too
        ["pkg/core.py", "pkg/user.py"],
        [("pkg/leaf.py", 1, "reportAssignmentType"), ("pkg/user.py", 5, "reportAssignmentType")],
    )
    assert compact(summary(python.run(check_all(python.ws)))) == fresh(root, tmp_path / "l2")


def test_the_first_check_makes_what_imports_touch_in_a_thread(python: Warm) -> None:
    """What every Python file's imports touch is made in a thread during the first check:
    the first declaration change then asks its first question without reading every file."""
    assert asked(python) == (sorted(PYTHON), [])
    for thread in threading.enumerate():
        if thread.name == NAMING:
            thread.join(60)
    python.run(asyncio.sleep(0))  # the event loop takes in what the thread made
    seen = memory_of(python.ws).python
    assert seen is not None
    assert sorted(python.ws.display(p) for p in seen.names) == sorted(PYTHON)
    assert seen.names[python.root / "pkg/user.py"] == frozenset(
        {("json",), ("pkg",), ("pkg", "core"), ("pkg", "core", "add")}
    )


def test_basedpyright_answers_unchanged_for_files_an_edit_cannot_reach(python: Warm) -> None:
    """After a leaf edit, basedpyright checks the leaf (and what imports it) again and answers
    "unchanged" for the other open files, whose results are reused: no file is sent again
    for it (that made it check every file again after any edit, SQLAlchemy 94 s for a leaf,
    and lost an error its CLI reports)."""
    known: Known = {}

    def each() -> dict[str, DiagnosticsResult]:
        return {
            name: python.run(check_file(python.ws, name, None, 1000, False, known))
            for name in sorted(PYTHON)
        }

    first = each()
    (python.root / "pkg/leaf.py").write_text("x: str = 1\n")
    python.run(python.ws.refresh_open_documents(catch_up=True))
    second = each()
    assert [n for n in PYTHON if second[n] is not first[n]] == ["pkg/leaf.py"]
    assert [d.code for d in second["pkg/leaf.py"].diagnostics] == ["reportAssignmentType"]
    (python.root / "pkg/core.py").write_text("def add(a: int, b: int) -> str:\n    return ''\n")
    python.run(python.ws.refresh_open_documents(catch_up=True))
    third = each()
    assert sorted(n for n in PYTHON if third[n] is not second[n]) == ["pkg/core.py", "pkg/user.py"]
    assert [d.code for d in third["pkg/user.py"].diagnostics] == ["reportAssignmentType"]


def unanswered(warm: Warm) -> None:
    """A check after which the leaf edit's file is not answered: the server given no time."""
    warm.ws.diagnostics_timeout = 1e-6  # no server answers a changed file in microseconds
    checked = warm.run(check_all(warm.ws))
    assert [s.path for s in checked.skipped] == ["pkg/leaf.py"], (checked.asked, checked.skipped)
    assert checked.skipped[0].reason.startswith("not answered: ")
    warm.ws.diagnostics_timeout = 20.0


def cancelled(warm: Warm) -> None:
    """A check that raises once the files no edit reached are reused: its caller went away
    (the daemon's request cancelled) before the leaf edit's file was answered."""

    async def check() -> None:
        task = asyncio.current_task()
        assert task is not None

        def progress(done: int, total: int) -> None:
            if done:  # the unaffected files' results are reused, the edited file not asked
                task.cancel()

        await check_all(warm.ws, progress=progress)

    with pytest.raises(asyncio.CancelledError):
        warm.run(check())


@pytest.mark.parametrize("failed", [unanswered, cancelled])
def test_a_check_that_failed_makes_the_next_ask_every_file(
    python: Warm, failed: Callable[[Warm], None]
) -> None:
    """A check that left a file unanswered, or raised, keeps no stale result of it: the next
    one asks every file and finds the edit's error, even when the edit since then is a body
    alone (which asks only its own file after a complete check)."""
    assert asked(python) == (sorted(PYTHON), [])
    (python.root / "pkg/leaf.py").write_text("x: str = 1\n")
    failed(python)
    (python.root / "pkg/json.py").write_text("y: int = 2\n")  # a value: no declaration
    assert asked(python) == (sorted(PYTHON), [("pkg/leaf.py", 1, "reportAssignmentType")])


CHAIN = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def make() -> int:\n    return 1\n",
    "pkg/mid.py": "from pkg.core import make\n\nvalue = make()\n",  # its type is core's
    "pkg/top.py": "from pkg.mid import value\n\ncount: int = value\n",  # core two steps away
    "pkg/alone.py": "z: int = 0\n",
}


def test_python_asks_the_importers_of_a_changed_declaration_transitively(tmp_path: Path) -> None:
    root = written(tmp_path / "chain", CHAIN)
    for warm in watched(root, tmp_path / "logs"):
        assert asked(warm) == (sorted(CHAIN), [])
        (root / "pkg/core.py").write_text("def make() -> str:\n    return ''\n")
        assert asked(warm) == (
            ["pkg/core.py", "pkg/mid.py", "pkg/top.py"],
            [("pkg/top.py", 3, "reportAssignmentType")],
        )
        (root / "pkg/new.py").write_text("w: int = 0\n")  # a file added: every file
        assert asked(warm) == (
            sorted([*CHAIN, "pkg/new.py"]),
            [("pkg/top.py", 3, "reportAssignmentType")],
        )
        assert compact(summary(warm.run(check_all(warm.ws)))) == fresh(root, tmp_path / "l2")


COMPOSITE = (
    '{"compilerOptions": {"strict": true, "composite": true, "outDir": "out", "rootDir": "src"}'
)
REFERENCES = {
    "tsconfig.json": '{"files": [], "references": [{"path": "packages/a"}, '
    '{"path": "packages/b"}]}',
    "packages/a/tsconfig.json": COMPOSITE + ', "include": ["src"]}',
    "packages/a/src/index.ts": "export function greet(name: string): string {\n  return name;\n}\n",
    "packages/b/tsconfig.json": COMPOSITE
    + ', "include": ["src"], "references": [{"path": "../a"}]}',
    "packages/b/src/use.ts": 'import { greet } from "../../a/src/index";\n'
    "export const wrong: number = greet(42);\n",
}


def test_a_referenced_project_is_read_from_its_sources_unbuilt(tmp_path: Path) -> None:
    root = written(tmp_path / "refs", REFERENCES)
    for warm in watched(root, tmp_path / "logs"):  # its outputs never built (tsc -b would)
        assert errors(warm) == [
            ("packages/b/src/use.ts", 2, "Type 'string' is not assignable to type 'number'."),
            (
                "packages/b/src/use.ts",
                2,
                "Argument of type 'number' is not assignable to parameter of type 'string'.",
            ),
        ]
        assert len(warm.ws.builders) == 1  # by TypeScript's builder, nothing opened
        assert not any(s.documents for s in warm.ws.sessions.values())


def _commands(pid: int) -> dict[int, str]:
    """The command line of `pid` and of every process below it, by pid."""
    found, todo = {}, [pid]
    while todo:
        current = todo.pop()
        proc = Path(f"/proc/{current}")
        found[current] = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        todo += [int(c) for c in (proc / "task" / str(current) / "children").read_text().split()]
    return found


def test_tsserver_runs_alone(project: Warm) -> None:
    # Type acquisition would fetch @types the gate's tsc never sees, in a process of its own;
    # a syntax server would answer nothing lspd asks sooner (it waits for the project).
    project.run(project.ws.symbols.tree(project.root / "src/core.ts"))
    [session] = [s for s in project.ws.sessions.values() if s.pid is not None]
    commands = _commands(session.pid)
    [(pid, tsserver)] = [(p, c) for p, c in commands.items() if "tsserver.js" in c]
    assert "partialSemantic" not in tsserver
    assert not any("typingsInstaller" in c for c in commands.values())
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"NODE_OPTIONS=--max-semi-space-size=8" in environ  # a smaller young generation


def test_a_change_of_the_builtins_stub_asks_every_file(python: Warm) -> None:
    """`__builtins__.pyi` is seen by every file, unimported (a review's case: `helper`
    added there made `print(helper)` right in a file no import links to it)."""
    (python.root / "__builtins__.pyi").write_text("x: int\n")
    (python.root / "pkg/leaf.py").write_text("print(helper)\n")
    assert asked(python)[1] == [("pkg/leaf.py", 1, "reportUndefinedVariable")]
    (python.root / "__builtins__.pyi").write_text("x: int\nhelper: int\n")
    files, found = asked(python)
    assert files == sorted([*PYTHON, "__builtins__.pyi"]) and found == []
