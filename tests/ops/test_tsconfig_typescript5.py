"""A tsconfig.json whose option has a wrong value fails `lspd check` on TypeScript 5 as it
fails the project's `tsc -p` (TS6046, exit 2): tsserver says nothing of its tsconfig and the
builder checked the files, so lspd check said 0 errors, exit 0. Its errors are now the
project's own tsc's (`ops/tsconfig.config_results`), and the files are checked beside them
as tsc checks them. Real TypeScript 5.4.5, daemon and one-shot."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import native_program
from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from lspd.workspace import Workspace
from lspd.workspace.question import one_question
from lspd.workspace.tsc_native import listed
from tests.conftest import answer, warm_root
from tests.workspace.toolchains import gate, own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
OPTIONS = {"strict": True, "noEmit": True, "target": "es2099"}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/a.ts": "export const a: number = 'one';\n",
}


def test_a_wrong_option_value_fails_the_check_as_tsc(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "ts5", FILES, "5.4.5")
    code, out = gate(root)
    truth = {(p, int(a), int(b), c) for p, a, b, c in LINE.findall(out)}
    assert (code, truth) == (2, {("tsconfig.json", 1, 64, "6046"), ("src/a.ts", 1, 14, "2322")})
    once = answer(root, check_all)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        for checked in (once, warm.run(check_all(warm.ws))):
            found = {
                (r.path, d.line, d.column, d.code) for r in checked.results for d in r.diagnostics
            }
            assert found == truth


def test_a_files_entry_gone_fails_the_check_as_tsc(tmp_path: Path) -> None:
    # tsc's configuration errors hang on which files exist, not only on the tsconfig's text:
    # a `files` entry removed is TS6053 (the reviewer's repro: a daemon said no error).
    listed = {
        "compilerOptions": {"strict": True, "noEmit": True},
        "files": ["src/a.ts", "src/b.ts"],
    }
    files = {
        "tsconfig.json": json.dumps(listed),
        "src/a.ts": "export const a = 1;\n",
        "src/b.ts": "export const b = 2;\n",
    }
    root = typescript_committed(tmp_path / "ts5", files, "5.4.5")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before = warm.run(check_all(warm.ws)).results
        assert ([d for r in before for d in r.diagnostics], gate(root)[0]) == ([], 0)
        (root / "src/b.ts").unlink()
        code, out = gate(root)  # said with no place: lspd says it in tsconfig.json
        assert (code, out.splitlines()[0]) == (
            2,
            f"error TS6053: File '{root}/src/b.ts' not found.",
        )
        checked = warm.run(check_all(warm.ws))
        found = {(r.path, d.code) for r in checked.results for d in r.diagnostics}
        assert found == {("tsconfig.json", "6053")}


def test_each_referenced_projects_configuration_errors_are_tsc_bs(tmp_path: Path) -> None:
    # A monorepo's solution (tsconfig.json `{"files": [], "references": [p0 .. p3]}`, p1..p3
    # referencing p0, each composite: it emits, so the builder cannot list it): tsc -b says
    # each project's configuration errors. lspd check said p0's alone (the solution's owner
    # of its files), none of p1's or p3's: a tsconfig.json below the root was never asked.
    options = {"composite": True, "strict": True, "outDir": "lib", "rootDir": "src"}
    wrong = [{"bogusZero": True}, {"bogusOne": True}, {}, {"target": "es2099"}]
    files = {
        "tsconfig.json": json.dumps(
            {"files": [], "references": [{"path": f"packages/p{i}"} for i in range(4)]}
        ),
        ".gitignore": "node_modules\nlib\n*.tsbuildinfo\n",
    }
    for i, option in enumerate(wrong):
        config = {"compilerOptions": {**options, "types": [], **option}, "include": ["src"]}
        config |= {"references": [{"path": "../p0"}]} if i else {}
        files[f"packages/p{i}/tsconfig.json"] = json.dumps(config, indent=2)
        files[f"packages/p{i}/src/m{i}.ts"] = f"export const v{i}: number = {i};\n"
    root = typescript_committed(tmp_path / "ts5", files, "5.9.3")
    truth = build(root)
    assert [(p, line, code) for p, line, _, code in truth] == [
        ("packages/p0/tsconfig.json", 8, "5023"),
        ("packages/p1/tsconfig.json", 8, "5023"),
        ("packages/p3/tsconfig.json", 8, "6046"),
    ]
    checked = answer(root, check_all)
    found = [(r.path, d.line, d.column, d.code) for r in checked.results for d in r.diagnostics]
    assert sorted(found) == truth  # each once (p0's: its owner's and its project's listing)


def build(root: Path) -> list[tuple[str, int, int, str]]:
    """The project's own `tsc -b` from cold, its errors; what it built removed after."""
    out = own_tsc(root, "-b", "--pretty", "false")
    for built in [*root.glob("packages/*/lib"), *root.glob("packages/*/*.tsbuildinfo")]:
        shutil.rmtree(built) if built.is_dir() else built.unlink()
    return sorted((p, int(a), int(b), c) for p, a, b, c in LINE.findall(out))


def test_a_root_program_writing_over_its_input_is_tscs_without_a_tsc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A root tsconfig that emits (no noEmit: ky's) was listed by a tsc of lspd's own, only for
    # what the builder's noEmit leaves out: TS5055, an output written over an input (here
    # src/b.js over itself), which stops tsc's semantic check. The builder says it now.
    options = {"strict": True, "allowJs": True, "declaration": False}
    files = {
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/a.ts": "export const a: number = 'one';\n",
        "src/b.js": "export const b = 1;\n",
    }
    root = typescript_committed(tmp_path / "ts5", files, "5.9.3")
    copy = shutil.copytree(root, tmp_path / "copy", symlinks=True)  # tsc writes src/a.js
    out = own_tsc(copy, "-p", ".", "--pretty", "false").replace(str(copy), str(root))
    assert out.splitlines() == [
        f"error TS5055: Cannot write file '{root}/src/b.js' because it would overwrite input file."
    ]
    runs: list[Path] = []

    def counted(command: list[str], config: Path) -> tuple[list[Path], list[Any]]:
        runs.append(config)
        return listed(command, config)

    async def asked(ws: Workspace) -> Checked:  # as `lspd check` asks: one question
        with one_question():
            return await check_all(ws)

    monkeypatch.setattr(native_program, "listed", counted)
    checked = answer(root, asked)
    found = [(r.path, d.line, d.code, d.message) for r in checked.results for d in r.diagnostics]
    message = f"Cannot write file '{root}/src/b.js' because it would overwrite input file."
    assert (found, runs) == ([("tsconfig.json", 1, "5055", message)], [])
