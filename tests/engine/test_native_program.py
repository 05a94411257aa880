"""TypeScript 7's program listing (`tsc -p --listFilesOnly`), which says the configuration's
errors too, is made again when files came or went only where those errors can change
(`native_program.configuration`): a file written anew (git apply: every patch) or a file no
program reads lists nothing again; a `files` entry gone and back, or a script come that the
program may include, does. Real TypeScript 7.0.2, a watched workspace, against tsc -p."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG, check, listed, native_project, tsc


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    yield from warm_root(native_project(tmp_path / "ts7"), tmp_path / "logs", watch=True)


def written_anew(path: Path, text: str) -> None:
    """`path` removed and written again, as git apply writes a file it patches."""
    path.unlink()
    path.write_text(text)


def test_a_file_written_anew_lists_nothing_again(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings = listed(monkeypatch)
    src = project.root / "src"
    assert check(project)[1] == tsc(project) == set()
    assert listings == [project.root / "tsconfig.json"]
    written_anew(src / "leaf.ts", "export const x: string = 1;\n")
    (project.root / "notes.md").write_text("a file no program reads\n")
    assert check(project)[1] == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}
    assert listings == [project.root / "tsconfig.json"]  # twice before (files came or went)


def test_a_files_entry_gone_and_back_and_a_script_come_list_again(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project.root
    names = ["src/core.ts", "src/user.ts", "src/again.ts", "src/leaf.ts"]
    (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "files": names}))
    listings = listed(monkeypatch)
    (root / "src/leaf.ts").write_text("export const x: string = 1;\n")
    assert check(project)[1] == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}
    again = (root / "src/again.ts").read_text()
    (root / "src/again.ts").unlink()
    gone = check(project)[1]  # tsc -p says TS6053 with no place: lspd in tsconfig.json
    assert gone - tsc(project) == {("tsconfig.json", 1, 1, "6053")}
    (root / "src/again.ts").write_text(again)
    assert check(project)[1] == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}
    (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src"]}))
    assert check(project)[1] == tsc(project)
    (root / "src/more.ts").write_text("export const m: number = 'm';\n")  # included: TS2322
    assert check(project)[1] == tsc(project)
    assert ("src/more.ts", 1, 14, "2322") in tsc(project)
    assert len(listings) == 5  # each change of the configuration's files listed again
