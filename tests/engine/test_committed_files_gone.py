"""A tsconfig's `files` entry deleted since HEAD: `tsc -p` says "File '.../src/b.ts' not
found." (TS6053) and nothing else of the program, where HEAD's said a.ts's TS2322. `check
--baseline HEAD` said 0 new ("1 unchanged", "at the baseline, tsc stopped at
tsconfig.json:1"): HEAD's result was made of the work tree's check, its configuration's
TS6053 and stop (the deleted file held at HEAD's text, the tsconfig's listing the disk's),
and kept so (after b.ts came back, a.ts's TS2322 read as unchecked at HEAD). Now the TS6053
is new, as tsc says it (in tsconfig.json, as `lspd check`), and HEAD's result tsc's on a
copy. Real TypeScript 5.4.5 (the builder) and 7.0.2 (`tsc --lsp`), a watched workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from tests.conftest import Warm, warm_root
from tests.ops.test_tsconfig_files_gone import FILES as GONE
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_committed

FILES = {**GONE, "src/a.ts": 'export const a: number = "a";\n'}  # TS2322 at HEAD


def since_head(warm: Warm) -> Changes:
    result = warm.run(workspace_diagnostics(warm.ws, limit=100, baseline="HEAD"))
    assert result.changes is not None
    return result.changes


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_files_entry_deleted_since_head_is_new(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "ts", FILES, version)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "src/b.ts").unlink()
        code, out = gate(root)  # tsc's own answer: the TS6053 alone, without a place
        said = out.splitlines()
        assert code != 0 and said[0].startswith("error TS6053: ")
        assert len([line for line in said if line.startswith("error")]) == 1
        changes = since_head(warm)
        new = [(d.path, d.line, d.column, d.code, d.message) for d in changes.introduced]
        message = said[0].removeprefix("error TS6053: ")
        assert [n[:4] for n in new] == [("tsconfig.json", 1, 1, "6053")]
        assert new[0][4].splitlines()[0] == message
        assert changes.fixed == [] and changes.baseline_stopped == []
        assert [s.at for s in changes.stopped] == [["tsconfig.json:1"]]
        (root / "src/b.ts").write_text(FILES["src/b.ts"])
        assert gate(root)[1].count("error TS2322") == 1
        back = since_head(warm)  # HEAD's kept result read back: a.ts's TS2322 checked there
        assert (back.introduced, back.fixed, back.baseline_stopped) == ([], [], [])
        assert back.unchanged == 1


REFERENCED = {
    "tsconfig.json": GONE["tsconfig.json"],
    "src/a.ts": '/// <reference path="./g.ts" />\nexport const a: number = g;\n',
    "src/b.ts": "export const b = 2;\n",
    "src/g.ts": "declare const g: number;\n",
}


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_referenced_file_deleted_since_head_is_no_configuration(
    tmp_path: Path, version: str
) -> None:
    """tsc says the same TS6053 of a `/// <reference path>` to a file deleted since HEAD, in
    the source file naming it: that file is no configuration, its program's HEAD state the
    work tree's with HEAD's texts held, as any deletion's."""
    root = typescript_committed(tmp_path / "ts", REFERENCED, version)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert since_head(warm).introduced == []
        (root / "src/g.ts").unlink()
        code, out = gate(root)
        said = sorted(
            line.split(": error ")[1][:6] for line in out.splitlines() if ": error " in line
        )
        assert code != 0 and said == ["TS2304", "TS6053"], out
        changes = since_head(warm)
        new = sorted((d.path, d.line, d.code) for d in changes.introduced)
        assert new == [("src/a.ts", 1, "6053"), ("src/a.ts", 2, "2304")]
        assert changes.fixed == [] and changes.baseline_stopped == []


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_files_entry_missing_at_head_and_made_since_is_fixed(
    tmp_path: Path, version: str
) -> None:
    """The reverse: HEAD's tsconfig names src/b.ts, which HEAD lacks (tsc -p there says the
    TS6053 alone); b.ts made since. HEAD's result was made of the work tree's check with b.ts
    held absent, the disk's listing holding it: no TS6053, a.ts's TS2322 "1 unchanged". Now
    the TS6053 is fixed, and a.ts's TS2322, which tsc did not check at HEAD, not checked
    there (as any baseline stop's files), not unchanged."""
    missing = {path: text for path, text in FILES.items() if path != "src/b.ts"}
    root = typescript_committed(tmp_path / "ts", missing, version)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "src/b.ts").write_text(FILES["src/b.ts"])
        assert gate(root)[1].count("error TS2322") == 1
        changes = since_head(warm)
        fixed = [(d.path, d.line, d.column, d.code) for d in changes.fixed]
        assert fixed == [("tsconfig.json", 1, 1, "6053")]
        stopped = [(s.checker, s.at, s.files, s.not_checked) for s in changes.baseline_stopped]
        assert stopped == [("tsc", ["tsconfig.json:1"], ["src/a.ts"], 1)]
        assert (changes.introduced, changes.stopped, changes.unchanged) == ([], [], 0)
