"""TypeScript 5's builder parses JSDoc as tsc does (`tsc -p`, `-b` and `--watch` set the host's
jsDocParsingMode to ParseForTypeErrors since TypeScript 5.3): a TypeScript file's JSDoc only
where it says @see or @link, a JavaScript file's all. The API's default parsed every JSDoc
comment, the libraries' too: parsing took 1.38 s of CPU in the builder where tsc's took 0.63 s
(the examiner's 21-file project, TypeScript 5.9.3). Against the project's own tsc 5.9.3: the
mode of each file of the builder's program, and a check where JSDoc counts (a `{@link}` that
uses an import under noUnusedLocals, a checked JavaScript file's @param and @type); a one-shot
`lspd check` reads the configuration's errors from the builder's listing, with no `tsc -p
--listFilesOnly` of its own."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.cli import main
from lspd.engine import native_program
from lspd.servers.registry import node_executable
from lspd.workspace import tsbuilder
from lspd.workspace.tsc_native import listed
from tests.conftest import Warm, warm_root
from tests.workspace.test_tsbuilder_missing import errors, tsc
from tests.workspace.toolchains import typescript_committed

OPTIONS = {
    "strict": True,
    "noEmit": True,
    "noUnusedLocals": True,
    "allowJs": True,
    "checkJs": True,
    "target": "es2022",
    "module": "es2022",
    "moduleResolution": "bundler",
}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/shape.ts": (
        "export interface Shape {\n  side: number;\n}\n\n"
        "/** The area. @param s a shape */\n"
        "export function area(s: Shape): number {\n  return s.side ** 2;\n}\n"
    ),
    "src/doc.ts": (
        'import { Shape, area } from "./shape";\n\n'
        "/** Twice, as for a {@link Shape}. @param x a number */\n"
        "export function twice(x: number): number {\n  return x * 2;\n}\n\n"
        "const unused = area;\n"
    ),
    "src/calc.js": (
        "/** @param {string} s */\nexport function len(s) {\n  return s.length;\n}\n\n"
        'len(3);\n\n/** @type {number} */\nexport const n = "no";\n'
    ),
}
# Each own file of the builder's program: its jsDocParsingMode, and whether the JSDoc of its
# first function (`area`, `twice`, `len`) was parsed.
MODES = """
const { makeHost } = require(process.argv[3]);
const ts = require(process.argv[4]);
const options = ts.getParsedCommandLineOfConfigFile(process.argv[5], {}, {
  ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {},
});
const program = ts.createProgram(options.fileNames, options.options, makeHost(options.options));
const said = program.getRootFileNames().map((name) => {
  const file = program.getSourceFile(name);
  const fn = file.statements.find((s) => ts.isFunctionDeclaration(s));
  return [name.slice(name.indexOf("src/")), file.jsDocParsingMode, Boolean(fn.jsDoc)];
});
process.stdout.write(JSON.stringify(said));
"""


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    root = typescript_committed(tmp_path / "p", FILES, "5.9.3")
    yield from warm_root(root, tmp_path / "logs")


def test_the_builder_parses_jsdoc_as_tsc(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", FILES, "5.9.3")
    package = root / "node_modules" / "typescript"
    script = tmp_path / "modes.cjs"
    script.write_text(MODES)
    sources = tsbuilder.SCRIPT.with_name("tsbuilder_sources.cjs")
    arguments = [str(package), str(sources), str(package), str(root / "tsconfig.json")]
    done = subprocess.run(
        [node_executable(), str(script), *arguments],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    # 2: ParseForTypeErrors. shape.ts's JSDoc says neither @see nor @link: not parsed
    assert sorted(json.loads(done.stdout)) == [
        ["src/calc.js", 2, True],
        ["src/doc.ts", 2, True],
        ["src/shape.ts", 2, False],
    ]


def test_where_jsdoc_counts_the_builder_says_what_tsc_says(warm: Warm) -> None:
    truth = tsc(warm.root)
    assert truth == {
        ("src/doc.ts", 8, 7, "6133"),  # `unused`; `Shape` is used by the {@link}
        ("src/calc.js", 6, 5, "2345"),
        ("src/calc.js", 9, 14, "2322"),
    }
    assert errors(warm) == truth


def test_a_one_shot_check_asks_no_tsc_for_the_configurations_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {**FILES, "tsconfig.json": json.dumps({"compilerOptions": {**OPTIONS, "x": 1}})}
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    truth = tsc(root)
    assert ("tsconfig.json", 1, 183, "5023") in truth  # "x": unknown
    runs: list[Path] = []

    def counted(command: list[str], config: Path) -> tuple[list[Path], list[Any]]:
        runs.append(config)
        return listed(command, config)

    monkeypatch.setattr(native_program, "listed", counted)
    assert main(["check", "--root", str(root), "--json"]) == 1
    said = json.loads(capsys.readouterr().out)
    found = {(d["path"], d["line"], d["column"], d["code"]) for d in said["diagnostics"]}
    assert found == truth
    assert runs == []
