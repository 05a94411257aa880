"""tsc on a copy (`workspace/tsc_copy_layout.py`) of a project where a symlink inside it leads to a
folder of it (`lib -> real`, app/use.ts importing '../lib/helper'): a held text of
real/helper.ts says what `tsc -p` says once it is written (app/use.ts:2:14 TS2322). The
copy linked `lib` to the repository's own `real/`, so tsc read the disk's text through it
(no error), and a text held by its name through the link was refused (`LeadsOut`: None).
Now the copy's `lib` leads to its own `real/` (`tsc_copy_layout._inner`). Real TypeScript 5.4.5
and 7.0.2 against their `tsc -p`."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from lspd.engine.program_runs import compiler_of
from lspd.workspace import Workspace
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

HELPER = "export function h(): number { return 1; }\n"
CHANGED = "export function h(): string { return ''; }\n"
USE = "import { h } from '../lib/helper';\nexport const x: number = h();\n"
_ERROR = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)


def project(root: Path, helper: str, version: str) -> Path:
    config = {"compilerOptions": {"strict": True, "types": []}, "include": ["app", "real"]}
    files = {"tsconfig.json": json.dumps(config), "real/helper.ts": helper, "app/use.ts": USE}
    root = written(root, files)
    os.symlink("real", root / "lib")
    (root / "node_modules").mkdir()
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    return root


def tsc_p(tsc: list[str], root: Path) -> list[tuple[str, int, int, str]]:
    """`tsc -p` on `root` as it is: each error's file, line, column and code."""
    command = [*tsc, "-p", str(root / "tsconfig.json"), "--noEmit", "--pretty", "false"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    return [
        (f, int(line), int(column), code) for f, line, column, code in _ERROR.findall(done.stdout)
    ]


@pytest.mark.parametrize("version", [TS_PINNED, TS7_PINNED])
def test_a_text_held_under_a_symlinked_folder_is_read_by_both_names(
    tmp_path: Path, version: str
) -> None:
    truth_root = project(tmp_path / "t", CHANGED, version)
    tsc = compiler_of(
        Workspace(truth_root, log_dir=tmp_path / "logs"), truth_root / "tsconfig.json"
    )
    assert tsc is not None
    truth = tsc_p(tsc, truth_root)
    assert truth == [("app/use.ts", 2, 14, "2322")]
    root = project(tmp_path / "p", HELPER, version)
    assert tsc_p(tsc, root) == []
    base = tmp_path / "state"
    for name in ("real/helper.ts", "lib/helper.ts", "real/helper.ts"):  # the kept copy's
        checked = checked_copy(tsc, root, root / "tsconfig.json", {root / name: CHANGED}, base)
        assert checked is not None
        said = [(str(e.file.relative_to(root)), e.line, e.column, e.code) for e in checked.errors]
        assert said == truth
        again = checked_copy(tsc, root, root / "tsconfig.json", {}, base)  # the disk's
        assert again is not None and again.errors == ()
    assert (root / "real/helper.ts").read_text() == HELPER and (root / "lib").is_symlink()
