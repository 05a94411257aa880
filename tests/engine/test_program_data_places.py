"""A TypeScript program's JSON modules wherever they are (`engine/program_data.py`): the
program's own listing says which it reads, not the folder a JSON is in. One imported from
outside every tsconfig.json's folder (`app/` importing ../../shared/defaults.json) was no
changed file (`revisions.program_data` wanted a tsconfig.json above it): its edit's error
counted unchanged, a preview of it refused. Real TypeScript 7.0.2 and 5.4.5, their `tsc -p`
on the written tree beside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_program_data import OPTIONS
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_package

SHARED = {
    "app/tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "app/src/use.ts": (
        'import defaults from "../../shared/defaults.json";\n'
        "export const retries: number = defaults.retries;\n"
    ),
    "app/src/known.ts": "export const known: string = 1;\n",  # HEAD's own error
    "shared/defaults.json": '{ "retries": 3 }\n',
    ".gitignore": "node_modules\n",
}
EDITED = '{ "retries": "3" }\n'


def _project(root: Path, files: dict[str, str], version: str, at: str = "app") -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / at / "node_modules").mkdir()
    (root / at / "node_modules" / "typescript").symlink_to(typescript_package(version))
    return committed(root.resolve())


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_json_module_outside_every_tsconfigs_folder_is_its_programs(
    tmp_path: Path, version: str
) -> None:
    root = _project(tmp_path / "p", SHARED, version)
    (root / "shared/defaults.json").write_text(EDITED)
    assert "src/use.ts(2,14): error TS2322" in gate(root / "app")[1]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert found is not None
        assert [(d.path, d.line, d.column, d.code) for d in found.introduced] == [
            ("app/src/use.ts", 2, 14, "2322")
        ]
        assert (found.fixed, found.unchanged, found.changed) == ([], 1, ["shared/defaults.json"])
    (root / "shared/defaults.json").write_text(SHARED["shared/defaults.json"])
    for warm in warm_root(root, tmp_path / "logs"):  # a preview of it: answered, not refused
        change = [{"path": "shared/defaults.json", "content": EDITED}]
        said = warm.run(previewed(warm.ws, change)).changes
        assert [(d.path, d.line, d.code) for d in said.introduced] == [
            ("app/src/use.ts", 2, "2322")
        ]
        assert (said.fixed, said.changed) == ([], ["shared/defaults.json"])


MONO = {
    "tsconfig.base.json": json.dumps({"compilerOptions": OPTIONS}),
    "app/tsconfig.json": json.dumps({"extends": "../tsconfig.base.json", "include": ["src"]}),
    "app/src/use.ts": (
        'import defaults from "./defaults.json";\n'
        "export const retries: number = defaults.retries;\n"
    ),
    "app/src/defaults.json": '{ "retries": 3 }\n',
    ".gitignore": "node_modules\n",
}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_copy_holds_the_configuration_extended_above_the_root(
    tmp_path: Path, version: str
) -> None:
    """The root a monorepo's package whose tsconfig extends ../tsconfig.base.json: tsc -p on
    a copy of the root alone could not read it ('did not answer on a copy': NotKept)."""
    app = _project(tmp_path / "mono", MONO, version) / "app"
    (app / "src/defaults.json").write_text(EDITED)
    assert "src/use.ts(2,14): error TS2322" in gate(app)[1]
    for warm in warm_root(app, tmp_path / "logs"):
        found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert found is not None
        assert [(d.path, d.line, d.column, d.code) for d in found.introduced] == [
            ("src/use.ts", 2, 14, "2322")
        ]
        assert (found.fixed, found.unchanged, found.changed) == ([], 0, ["src/defaults.json"])


BROKEN = '{ "retries": 3 \n'  # unclosed: tsc -p says its TS1005 alone, known.ts unchecked


@pytest.mark.parametrize("watch", [True, False], ids=["daemon", "one-shot"])
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_json_modules_syntax_error_is_tscs_answer_and_stop(
    tmp_path: Path, version: str, watch: bool
) -> None:
    """tsc -p with a JSON module unclosed says `../shared/defaults.json(2,1): error TS1005:
    '}' expected.` alone, exit 1 (7.0.2) or 2 (5.4.5, its code for any error): a syntax error
    of its program, its error counted (tsc's 1) and its stop (`engine/stops.py`: known.ts's
    TS2322 unchecked, not fixed). Before, lspd check said nothing (5.4.5: the builder's
    results were the gate's files' alone) or known.ts's TS2322 (7.0.2: the JSON was no own
    file of the program), and check --baseline HEAD 0 new. Closed again, tsc's answer is
    HEAD's: known.ts's TS2322, nothing new or fixed."""
    root = _project(tmp_path / "p", SHARED, version)
    (root / "shared/defaults.json").write_text(BROKEN)
    code, said = gate(root / "app")
    assert (code, said.strip()) == (1 if version == TS7_PINNED else 2, JSON_STOP)
    for warm in warm_root(root, tmp_path / "logs", watch=watch):
        found = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.column, d.code) for d in found.diagnostics] == [
            ("shared/defaults.json", 2, 1, "1005")
        ]
        assert found.errors == 1
        changes = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert changes is not None
        assert [(d.path, d.code) for d in changes.introduced] == [("shared/defaults.json", "1005")]
        assert [(s.checker, s.at) for s in changes.stopped] == [("tsc", ["shared/defaults.json:2"])]
        assert changes.fixed == []  # known.ts's TS2322 unchecked, not fixed
        (root / "shared/defaults.json").write_text(SHARED["shared/defaults.json"])
        code, said = gate(root / "app")
        assert said.startswith("src/known.ts(1,14): error TS2322") and said.count("error") == 1
        found = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.column, d.code) for d in found.diagnostics] == [
            ("app/src/known.ts", 1, 14, "2322")
        ]
        changes = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert changes is not None
        assert (changes.introduced, changes.fixed, changes.stopped) == ([], [], [])
        assert (changes.unchanged, changes.changed) == (1, [])


JSON_STOP = "../shared/defaults.json(2,1): error TS1005: '}' expected."
