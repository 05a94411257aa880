"""A configuration narrowed so that a file holding a baseline error leaves the gate (a
tsconfig's `include`, pyright's `include`, mypy's `files`): the project's own gate no
longer checks it, so its error is gone (tsc -p: fixed 1), and check --baseline counts it
fixed, saying the file left the gate (`since_kept.left_gate`). Before: 0 fixed, 0
unchanged, not a word. Real TypeScript 7.0.2 (against its tsc -p), basedpyright and mypy
2.4.1 (against its own run)."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG, native_project
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.toolchains import gate

BAD = "export const bad: string = 1;\n"


def _since(warm: Warm) -> tuple[list[tuple[str, str]], int, str]:
    found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert found is not None and found.introduced == []
    return [(d.path, d.code or "") for d in found.fixed], found.unchanged, found.scope


def test_a_typescript_file_leaving_include_takes_its_errors_with_it(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "extra").mkdir()
    (root / "extra/bad.ts").write_text(BAD)
    (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src", "extra"]}))
    committed(root)
    assert gate(root)[1].count("error TS") == 1
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _since(warm)[:2] == ([], 1)  # HEAD's result kept
        (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src"]}))
        assert gate(root) == (0, "")  # tsc -p: the error gone
        fixed, unchanged, scope = _since(warm)
        assert (fixed, unchanged) == ([("extra/bad.ts", "2322")], 0)
        assert "1 file(s) left the gate since (their errors fixed): extra/bad.ts" in scope


def test_a_python_file_leaving_pyrights_include_takes_its_errors_with_it(tmp_path: Path) -> None:
    root = tmp_path / "py"
    for name, text in {"app/main.py": "x: int = 1\n", "extra/bad.py": 'y: int = "s"\n'}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "pyrightconfig.json").write_text('{"include": ["app", "extra"]}\n')
    committed(root)
    for warm in warm_root(root.resolve(), tmp_path / "logs", watch=True):
        assert _since(warm)[:2] == ([], 1)
        (root / "pyrightconfig.json").write_text('{"include": ["app"]}\n')
        fixed, unchanged, scope = _since(warm)
        assert (fixed, unchanged) == ([("extra/bad.py", "reportAssignmentType")], 0)
        assert "left the gate since (their errors fixed): extra/bad.py" in scope


def test_a_python_file_leaving_mypys_files_takes_its_errors_with_it(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app", "extra"]\n',
        "app/__init__.py": "",
        "app/main.py": "x: int = 1\n",
        "extra/__init__.py": "",
        "extra/bad.py": 'y: int = "s"\n',
    }
    root = committed(project(tmp_path / "p", files))
    assert [(f, code) for f, _, _, code, _ in cli_errors(root)] == [("extra/bad.py", "assignment")]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _since(warm)[:2] == ([], 1)
        (root / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["app"]\n')
        assert cli_errors(root) == []  # mypy: the error gone
        fixed, unchanged, scope = _since(warm)
        assert (fixed, unchanged) == ([("extra/bad.py", "assignment")], 0)
        assert "left the gate since (their errors fixed): extra/__init__.py, extra/bad.py" in scope
