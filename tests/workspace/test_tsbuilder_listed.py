"""TypeScript 5's builder says what `tsc -p --listFilesOnly` says of a program's JSON files
(its configuration's errors, a JSON module's syntax errors), so a whole check reads its
configuration's errors from the program it checked, not from a `tsc` run of its own: that
run read and parsed every file again, 2.2 of the 2.5 s of a daemon's first check after a
file came or went (the examiner's 21-file project, TypeScript 5.9.3, load 8). Against the
project's own tsc 5.9.3: each case's listing, and a watched daemon's check after a file
written anew (unlinked and created, as `git apply` writes it) asks no tsc."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import native_program
from lspd.servers.registry import node_executable
from lspd.workspace.tsbuilder import Builder
from lspd.workspace.tsc_native import listed
from tests.conftest import Warm, warm_root
from tests.workspace.test_tsbuilder_missing import errors, tsc
from tests.workspace.toolchains import typescript_committed, typescript_package

A = "export const a: number = 1;\n"
JSON_IMPORT = 'import d from "./d.json" with { type: "json" };\nexport const x = d;\n'
NODENEXT = {"module": "nodenext", "resolveJsonModule": True}
CASES: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "clean": ({"include": ["src"]}, {"src/a.ts": A}),
    "unknown option, bad value": (
        {"compilerOptions": {"bogus": 1, "target": "es2099"}, "include": ["src"]},
        {"src/a.ts": A},
    ),
    "options at their place": (
        {"compilerOptions": {"module": "nodenext", "moduleResolution": "bundler"}},
        {"src/a.ts": A},
    ),
    "options, a syntax error": (
        {"compilerOptions": {"module": "nodenext", "moduleResolution": "bundler"}},
        {"src/a.ts": "export const a = ;\n"},
    ),
    "a types entry": ({"compilerOptions": {"types": ["nope"]}}, {"src/a.ts": A}),
    "a files entry gone": ({"files": ["src/a.ts", "src/gone.ts"]}, {"src/a.ts": A}),
    "a JSON module": (
        {"compilerOptions": NODENEXT},
        {"src/a.ts": JSON_IMPORT, "src/d.json": '{ "a": 1,, }\n'},
    ),
    "no inputs": ({"include": ["nothing"]}, {"src/a.ts": A}),
    "a lib": ({"compilerOptions": {"lib": ["es2099"]}}, {"src/a.ts": A}),
}


def written(root: Path, config: dict[str, Any], files: dict[str, str]) -> Path:
    options = {"noEmit": True, **config.get("compilerOptions", {})}
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(json.dumps({**config, "compilerOptions": options}))
    for name, text in files.items():
        (root / name).write_text(text)
    return root / "tsconfig.json"


def test_the_builder_lists_the_configurations_errors_as_tsc(tmp_path: Path) -> None:
    package = typescript_package("5.9.3")
    command = [node_executable(), str(package / "bin" / "tsc")]
    builder = Builder(package, tmp_path / "builder.log")

    async def compared() -> dict[str, tuple[Any, Any]]:
        found = {}
        for number, (name, (config, files)) in enumerate(CASES.items()):
            path = written(tmp_path / str(number), config, files)
            said = (await builder.check(path)).listed
            truth = [e for e in listed(command, path)[1] if e.file.suffix == ".json"]
            found[name] = (said, truth)
        await builder.stop()
        return found

    found = asyncio.run(compared())
    assert {name: said for name, (said, _) in found.items()} == {
        name: truth for name, (_, truth) in found.items()
    }
    assert [len(truth) for _, truth in found.values()] == [0, 2, 2, 0, 1, 1, 1, 1, 1]


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    files = {"tsconfig.json": json.dumps({"compilerOptions": {"noEmit": True, "strict": True}})}
    files |= {"src/a.ts": A, "src/b.ts": 'import { a } from "./a";\nexport const b = a;\n'}
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    yield from warm_root(root, tmp_path / "logs", watch=True)


def test_a_watched_check_after_a_file_came_asks_no_tsc(
    warm: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert errors(warm) == tsc(warm.root) == set()
    runs: list[Path] = []

    def counted(command: list[str], config: Path) -> tuple[list[Path], list[Any]]:
        runs.append(config)
        return listed(command, config)

    monkeypatch.setattr(native_program, "listed", counted)
    (warm.root / "src/a.ts").unlink()
    (warm.root / "src/a.ts").write_text('export const a: number = "one";\n')
    assert errors(warm) == tsc(warm.root) == {("src/a.ts", 1, 14, "2322")}
    (warm.root / "tsconfig.json").write_text('{"compilerOptions": {"noEmit": true, "x": 1}}')
    truth = tsc(warm.root)
    assert ("tsconfig.json", 1, 38, "5023") in truth
    assert errors(warm) == truth
    assert runs == []


def test_an_emitting_programs_listing_is_tscs(tmp_path: Path) -> None:
    # A composite project (it emits: tsc -b's monorepo) was listed by a tsc of its own, one
    # per tsconfig (vscode-languageserver-node: 37, minutes at load 14), and so was a root
    # program that emits (ky: 1.1 s of a one-shot check's 6 s), for what only an emitting tsc
    # checks: TS5055, an output over an input, TS5056, two inputs onto one output. The
    # builder says them now, from a program of the tsconfig's own options made from its own.
    package = typescript_package("5.9.3")
    command = [node_executable(), str(package / "bin" / "tsc")]
    builder = Builder(package, tmp_path / "builder.log")
    composite = {"composite": True, "outDir": "lib", "bogus": 1, "target": "es2099"}
    overwrites = {"allowJs": True, "declaration": False}  # src/b.js written over itself
    twice = {"allowJs": True, "outDir": "out"}  # src/a.ts and src/a.js onto out/a.js
    listed_files = {"files": ["src/a.ts", "src/a.js"]}  # (`include` takes a.ts alone)
    configs = [(composite, {}), (overwrites, {}), (twice, listed_files)]
    sources = {"src/a.ts": A, "src/b.js": "export const b = 1;\n", "src/a.js": "export {};\n"}

    async def compared() -> list[tuple[Any, ...]]:
        found = []
        for number, (options, files) in enumerate(configs):
            path = tmp_path / str(number) / "tsconfig.json"
            (path.parent / "src").mkdir(parents=True)
            config = {"compilerOptions": options, "include": ["src"], **files}
            path.write_text(json.dumps(config))
            for name, text in sources.items():
                (path.parent / name).write_text(text)
            project = await builder.check(path)
            truth = [e for e in listed(command, path)[1] if e.file.suffix == ".json"]
            found.append((project.listed, truth))
        await builder.stop()
        return found

    said = asyncio.run(compared())
    assert [listing for listing, _ in said] == [truth for _, truth in said]
    assert [[e.code for e in truth] for _, truth in said] == [["5023", "6046"], ["5055"], ["5056"]]
