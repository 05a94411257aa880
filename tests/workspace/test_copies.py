"""A copy of a project for a state never written (`workspace/copies.py`, tsc's copy
`workspace/tsc_kept.py`, `workspace/tsc_copy.py`): its node_modules and symlinked folders
are links to the repository's, so a held text under one, written there, landed in the
repository (a dependency's file edited by a preview, or removed). Refused now before
anything is written (`LeadsOut`): tsc on a copy cannot say (None), and the repository is
as it was; the same for basedpyright's copy (an environment's file). Real TypeScript
7.0.2 and 5.4.5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.engine.program_runs import compiler_of
from lspd.engine.python_mirror import wanted
from lspd.errors import InvalidInput
from lspd.workspace import Workspace, tsc_kept
from lspd.workspace.copies import LeadsOut, written
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written as files_written
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

TYPES = "export declare const size: number;\n"


def test_a_text_under_a_linked_folder_is_refused_before_any_is_written(tmp_path: Path) -> None:
    root = files_written(tmp_path / "p", {"a.ts": "1\n", "lib/b.ts": "2\n"})
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared/c.ts").write_text("3\n")
    (root / "linked").symlink_to(tmp_path / "shared")
    copy = tmp_path / "copy"
    files, links, _ = tsc_kept.listed(root, set(), lambda folder: False, lambda n: True, ())
    tsc_kept.brought(tsc_kept.Manifest(), root, copy, files, links)
    held = {root / "a.ts": "held\n", root / "linked/c.ts": None}
    with pytest.raises(LeadsOut):
        written(root, copy, held)
    assert (tmp_path / "shared/c.ts").read_text() == "3\n" and (copy / "a.ts").read_text() == "1\n"
    written(root, copy, {root / "a.ts": "held\n", root / "lib/new.ts": "4\n"})
    assert [(copy / n).read_text() for n in ("a.ts", "lib/new.ts")] == ["held\n", "4\n"]


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_tsc_on_a_copy_leaves_node_modules_alone(tmp_path: Path, version: str) -> None:
    config = {"compilerOptions": {"strict": True, "types": []}, "include": ["src"]}
    root = files_written(
        tmp_path / "p",
        {
            "tsconfig.json": json.dumps(config),
            "src/use.ts": "import { size } from 'dep';\nexport const s: number = size;\n",
            "node_modules/dep/package.json": json.dumps({"name": "dep", "types": "index.d.ts"}),
            "node_modules/dep/index.d.ts": TYPES,
        },
    )
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    tsc = compiler_of(Workspace(root, log_dir=tmp_path / "logs"), root / "tsconfig.json")
    assert tsc is not None
    dep = root / "node_modules/dep/index.d.ts"
    held = {dep: "export declare const size: string;\n"}
    assert checked_copy(tsc, root, root / "tsconfig.json", held, tmp_path / "s") is None
    assert dep.read_text() == TYPES


def test_a_python_state_holding_a_file_of_a_linked_folder_is_refused(tmp_path: Path) -> None:
    """basedpyright's copy (`engine/python_mirror.wanted`) links symlinked folders: a held
    text there would be written into the folder it leads to (an environment's is held in
    folders of the copy: tests/engine/test_python_mirror.py)."""
    root = files_written(tmp_path / "p", {"pkg/a.py": "x = 1\n"})
    files_written(tmp_path / "shared", {"dep.py": "y = 1\n"})
    (root / "linked").symlink_to(tmp_path / "shared")
    with pytest.raises(InvalidInput, match=r"^linked/dep\.py is in a folder"):
        wanted(root, {root / "linked/dep.py": "y = 2\n", root / "pkg/a.py": None})
    assert wanted(root, {root / "pkg/b.py": "z = 1\n"}).files[Path("pkg/b.py")] == b"z = 1\n"
