"""A program's declaration files the watcher does not see (`engine/builders.py`): a package
of the repository reached through node_modules, its built `lib/*.d.ts` git-ignored, as
vscode-languageserver-node's packages read each other. `tsc -b` rewrote one with no tracked
file changed, and `lspd check` kept its answer of before (reused: no change seen), 12
errors where tsc says 5, and `check --baseline HEAD` called the difference new. The
builder's programs' files outside the watcher's view are followed now (`Workspace.follow`):
their rewrite counts as a change. A watched workspace on TypeScript 5.9.3, against tsc."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.workspace.test_tsbuilder_missing import errors
from tests.workspace.test_tsbuilder_missing import tsc as gate_tsc
from tests.workspace.toolchains import typescript_committed

OPTIONS = {"strict": True, "noEmit": True, "target": "es2022", "module": "commonjs"}
GREET = "export declare function greet(name: string): {};\n"
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/use.ts": 'import { greet } from "greeter";\nexport const s: string = greet("a");\n',
    "greeter/package.json": json.dumps({"name": "greeter", "types": "lib/index.d.ts"}),
}


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    yield from linked_build(tmp_path, "5.9.3")


def linked_build(tmp_path: Path, version: str) -> Iterator[Warm]:
    """The layout on TypeScript `version`, greeter's build written and linked, watched."""
    root = typescript_committed(tmp_path / "p", FILES, version)
    (root / ".gitignore").write_text("node_modules\nlib/\n")  # and its build's output
    (root / "greeter" / "lib").mkdir()
    (root / "greeter" / "lib" / "index.d.ts").write_text(GREET)  # built, ignored
    (root / "node_modules" / "greeter").symlink_to(root / "greeter")  # a workspace package
    yield from warm_root(root, tmp_path / "l", True)


def test_a_rebuilt_declaration_is_checked_again(warm: Warm) -> None:
    broken = {("src/use.ts", 2, 14, "2322")}  # {} is not a string
    assert errors(warm) == gate_tsc(warm.root) == broken
    assert since_head(warm) == ([], [], 1)  # HEAD's result kept, of this build
    (warm.root / "greeter" / "lib" / "index.d.ts").write_text(GREET.replace("{}", "string"))
    assert gate_tsc(warm.root) == set()
    assert errors(warm) == set()  # was `broken`: the whole check reused
    # HEAD's state reads the same build: nothing fixed by the change (none made); before,
    # the result kept of the old build said the TS2322 fixed
    assert since_head(warm) == ([], [], 0)


def since_head(warm: Warm) -> tuple[list[str], list[str], int]:
    """`check --baseline HEAD`: introduced and fixed (path:line:code), unchanged."""
    changes = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert changes is not None
    said = [
        [f"{d.path}:{d.line}:{d.code}" for d in found]
        for found in (changes.introduced, changes.fixed)
    ]
    return said[0], said[1], changes.unchanged


SOURCE = "export function greet(name: string): string {\n  return name;\n}\n"


@pytest.fixture
def sourced(tmp_path: Path) -> Iterator[Warm]:
    """greeter's sources tracked, its build of them (`lib/`) git-ignored: HEAD's build."""
    files = {**FILES, "greeter/src/index.ts": SOURCE}
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    (root / ".gitignore").write_text("node_modules\nlib/\n")
    (root / "greeter" / "lib").mkdir()
    (root / "greeter" / "lib" / "index.d.ts").write_text(GREET.replace("{}", "string"))
    (root / "node_modules" / "greeter").symlink_to(root / "greeter")
    yield from warm_root(root, tmp_path / "l", True)


def test_a_build_of_an_edited_package_is_the_edits_not_heads(sourced: Warm) -> None:
    """changesets: a package's source edited and rebuilt, its importer's new error is new,
    as the gate (build, then tsc) run at HEAD and now says; before, the rebuild made HEAD's
    result again with the edit's build, and the error was said unchanged."""
    assert since_head(sourced) == ([], [], 0)  # HEAD's result kept, of HEAD's build
    greeter = sourced.root / "greeter"
    (greeter / "src" / "index.ts").write_text(SOURCE.replace("): string", "): {}"))
    (greeter / "lib" / "index.d.ts").write_text(GREET)  # rebuilt from the edit
    assert gate_tsc(sourced.root) == {("src/use.ts", 2, 14, "2322")}
    assert since_head(sourced) == (["src/use.ts:2:2322"], [], 0)
