"""A solution-style layout's other program (tsconfig.node.json, which also includes
app/shapes.ts) given an option tsc refuses: `tsc -b` says the configuration's error and,
where the option does not stop the program (an unknown option, TS5023), that program's
errors of the shared file too; a removed option (TypeScript 7's TS5108) stops it: its
error alone. lspd check said no error of that program at all (its `tsc -p` answer, read as
'a configuration it could not read', was dropped). The project's own `tsc -b` on 7.0.2 and
5.9.3 asserted beside (`engine/solution_check.py`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.servers.registry import node_executable
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.engine.test_solution_check import (
    DOCUMENT,
    FILES,
    NODE,
    OPTIONS,
    TS59,
    checked,
    introduced,
    shared,
    tsc_b,
)
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

CASES = [  # version, the option, tsc -b's error (its column), whether the program is checked
    (TS7_PINNED, {"bogusOption": True}, (5, 5023), True),  # at the option's name
    (TS59, {"bogusOption": True}, (5, 5023), True),
    (TS7_PINNED, {"moduleResolution": "node10"}, (25, 5108), False),  # at its value
]

Case = tuple[Warm, dict[str, object], tuple[int, int], bool]


@pytest.fixture(params=CASES, ids=["7-unknown", "5.9-unknown", "7-removed"])
def case(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Case]:
    version, option, code, checks = request.param
    root = written(tmp_path / "ts", FILES)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    for warm in watched(committed(root), tmp_path / "logs"):
        yield warm, option, code, checks


def test_the_other_programs_configuration_error_is_tscs(
    case: Case,
) -> None:
    warm, option, code, checks = case
    root = warm.root
    shared(root, DOCUMENT)  # the node program's TS2584 of app/shapes.ts
    node = json.loads((root / "tsconfig.node.json").read_text())
    node["compilerOptions"].update(option)
    (root / "tsconfig.node.json").write_text(json.dumps(node, indent=2))
    truth = tsc_b(root)
    said = [t[:4] for t in truth if t[0] != "app/main.ts"]
    line = line_of(root, next(iter(option)))
    shapes = [("app/shapes.ts", 2, 22, 2584)] if checks else []
    assert said == [*shapes, ("tsconfig.node.json", line, *code)]
    assert checked(warm) == truth
    new = [(t[0], t[1], t[3]) for t in truth if t[0] != "app/main.ts"]
    assert introduced(warm) == new


def line_of(root: Path, option: str) -> int:
    """The line of tsconfig.node.json naming `option`."""
    lines = (root / "tsconfig.node.json").read_text().splitlines()
    return 1 + next(i for i, text in enumerate(lines) if f'"{option}"' in text)


@pytest.mark.parametrize("version", [TS7_PINNED, TS59])
def test_a_programs_configuration_error_is_said_where_it_shares_no_file(
    tmp_path: Path, version: str
) -> None:
    # tsconfig.node.json's own files alone (tools/): its server answers them and says
    # nothing of its configuration; tsc -b says its TS5023
    root = written(tmp_path / "ts", FILES)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    for warm in watched(committed(root), tmp_path / "logs"):
        node = json.loads((root / "tsconfig.node.json").read_text())
        node["compilerOptions"]["bogusOption"] = True
        (root / "tsconfig.node.json").write_text(json.dumps(node, indent=2))
        truth = tsc_b(root)
        assert [t[:4] for t in truth if t[0] != "app/main.ts"] == [
            ("tsconfig.node.json", line_of(root, "bogusOption"), 5, 5023)
        ]
        assert checked(warm) == truth
        assert introduced(warm) == [("tsconfig.node.json", truth[-1][1], 5023)]


@pytest.mark.parametrize("version", [TS7_PINNED, TS59])
def test_a_programs_files_entry_gone_is_said(tmp_path: Path, version: str) -> None:
    # tsc's configuration errors hang on which files exist too: tsconfig.node.json's
    # `files` entry deleted is "error TS6053: File '.../tools/gone.ts' not found." (no
    # place: lspd says it in that tsconfig); its errors were kept while its stamps stood.
    listed = {"compilerOptions": {**OPTIONS, **NODE}, "files": ["tools/build.ts", "tools/gone.ts"]}
    files = {**FILES, "tsconfig.node.json": json.dumps(listed), "tools/gone.ts": "export {};\n"}
    root = written(tmp_path / "ts", files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    for warm in watched(committed(root), tmp_path / "logs"):
        assert [t for t in checked(warm) if t[0] != "app/main.ts"] == []
        (root / "tools/gone.ts").unlink()
        said = tsc_b_output(root)
        assert f"error TS6053: File '{root}/tools/gone.ts' not found." in said
        found = [(t[0], t[3]) for t in checked(warm) if t[0] != "app/main.ts"]
        assert found == [("tsconfig.node.json", 6053)]


def tsc_b_output(root: Path) -> str:
    """`tsc -b`'s output from cold: its errors with no place too."""
    shutil.rmtree(root / "node_modules" / ".tmp", ignore_errors=True)
    tsc = [node_executable(), "node_modules/typescript/bin/tsc", "-b", "--pretty", "false"]
    return subprocess.run(tsc, cwd=root, capture_output=True, text=True, timeout=300).stdout
