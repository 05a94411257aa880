"""`check --baseline HEAD` after an edit of a TypeScript or basedpyright configuration with
no HEAD result kept under HEAD's configuration (a fresh state directory, a daemon started
after the edit): HEAD's texts and configuration checked by the project's own tsc -p on a
copy, or by a basedpyright rooted at a copy holding them (`engine/configured.py`). Before,
refused (NotKept: "the servers check with the disk's configuration only"). The answer is
what the checker's own runs at HEAD and now differ by, as multisets: real TypeScript 7.0.2
and 5.4.5 (`tsc -p`), real basedpyright (its CLI)."""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from lspd.engine.committed import NotKept
from lspd.engine.python_mirror import mirrored
from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_native_check import CONFIG as NATIVE
from tests.ops.applied import BASEDPYRIGHT
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_committed

Row = tuple[str, int, str]  # path, line, code
_TSC = re.compile(r"^(?P<path>\S+)\((?P<line>\d+),\d+\): error TS(?P<code>\d+): ")


async def since_head(ws: Workspace) -> object:
    return await workspace_diagnostics(ws, baseline="HEAD")


def tsc_rows(root: Path) -> Counter[Row]:
    """The project's own `tsc -p .`: each error's file, line and code."""
    found = (_TSC.match(line) for line in gate(root)[1].splitlines())
    return Counter((m["path"], int(m["line"]), m["code"]) for m in found if m is not None)


def answered(root: Path) -> tuple[Counter[Row], Counter[Row], int, str]:
    """One-shot `check --baseline HEAD` from a fresh state: introduced, fixed (as multisets
    of file, line, code), unchanged, and the note."""
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    new = Counter((d.path, d.line, d.code or "") for d in since.introduced)
    fixed = Counter((d.path, d.line, d.code or "") for d in since.fixed)
    return new, fixed, since.unchanged, since.scope


TS_HEAD = {"compilerOptions": {**NATIVE["compilerOptions"]}, "include": ["src", "typetests"]}
# noUnusedParameters on, typetests/ left out: core.ts's TS6133 new, usage.ts's TS2322 fixed
TS_NOW = {
    "compilerOptions": {**NATIVE["compilerOptions"], "noUnusedParameters": True},
    "include": ["src"],
}
TS_FILES = {
    "src/core.ts": "export function f(unused: number): number {\n  return 1;\n}\n",
    "src/user.ts": 'import { f } from "./core";\nexport const s: string = f(1);\n',
    "typetests/usage.ts": 'export const t: number = "x";\n',
}
USER_NOW = TS_FILES["src/user.ts"] + "export const u: string = 2;\n"  # a source edit too


def ts_files(config: object) -> dict[str, str]:
    """`TS_FILES` under `config` (tsconfig.json)."""
    return {**TS_FILES, "tsconfig.json": json.dumps(config)}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_head_is_tsc_s_answer_under_its_own_tsconfig(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "p", ts_files(TS_HEAD), version)
    before = tsc_rows(root)
    assert before == Counter({("src/user.ts", 2, "2322"): 1, ("typetests/usage.ts", 1, "2322"): 1})
    written(root, {"tsconfig.json": json.dumps(TS_NOW), "src/user.ts": USER_NOW})
    after = tsc_rows(root)
    new, fixed, unchanged, scope = answered(root)
    assert (
        new
        == after - before
        == Counter({("src/core.ts", 1, "6133"): 1, ("src/user.ts", 3, "2322"): 1})
    )
    assert fixed == before - after == Counter({("typetests/usage.ts", 1, "2322"): 1})
    assert unchanged == sum((before & after).values()) == 1
    assert "(tsconfig.json): compared under the one then" in scope


def test_a_tsconfig_extending_outside_the_root_is_answered(tmp_path: Path) -> None:
    """tsc on the copy reads ../base.json beside it (4fcc863; refused before, saying so)."""
    (tmp_path / "base.json").write_text(json.dumps({"compilerOptions": NATIVE["compilerOptions"]}))
    config = {"extends": "../base.json", "include": ["src"]}
    root = typescript_committed(tmp_path / "p", ts_files(config), TS7_PINNED)
    before = tsc_rows(root)
    written(root, {"tsconfig.json": json.dumps({**config, "include": ["src", "typetests"]})})
    after = tsc_rows(root)
    new, fixed, unchanged, scope = answered(root)
    assert new == after - before == Counter({("typetests/usage.ts", 1, "2322"): 1})
    assert (fixed, unchanged) == (Counter(), 1)
    assert "(tsconfig.json): compared under the one then" in scope


PY_FILES = {
    "pyrightconfig.json": "{}\n",
    "pkg/__init__.py": "",
    "pkg/a.py": "def f(x: int) -> int:\n    if x is None:\n        return 0\n    return x\n",
    "pkg/b.py": "z: str = 1\n",
}
# strict: a.py's comparison an error (a warning before), its unreachable return unsaid
STRICT = '{"typeCheckingMode": "strict"}\n'
B_NOW = PY_FILES["pkg/b.py"] + "w: str = 2\n"


def pyright_rows(root: Path) -> Counter[tuple[str, int, str, str]]:
    """basedpyright's CLI on `root`: each error's and warning's file, line, rule, severity."""
    done = subprocess.run(
        [BASEDPYRIGHT, "--outputjson"], cwd=root, capture_output=True, text=True, timeout=300
    )
    return Counter(
        (
            str(Path(d["file"]).relative_to(root)),
            d["range"]["start"]["line"] + 1,
            d.get("rule", ""),
            d["severity"],
        )
        for d in json.loads(done.stdout)["generalDiagnostics"]
        if d["severity"] in ("error", "warning")
    )


def test_head_is_basedpyright_s_answer_under_its_own_configuration(tmp_path: Path) -> None:
    root = committed(written(tmp_path / "p", PY_FILES))
    before = pyright_rows(root)
    written(root, {"pyrightconfig.json": STRICT, "pkg/b.py": B_NOW})
    after = pyright_rows(root)
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    rows = lambda found: Counter((d.path, d.line, d.code or "", d.severity) for d in found)  # noqa: E731
    assert rows(since.introduced) == after - before
    assert rows(since.fixed) == before - after
    assert after - before == Counter(
        {
            ("pkg/a.py", 2, "reportUnnecessaryComparison", "error"): 1,
            ("pkg/b.py", 2, "reportAssignmentType", "error"): 1,
        }
    )
    assert since.unchanged == sum((before & after).values())
    assert "(pyrightconfig.json): compared under the one then" in since.scope


def test_a_pyright_include_edited_is_refused(tmp_path: Path) -> None:
    """HEAD's files are not the disk's: refused, saying so."""
    root = committed(written(tmp_path / "p", {**PY_FILES, "extra/e.py": 'y: int = "s"\n'}))
    written(root, {"pyrightconfig.json": '{"include": ["pkg"]}\n'})
    with pytest.raises(NotKept, match=r"pyrightconfig.json"):
        answer(root, since_head)


PYPROJECT = '[project]\nname = "p"\nversion = "0.1"\n\n[tool.basedpyright]\ninclude = ["pkg"]\n'


def test_only_other_pyright_settings_send_the_files_to_a_copy(tmp_path: Path) -> None:
    """A pyproject.toml held at a text whose pyright table is the disk's (a version bump)
    leaves the files to the project's own server; other settings send every file to a
    server rooted at a copy (`python_mirror.mirrored`)."""
    files = {k: v for k, v in PY_FILES.items() if k != "pyrightconfig.json"}
    root = written(tmp_path / "p", {**files, "pyproject.toml": PYPROJECT})
    ws = Workspace(root, log_dir=tmp_path / "logs")
    sources = sorted(root.glob("pkg/*.py"))
    bumped = PYPROJECT.replace('"0.1"', '"0.2"')
    assert mirrored(ws, sources, {root / "pyproject.toml": bumped}) == []
    strict = PYPROJECT + 'typeCheckingMode = "strict"\n'
    assert mirrored(ws, sources, {root / "pyproject.toml": strict}) == sources
