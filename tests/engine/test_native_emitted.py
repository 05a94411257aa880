"""TypeScript 7's tsc says the declaration pass's errors beside a program's syntax errors
(isolatedDeclarations' TS9007/TS9011, TS4094) where its options emit declarations and
`noEmitOnError` is not set; lspd's check (watched, one-shot) and a file's diagnostics say
what its `tsc -p` says. Real TypeScript 7.0.2, its own tsc -p beside."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.servers.registry import node_executable
from tests.conftest import Warm, answer, warm_root
from tests.engine.test_native_check import GATE_LINE, check
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_committed

BROKEN = "export function f(: number {\n"
ARROW = "export const g = (x: number) => x\n"
FILES = {
    "src/a.ts": BROKEN,
    "src/b.ts": ARROW,
    "src/c.ts": 'const n: number = "s";\nexport const c: number = n;\n',  # a type error
}
ISOLATED = {"declaration": True, "isolatedDeclarations": True, "noEmit": True, "strict": True}
SYNTAX = {("src/a.ts", 1, 19, "1138"), ("src/a.ts", 1, 28, "1005"), ("src/a.ts", 2, 1, "1005")}
DECLARED = {  # the declaration pass's, beside them
    ("src/a.ts", 1, 17, "9007"),
    ("src/a.ts", 1, 21, "9011"),
    ("src/a.ts", 1, 28, "9011"),
    ("src/b.ts", 1, 18, "9007"),
}
Found = set[tuple[str, int, int, str]]


def project(root: Path, options: dict[str, Any], files: dict[str, str] = FILES) -> Path:
    """`files` under a tsconfig of `options` (including src), on TypeScript 7.0.2."""
    config = json.dumps({"compilerOptions": options, "include": ["src"]})
    return typescript_committed(root, {**files, "tsconfig.json": config}, TS7_PINNED)


def tsc(root: Path, *args: str) -> Found:
    """Every error the project's own `tsc -p . --noEmit` says (or `tsc *args`)."""
    said = gate(root)[1] if not args else own_tsc(root, *args)
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(said)}


def own_tsc(root: Path, *args: str) -> str:
    """What the project's own `tsc *args --pretty false` prints."""
    command = [node_executable(), "node_modules/typescript/bin/tsc", *args, "--pretty", "false"]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120).stdout


@pytest.fixture
def isolated(tmp_path: Path) -> Iterator[Warm]:
    """The isolatedDeclarations project, its watcher running as in the daemon."""
    yield from warm_root(project(tmp_path / "p", ISOLATED), tmp_path / "logs", watch=True)


def test_a_watched_check_says_the_declaration_errors_beside(isolated: Warm) -> None:
    """The check says the syntax errors and the declaration pass's (b.ts's too, a file with
    no syntax error), not c.ts's type error; an edit of b.ts while a.ts stays broken says
    its new one; once a.ts is fixed every error, as tsc says them."""
    root = isolated.root
    assert check(isolated)[1] == tsc(root) == SYNTAX | DECLARED
    (root / "src/b.ts").write_text(f"{ARROW}export const h = (y: string) => y;\n")
    more = {("src/b.ts", 2, 18, "9007")}
    assert check(isolated)[1] == tsc(root) == SYNTAX | DECLARED | more
    (root / "src/a.ts").write_text("export function f(x: number): number {\n  return x;\n}\n")
    fixed = {("src/b.ts", 1, 18, "9007"), ("src/c.ts", 1, 7, "2322"), *more}
    assert check(isolated)[1] == tsc(root) == fixed


def test_a_one_shot_check_and_a_file_say_them_too(tmp_path: Path) -> None:
    """Without a watcher (`lspd check`) and a file's `diagnostics`: the same errors."""
    root = project(tmp_path / "p", ISOLATED)
    checked = answer(root, workspace_diagnostics)
    found = {(d.path or "", d.line, d.column, d.code or "") for d in checked.diagnostics}
    assert found == tsc(root) == SYNTAX | DECLARED
    assert len(checked.stopped) == 1
    for name in ("src/a.ts", "src/b.ts", "src/c.ts"):
        said = answer(root, lambda ws, name=name: diagnostics(ws, name))
        assert {(name, d.line, d.column, d.code) for d in said.diagnostics} == {
            error for error in found if error[0] == name
        }
        assert said.checker is not None and "src/a.ts:1" in said.checker  # where tsc stopped


@pytest.mark.parametrize(
    ("options", "beside"),
    [
        ({**ISOLATED, "noEmitOnError": True}, set()),  # the emit says the syntax errors
        ({"declaration": True, "outDir": "out"}, {("src/b.ts", 1, 14, "4094")}),
        ({"declaration": True, "noEmit": True}, {("src/b.ts", 1, 14, "4094")}),
        ({"composite": True, "outDir": "out"}, {("src/b.ts", 1, 14, "4094")}),
        ({"composite": True, "noEmit": True}, set()),  # an incremental program not emitted
        ({"declaration": True, "incremental": True, "noEmit": True}, set()),
        ({"outDir": "out"}, set()),  # no declaration emitted
    ],
)
def test_the_options_that_say_them(tmp_path: Path, options: dict[str, Any], beside: Found) -> None:
    """TS4094 (a private member of an exported class expression) beside a.ts's syntax
    errors where declarations are emitted, none with noEmitOnError or without them; tsc -p
    as the tsconfig says (`--noEmit` would leave out a composite program's)."""
    files = {**FILES, "src/b.ts": "export const C = class { private x = 1 };\n"}
    root = project(tmp_path / "p", options, files)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == SYNTAX | beside
    assert tsc(root, "-p", ".") == SYNTAX | beside
