"""Packages installed into a TypeScript project's node_modules (`npm install`), which the
watcher does not follow: the whole check and the kept results made before are not reused.

vscode-languageserver-node's testbed (TypeScript 5.9.3), its packages installed while a
daemon ran: `lspd check` kept saying the TS2307 of every import of them (0.1 s, reused;
`tsc -b` clean), and after one of the files changed, still those of the other project,
whose node_modules did not exist before (the builder reused what its program resolved).
A watched workspace on TypeScript 5.9.3, against the project's own tsc."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine.kept import environments_of
from lspd.servers.registry import node_executable
from tests.conftest import Warm, warm_root
from tests.workspace.test_tsbuilder_missing import GATE_LINE, Found, errors
from tests.workspace.toolchains import typescript_committed

CONFIG = {
    "compilerOptions": {"strict": True, "noEmit": True, "target": "es2022", "module": "commonjs"}
}
FILES = {
    "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}),
    "src/use.ts": 'import { greet } from "greeter";\nexport const s: number = greet("a");\n',
    # a project of its own with no node_modules of its own (yet)
    "app/package.json": json.dumps({"name": "app", "private": True}),
    "app/tsconfig.json": json.dumps({**CONFIG, "include": ["."]}),
    "app/main.ts": 'import { shout } from "shouter";\nexport const n: string = shout(1);\n',
}


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    yield from warm_root(typescript_committed(tmp_path / "p", FILES, "5.9.3"), tmp_path / "l", True)


def tsc(root: Path) -> Found:
    """Each project's own `tsc -p` (the root's TypeScript), paths from the root."""
    found: Found = set()
    for project in ("", "app"):
        done = subprocess.run(
            [node_executable(), "node_modules/typescript/bin/tsc", "-p", project or "."],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
        )
        for p, a, b, c in GATE_LINE.findall(done.stdout):
            found.add((p, int(a), int(b), c))
    return found


def install(folder: Path, name: str, declaration: str) -> None:
    """What npm leaves of a package with its types: its folder, and its lock's line."""
    package = folder / "node_modules" / name
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": name, "types": "index.d.ts"}))
    (package / "index.d.ts").write_text(declaration)
    lock = folder / "node_modules" / ".package-lock.json"
    lock.write_text(json.dumps({"packages": {f"node_modules/{name}": {"version": "1.0.0"}}}))


def test_packages_installed_are_checked_again(warm: Warm) -> None:
    missing = {("src/use.ts", 1, 23, "2307"), ("app/main.ts", 1, 23, "2307")}
    assert errors(warm) == tsc(warm.root) == missing
    kept_under = environments_of(warm.ws)
    install(warm.root, "greeter", "export declare function greet(name: string): string;\n")
    truth = tsc(warm.root)
    assert truth == {("src/use.ts", 2, 14, "2322"), ("app/main.ts", 1, 23, "2307")}
    assert errors(warm) == truth  # was `missing`: the whole check reused
    assert environments_of(warm.ws) != kept_under  # HEAD's result is made again
    # app/node_modules did not exist: the builder's program had not probed below it
    install(warm.root / "app", "shouter", "export declare function shout(s: string): string;\n")
    truth = tsc(warm.root)
    assert truth == {("src/use.ts", 2, 14, "2322"), ("app/main.ts", 2, 32, "2345")}
    assert errors(warm) == truth
