"""A JSON module a TypeScript program imports (`resolveJsonModule`) edited since HEAD is a
changed file, and HEAD's result is made of HEAD's text of it (`engine/program_data.py`):
before, `check --baseline HEAD` said 0 changed files and the error its edit made unchanged
(HEAD's result made of the disk's JSON, kept so: after the revert, a phantom fix). Real
TypeScript 7.0.2 and 5.4.5 (the builder), their `tsc -p` on the written tree beside. A
preview of such an edit is answered through its program too (it was refused: no server
handles .json). A JSON no program reads (package.json) is no change: no tsc -p on a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lspd.engine.program_data as program_data
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG as NATIVE
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_package

OPTIONS = {**NATIVE["compilerOptions"], "resolveJsonModule": True}
CONFIG = {"compilerOptions": OPTIONS, "include": ["src"]}
FILES = {
    "src/defaults.json": '{ "retries": 3 }\n',
    "src/use.ts": (
        'import defaults from "./defaults.json";\n'
        "export const retries: number = defaults.retries;\n"
    ),
    "src/known.ts": "export const known: string = 1;\n",  # HEAD's own error
}
EDITED = '{ "retries": "3" }\n'
PACKAGE = {"package.json": '{ "name": "p", "private": true }\n'}
DEPENDED = '{ "name": "p", "private": true, "dependencies": { "left-pad": "1.3.0" } }\n'


def _project(root: Path, version: str) -> Path:
    for name, text in {**FILES, "tsconfig.json": json.dumps(CONFIG), **PACKAGE}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    (root / ".gitignore").write_text("node_modules\n")
    return committed(root.resolve())


def _since(warm: Warm) -> tuple[set[tuple[str, str]], set[tuple[str, str]], int, list[str]]:
    found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert found is not None
    new = {(d.path, d.code or "") for d in found.introduced}
    return new, {(d.path, d.code or "") for d in found.fixed}, found.unchanged, found.changed


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_an_edited_json_module_is_a_change_and_heads_result_is_of_heads_json(
    tmp_path: Path, version: str
) -> None:
    root = _project(tmp_path / "p", version)
    assert gate(root)[1].count("error TS") == 1  # src/known.ts(1,14) TS2322
    (root / "src/defaults.json").write_text(EDITED)
    assert "src/use.ts(2,14): error TS2322" in gate(root)[1]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        # HEAD's result made now, the tree dirty: of HEAD's JSON
        assert _since(warm) == ({("src/use.ts", "2322")}, set(), 1, ["src/defaults.json"])
        (root / "src/defaults.json").write_text(FILES["src/defaults.json"])
        assert _since(warm) == (set(), set(), 1, [])  # no phantom fix: the kept one is HEAD's
        (root / "src/defaults.json").write_text(EDITED)
        assert _since(warm) == ({("src/use.ts", "2322")}, set(), 1, ["src/defaults.json"])


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_files_baseline_holds_heads_json_for_its_program(tmp_path: Path, version: str) -> None:
    root = _project(tmp_path / "p", version)
    (root / "src/defaults.json").write_text(EDITED)
    for warm in warm_root(root, tmp_path / "logs"):  # one-shot: no kept result read
        found = warm.run(diagnostics(warm.ws, "src/use.ts", baseline="HEAD")).changes
        assert found is not None and found.changed == ["src/defaults.json"]
        assert [(d.path, d.line, d.column, d.code) for d in found.introduced] == [
            ("src/use.ts", 2, 14, "2322")
        ]
        assert found.fixed == [] and found.unchanged == 0


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_preview_of_a_json_module_is_answered_through_its_program(
    tmp_path: Path, version: str
) -> None:
    root = _project(tmp_path / "p", version)
    for warm in warm_root(root, tmp_path / "logs"):
        change = [{"path": "src/defaults.json", "content": EDITED}]
        found = warm.run(previewed(warm.ws, change)).changes
        assert [(d.path, d.line, d.column, d.code) for d in found.introduced] == [
            ("src/use.ts", 2, 14, "2322")
        ]
        assert (found.fixed, found.unchanged, found.changed) == ([], 1, ["src/defaults.json"])
        assert (root / "src/defaults.json").read_text() == FILES["src/defaults.json"]


def _copies(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The configs `tsc -p` ran on a copy for (`program_data.checked_copy`), counted."""
    ran: list[Path] = []
    real = program_data.checked_copy

    def counted(tsc: list[str], root: Path, config: Path, *rest: object) -> object:
        ran.append(config)
        return real(tsc, root, config, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(program_data, "checked_copy", counted)
    return ran


@pytest.mark.parametrize("watch", [False, True])
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_package_json_no_program_reads_is_no_change_and_runs_no_tsc(
    tmp_path: Path, version: str, watch: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p", version)
    ran = _copies(monkeypatch)
    (root / "package.json").write_text(DEPENDED)  # a dependency added: tsc -p says the same
    assert gate(root)[1].count("error TS") == 1
    for warm in warm_root(root, tmp_path / "logs", watch=watch):
        assert _since(warm) == (set(), set(), 1, [])
        assert ran == []
    (root / "src/defaults.json").write_text(EDITED)  # read by the program: it counts
    for warm in warm_root(root, tmp_path / "logs", watch=watch):  # servers told of it
        assert _since(warm) == ({("src/use.ts", "2322")}, set(), 1, ["src/defaults.json"])


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_preview_of_a_package_json_no_program_reads_runs_no_tsc(
    tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p", version)
    ran = _copies(monkeypatch)
    for warm in warm_root(root, tmp_path / "logs"):  # one-shot
        change = [{"path": "package.json", "content": DEPENDED}]
        found = warm.run(previewed(warm.ws, change)).changes
        assert (found.introduced, found.fixed, found.unchanged) == ([], [], 0)  # none held
        # nothing module resolution reads (config_parts): left out, as pyproject's [project]
        assert found.changed == [] and ran == []
        assert (root / "package.json").read_text() == PACKAGE["package.json"]


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_files_baseline_past_a_package_json_edit_runs_no_tsc(
    tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A one-shot `diagnostics FILE --baseline HEAD` with no builder run: TypeScript 5's
    program's JSON modules are those the gate's reading of its tsconfig resolves (the
    scope's `data`); package.json counted there (every JSON under a tsconfig) and tsc -p
    ran on a copy for it."""
    root = _project(tmp_path / "p", version)
    ran = _copies(monkeypatch)
    (root / "package.json").write_text(DEPENDED)
    for warm in warm_root(root, tmp_path / "logs"):  # one-shot
        found = warm.run(diagnostics(warm.ws, "src/use.ts", baseline="HEAD")).changes
        assert found is not None and (found.changed, found.introduced, found.fixed) == ([], [], [])
        assert ran == []
