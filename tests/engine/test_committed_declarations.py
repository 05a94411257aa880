"""The declaration files tsc's program holds outside `include` (a `/// <reference path>`'s
shim, typeRoots packages named in `compilerOptions.types` or by `/// <reference types>`) are
the gate's: `lspd check` says their errors as `tsc -p` does (skipLibCheck false), and `check
--baseline HEAD` lists their edits as changed files, so the break of a file using them is
new, not 'unchanged' (and HEAD's kept result is not made of the edited texts: after the
revert nothing is 'fixed'). TypeScript 7.0.2 and 5.9.3 (its builder), one-shot and in a
watched daemon, against the project's own `tsc -p`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from tests.conftest import Warm, answer, warm_root
from tests.workspace.test_typescript_projects_declarations import FILES, OPTIONS
from tests.workspace.toolchains import TS7_PINNED, gate, own_tsc, typescript_committed

Found = set[tuple[str, int, int, str]]
GATE_LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
SHIM = '/// <reference path="./more.d.ts" />\ndeclare function shimVersion(): string;\n'
LEGACY = "declare function legacyLog(): Numbr;\n"


@pytest.fixture(
    params=[(TS7_PINNED, False), (TS7_PINNED, True), ("5.9.3", False), ("5.9.3", True)],
    ids=["7-one-shot", "7-daemon", "5.9-one-shot", "5.9-daemon"],
)
def warm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Warm]:
    version, daemon = request.param
    root = typescript_committed(tmp_path / "p", FILES, version)
    yield from warm_root(root, tmp_path / "logs", watch=daemon)


def tsc(root: Path) -> Found:
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(gate(root)[1])}


def check(warm: Warm, baseline: str | None = None) -> WorkspaceDiagnosticsResult:
    return warm.run(workspace_diagnostics(warm.ws, limit=1000, baseline=baseline))


def errors(result: WorkspaceDiagnosticsResult) -> Found:
    return {(d.path or "", d.line, d.column, d.code or "") for d in result.diagnostics}


def test_declarations_outside_include_are_checked_and_their_edits_compared(warm: Warm) -> None:
    root = warm.root
    head = tsc(root)
    assert head == {("types/appenv/index.d.ts", 1, 22, "2552")}  # Booln
    assert errors(check(warm)) == head
    (root / "extra/shim.d.ts").write_text(SHIM)  # breaks src/app.ts
    (root / "types/legacyenv/index.d.ts").write_text(LEGACY)  # an error in it
    truth = tsc(root)
    assert truth - head == {
        ("src/app.ts", 4, 14, "2322"),
        ("types/legacyenv/index.d.ts", 1, 31, "2552"),
    }
    assert errors(check(warm)) == truth
    since = check(warm, "HEAD").changes
    assert since is not None
    assert {(d.path, d.line, d.column, d.code) for d in since.introduced} == truth - head
    assert (since.fixed, since.unchanged) == ([], 1)
    assert sorted(since.changed) == ["extra/shim.d.ts", "types/legacyenv/index.d.ts"]
    (root / "extra/shim.d.ts").write_text(FILES["extra/shim.d.ts"])
    (root / "types/legacyenv/index.d.ts").write_text(FILES["types/legacyenv/index.d.ts"])
    assert errors(check(warm)) == head
    again = check(warm, "HEAD").changes
    assert again is not None
    assert (again.introduced, again.fixed, again.unchanged, again.changed) == ([], [], 1, [])


APP = {
    "compilerOptions": {**OPTIONS, "types": ["appenv"], "typeRoots": ["../../types"]},
    "include": ["src"],
}
OUTSIDE = {  # packages/app's program holds files no tsconfig.json above them holds
    "packages/app/tsconfig.json": json.dumps(APP),
    "packages/app/src/a.ts": (
        '/// <reference path="../../../shared/shim.d.ts" />\n'
        "export const x: number = __DEV__ ? shim() : 0;\n"
    ),
    "types/appenv/index.d.ts": "declare var __DEV__: Booln;\n",
    "shared/shim.d.ts": "declare function shim(): number;\n",
}


def app_tsc(root: Path) -> Found:
    """`tsc -p packages/app` of the project's own TypeScript, run at the root."""
    said = own_tsc(root, "-p", "packages/app", "--pretty", "false")
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(said)}


@pytest.mark.parametrize(
    ("version", "daemon"),
    [(TS7_PINNED, False), (TS7_PINNED, True), ("5.9.3", False)],
    ids=["7-one-shot", "7-daemon", "5.9-one-shot"],
)
def test_declarations_above_the_programs_folder(tmp_path: Path, version: str, daemon: bool) -> None:
    """Its typeRoots and a reference lead above packages/app: those files are its program's
    (TypeScript 5's builder checks them in it, where no tsconfig.json above them said which
    program; the edit's break was 'unchanged', HEAD's result made of the disk's shim). The
    one-shot's questions each a workspace of their own, as the CLI asks them."""
    root = typescript_committed(tmp_path / "p", OUTSIDE, version)
    head = app_tsc(root)
    assert head == {("types/appenv/index.d.ts", 1, 22, "2552")}
    for warm in warm_root(root, tmp_path / "logs", watch=daemon):
        assert errors(ask(warm, daemon)) == head
        (root / "shared/shim.d.ts").write_text("declare function shim(): string;\n")
        assert app_tsc(root) - head == {("packages/app/src/a.ts", 2, 14, "2322")}
        assert errors(ask(warm, daemon)) == app_tsc(root)
        since = ask(warm, daemon, "HEAD").changes
        assert since is not None
        new = [(d.path, d.line, d.column, d.code) for d in since.introduced]
        assert new == [("packages/app/src/a.ts", 2, 14, "2322")]
        assert (since.fixed, since.unchanged, since.changed) == ([], 1, ["shared/shim.d.ts"])


def ask(warm: Warm, daemon: bool, baseline: str | None = None) -> WorkspaceDiagnosticsResult:
    """The question asked of the daemon's workspace, or of one of its own (a one-shot
    command's)."""
    if daemon:
        return check(warm, baseline)
    question = workspace_diagnostics
    return answer(warm.root, lambda ws: question(ws, limit=1000, baseline=baseline))
