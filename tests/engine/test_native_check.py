"""A TypeScript 7 project's whole-workspace check opens nothing, and after an edit asks again
only the edited files and those importing them (what it asked is asserted, not the time),
with the errors its own `tsc -p` reports."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import native_check, native_program, native_reach, second_server
from lspd.lsp.session import Session
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import FileAnswers
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, warm_root
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_package

CORE = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"
FILES = {
    "src/core.ts": CORE,
    "src/user.ts": 'import { add } from "./core.js";\nexport const three: number = add(1, 2);\n',
    "src/again.ts": 'import { three } from "./user";\nexport const six: number = three * 2;\n',
    "src/leaf.ts": "export const x: string = 'x';\n",
}
CONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
    }
}
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
STOPPED = (  # a check's line for tsc stopped at a syntax error of this program's 4 files
    "tsc stopped at {at} (tsc reports a program's syntax errors alone while it has any): "
    "the other errors of its 4 file(s) are not checked"
)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """A TypeScript 7 project with its watcher running, as in the daemon."""
    yield from warm_root(native_project(tmp_path / "ts7"), tmp_path / "logs", watch=True)


def native_project(root: Path) -> Path:
    """`FILES` written at `root` as a project on its own TypeScript, the pinned 7."""
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src"]}))
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    return root.resolve()


def check(warm: Warm) -> tuple[list[str], set[tuple[str, int, int, str]]]:
    """The files asked anew, and every error found, after a check of the workspace."""
    checked = warm.run(check_all(warm.ws))
    found = {
        (r.path, d.line, d.column, d.code or "") for r in checked.results for d in r.diagnostics
    }
    return sorted(warm.ws.display(p) for p in checked.asked), found


def tsc(warm: Warm) -> set[tuple[str, int, int, str]]:
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(gate(warm.root)[1])}


def test_an_edit_asks_again_what_can_see_it(project: Warm) -> None:
    src = project.root / "src"
    everything = ["src/again.ts", "src/core.ts", "src/leaf.ts", "src/user.ts"]
    assert check(project) == (everything, set())
    assert not any(project.ws.holds(src / name) for name in ("core.ts", "leaf.ts"))

    (src / "leaf.ts").write_text("export const x: string = 1;\n")  # nothing imports it
    asked, found = check(project)
    assert asked == ["src/leaf.ts"] and found == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}

    (src / "core.ts").write_text(f"// adds\n{CORE}\n// two numbers\n")  # comments only
    assert check(project) == (["src/core.ts"], tsc(project))

    (src / "core.ts").write_text(CORE.replace("b: number", "b: string"))  # its importers
    asked, found = check(project)
    assert asked == ["src/again.ts", "src/core.ts", "src/user.ts"]
    assert found == tsc(project) and {(p, c) for p, _, _, c in found} == {
        ("src/core.ts", "2322"),
        ("src/user.ts", "2345"),
        ("src/leaf.ts", "2322"),
    }

    (src / "new.ts").write_text('import { x } from "./leaf";\nexport const y: number = x;\n')
    asked, found = check(project)  # a file added: every file again
    assert asked == sorted([*everything, "src/new.ts"])
    assert found == tsc(project)
    assert not any(project.ws.holds(p) for p in src.iterdir())  # nothing opened for it


def test_an_alias_of_another_name_is_followed(project: Warm) -> None:
    """`#adder` names core.ts through tsconfig `paths`: its importer is asked with it."""
    config = {**CONFIG, "include": ["src"]}
    config["compilerOptions"] = {
        **CONFIG["compilerOptions"],
        "paths": {"#adder": ["./src/core.ts"]},
    }
    (project.root / "tsconfig.json").write_text(json.dumps(config))
    src = project.root / "src"
    (src / "user.ts").write_text('import { add } from "#adder";\nexport const three = add(1, 2);\n')
    assert check(project)[1] == tsc(project) == set()

    (src / "core.ts").write_text(CORE.replace("b: number", "b: string"))
    asked, found = check(project)
    assert asked == ["src/again.ts", "src/core.ts", "src/user.ts"]
    assert found == tsc(project) and "2345" in {c for p, _, _, c in found if p == "src/user.ts"}


def environment_of(pid: int) -> dict[str, str]:
    entries = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(e.decode().partition("=")[::2] for e in entries if b"=" in e)


def test_the_memory_ceiling_is_the_go_collectors_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lspd.toml's memory_mb reaches TypeScript 7's `tsc` as GOMEMLIMIT; without it the
    server's own default (none) stays."""
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    limits = []
    for config in ("memory_mb = 900\n", ""):
        root = tmp_path / f"ts7-{len(limits)}"
        (root / "src").mkdir(parents=True)
        (root / "src" / "core.ts").write_text(CORE)
        (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src"]}))
        (root / "lspd.toml").write_text(config)
        (root / "node_modules").mkdir()
        (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
        for warm in warm_root(root.resolve(), tmp_path / "logs", watch=True):
            assert check(warm) == (["src/core.ts"], set())
            [session] = warm.ws.sessions.values()
            assert session.name == "typescript-native" and session.pid is not None
            limits.append(environment_of(session.pid).get("GOMEMLIMIT"))
    assert limits == ["900MiB", None]


def test_each_file_answered_is_progress(project: Warm) -> None:
    """`lspd check` shows how many files are answered while a TypeScript 7 check runs."""
    seen: list[tuple[int, int]] = []
    project.run(check_all(project.ws, progress=lambda done, total: seen.append((done, total))))
    assert seen[:5] == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def servers_in(root: Path) -> list[int]:
    """The language servers this test runs for `root`: its child processes speaking LSP on
    stdio (`--stdio`) started there or, basedpyright's Node, moved into its own package (its
    script changes directory; lspd starts it directly, no wrapper between)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit() or _parent(proc) != os.getpid():
                continue
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = (proc / "cwd").resolve()
            if b"--stdio" in argv and (cwd == root or cwd.parent.name == "basedpyright"):
                found.append(int(proc.name))
        except OSError:
            continue  # gone meanwhile
    return found


def _parent(proc: Path) -> int:
    fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1])


def test_many_files_are_shared_with_a_second_server(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check asking many files asks part of them of a second server of the same project
    (TypeScript 7 checks pulls on one core), stopped with the check: the same errors."""
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    src = project.root / "src"
    (src / "leaf.ts").write_text("export const x: string = 1;\n")
    (src / "core.ts").write_text(CORE.replace("b: number", "b: string"))
    asked, found = check(project)
    assert asked == ["src/again.ts", "src/core.ts", "src/leaf.ts", "src/user.ts"]
    assert found == tsc(project) and {(p, c) for p, _, _, c in found} == {
        ("src/core.ts", "2322"),
        ("src/user.ts", "2345"),
        ("src/leaf.ts", "2322"),
    }
    [session] = project.ws.sessions.values()
    second = session.log_path.parent / "second" / session.log_path.name
    assert second.exists()  # it ran
    assert servers_in(project.root) == [first := session.pid]  # and is gone

    # Checked again: the first server is started afresh (no old program's state kept)
    (src / "core.ts").write_text(CORE)
    asked, found = check(project)
    assert asked == ["src/again.ts", "src/core.ts", "src/user.ts"]
    assert found == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}
    assert servers_in(project.root) == [session.pid] and session.pid != first


def test_a_server_started_before_the_first_check_is_kept(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a server a check ran on holds an old checked program: one started for
    navigation keeps its loaded program through the first (split) check."""
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    session = project.ws.session_for(project.root / "src" / "core.ts")
    project.run(session.start())
    started = session.pid
    assert check(project)[1] == tsc(project) == set()
    assert session.pid == started and servers_in(project.root) == [started]


def test_a_syntax_error_is_the_whole_answer_as_tsc_says(project: Warm) -> None:
    """TypeScript 7's `tsc -p` reports a program's syntax errors alone when it has any (no
    file's semantic errors), from the first check on, and the errors after the fix."""
    src = project.root / "src"
    (src / "leaf.ts").write_text("export const x: string = 1;\n")  # a type error
    (src / "core.ts").write_text(f"{CORE}\nexport function broken( {{\n")
    broken = {("src/core.ts", 6, 1, "1005")}
    assert check(project)[1] == tsc(project) == broken
    (src / "core.ts").write_text(CORE)
    type_error = {("src/leaf.ts", 1, 14, "2322")}
    assert check(project)[1] == tsc(project) == type_error

    user = FILES["src/user.ts"] + "const y: number = ;\nconst z: string = 1;\n"
    (src / "user.ts").write_text(user)
    assert check(project)[1] == tsc(project) == {("src/user.ts", 3, 19, "1109")}
    (src / "user.ts").write_text(FILES["src/user.ts"])
    assert check(project)[1] == tsc(project) == type_error


def test_a_grammar_error_of_the_checker_stays_and_tsc_is_asked_once(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code of the parser's range said by the checker (TS1102: no syntax error) is
    reported, as tsc does, and the program is listed once: an edit is parsed alone."""
    listings = listed(monkeypatch)
    src = project.root / "src"
    (src / "leaf.ts").write_text("export let x = 1;\nlet y = 2;\ndelete y;\n")
    found = check(project)[1]
    assert found == tsc(project) and "1102" in {code for *_, code in found}
    (src / "core.ts").write_text(f"// adds\n{CORE}")
    assert check(project)[1] == found
    assert listings == [project.root / "tsconfig.json"]  # not listed again
    assert native_check.stopped_configs(project.ws) == set()


def test_a_first_check_asks_no_server_once_tsc_stopped(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon's first check of a program with a syntax error: once tsc read the program
    (beside the questions), its files not asked yet are tsc's answer without their server
    (effect 4.1's 569 files were all asked first); while it stays stopped an edit asks
    nothing; after the fix every file's errors, as its `tsc -p` says them."""
    src = project.root / "src"
    more = {f"src/more{n}.ts": f"export const m{n}: number = 'm';\n" for n in range(8)}
    for name, text in more.items():
        (project.root / name).write_text(text)  # 8 type errors
    (src / "core.ts").write_text(f"{CORE}\nexport function broken( {{\n")
    pulls: list[str] = []
    pulling = native_check.pulled

    async def slow(session: Session, path: Path, timeout: float) -> list[Any]:
        await settled()  # a server slower to load than tsc to list (effect's: 15 s)
        pulls.append(project.ws.display(path))
        return await pulling(session, path, timeout)

    monkeypatch.setattr(native_check, "pulled", slow)

    def stopped_check() -> tuple[set[tuple[str, int, int, str]], list[tuple[object, ...]]]:
        checked = project.run(check_all(project.ws))
        found = {(r.path, d.line, d.column, d.code) for r in checked.results for d in r.diagnostics}
        return found, [(s.at, len(s.files)) for s in checked.stopped]

    broken = {("src/core.ts", 6, 1, "1005")}
    stop = [((("src/core.ts", 6),), 12)]
    assert stopped_check() == (broken, stop) and tsc(project) == broken
    assert len(pulls) == second_server.CONCURRENCY  # those out before tsc had read it
    first = set(pulls)

    pulls.clear()
    (src / "leaf.ts").write_text("export const x: string = 'y';\n")  # still stopped
    assert stopped_check() == (broken, stop) and pulls == []

    (src / "core.ts").write_text(CORE)  # fixed: every file's errors
    type_errors = {(name, 1, 14, "2322") for name in more}
    assert stopped_check() == (type_errors, []) and tsc(project) == type_errors
    every = {*FILES, *more}  # each one asked once tsc went on: those asked first reused
    edited = {"src/core.ts", "src/user.ts", "src/again.ts", "src/leaf.ts"}
    assert sorted(pulls) == sorted(every - first | edited)


def test_a_one_shot_check_stops_at_a_syntax_error_as_tsc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a watcher (the one-shot `lspd check`) the files are asked one by one; a
    program with a syntax error is still tsc's answer: its syntax errors alone (user.ts's
    and leaf.ts's type errors were said beside it), and the check says where tsc stopped.
    The program is read once a check, beside the files' questions."""
    listings = listed(monkeypatch)
    root = native_project(tmp_path / "ts7")
    src = root / "src"
    (src / "leaf.ts").write_text("export const x: string = 1;\n")  # a type error
    (src / "core.ts").write_text(f"{CORE}\nexport function broken( {{\n")

    def once() -> tuple[set[tuple[str, int, int, str]], list[str]]:
        checked = answer(root, workspace_diagnostics)
        found = {(d.path or "", d.line, d.column, d.code or "") for d in checked.diagnostics}
        return found, checked.stopped

    broken = {("src/core.ts", 6, 1, "1005")}
    assert once() == (broken, [STOPPED.format(at="src/core.ts:6")])
    assert listings == [root / "tsconfig.json"]
    assert {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(gate(root)[1])} == broken

    (src / "core.ts").write_text(CORE)  # fixed: the type errors, nothing stopped
    type_error = {("src/leaf.ts", 1, 14, "2322")}
    assert once() == (type_error, [])

    user = FILES["src/user.ts"] + "const y: number = ;\nconst z: string = 1;\n"
    (src / "user.ts").write_text(user)  # a syntax error and a type error in one file
    assert once() == ({("src/user.ts", 3, 19, "1109")}, [STOPPED.format(at="src/user.ts:3")])


def listed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The tsconfigs whose programs `native_program` lists (`tsc -p --listFilesOnly`)."""
    found: list[Path] = []
    listing = native_program.listed

    def counted(tsc: list[str], config: Path) -> object:
        found.append(config)
        return listing(tsc, config)

    monkeypatch.setattr(native_program, "listed", counted)
    return found


async def settled() -> None:
    """Once the work `native_program` started in the background is done."""
    await asyncio.gather(*native_program._running)


def test_a_one_shot_check_asks_no_server_once_tsc_stopped(tmp_path: Path) -> None:
    """A one-shot check's file whose program was read with a syntax error is tsc's answer
    without asking its server (effect 4.1: 72 s of questions where tsc -p took 4.2 s)."""
    root = native_project(tmp_path / "ts7")
    src = root / "src"
    (src / "leaf.ts").write_text("export const x: string = 1;\n")  # a type error
    (src / "core.ts").write_text(f"{CORE}\nexport function broken( {{\n")
    files = sorted(src.iterdir())

    async def ask(ws: Workspace) -> list[tuple[str, list[tuple[int, int, str | None]]]]:
        native_check._once[ws] = time.monotonic()  # a one-shot check began (native_checked)
        tsc = native_program.compiler(native_reach.native(ws, files[0]) or pytest.fail())
        native_program.prime(ws, tsc or pytest.fail(), root / "tsconfig.json")
        await settled()
        results = [await FileAnswers(ws).of_file(path, None, 60.0) for path in files]
        return [(r.path, [(d.line, d.column, d.code) for d in r.diagnostics]) for r in results]

    said = answer(root, ask)
    assert said == [
        ("src/again.ts", []),
        ("src/core.ts", [(6, 1, "1005")]),
        ("src/leaf.ts", []),
        ("src/user.ts", []),
    ]
    assert servers_in(root) == []  # none started
