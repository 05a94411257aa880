"""What `check --baseline` says changed when the change is the checkers' configuration: a
tsconfig.json edited (noUnusedParameters turned on) is the change, counted and named among
the changed files (it said "0 changed file(s)" over the error the edit introduced), since
HEAD and since the session's start. Real
builder (lspd's TypeScript 5.9), its `tsc -p` asserted beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.ops.test_file_since_kept_stops import ts_project
from tests.ops.test_since_kept_config import STRICTER, UNUSED, UNUSED_ERROR
from tests.workspace.test_tsbuilder_syntax import TYPE_ERROR, tsc_of


@pytest.mark.parametrize("baseline", ["HEAD", "session"])
def test_an_edited_tsconfig_is_a_changed_file(tmp_path: Path, baseline: str) -> None:
    root = ts_project(tmp_path)
    (root / "src/extra.ts").write_text(UNUSED)
    committed(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        clean = warm.run(workspace_diagnostics(warm.ws, baseline=baseline)).changes
        assert clean is not None and clean.scope.startswith("0 changed file(s); ")
        (root / "tsconfig.json").write_text(STRICTER)
        assert tsc_of(root, tmp_path, {}) == [UNUSED_ERROR, TYPE_ERROR]
        since = warm.run(workspace_diagnostics(warm.ws, baseline=baseline)).changes
        assert since is not None
        assert [(d.path, d.code) for d in since.introduced] == [("src/extra.ts", "6133")]
        assert since.changed == ["tsconfig.json"]
        assert since.scope.startswith("1 changed file(s) (the configuration: tsconfig.json); ")
        if baseline == "session":
            continue  # (a source edited after it is no changed file there: left, reported)
        (root / "src/extra.ts").write_text(UNUSED + "\nexport const more = 1;\n")
        both = warm.run(workspace_diagnostics(warm.ws, baseline=baseline)).changes
        assert both is not None and both.changed == ["src/extra.ts", "tsconfig.json"]
        assert both.scope.startswith("2 changed file(s) (the configuration: tsconfig.json); ")


def test_a_changed_file_outside_the_gate_is_counted_as_such(tmp_path: Path) -> None:
    """The one changed file outside the gate (pyright's `include`): "1 changed file(s), none
    in the gate", where it said "0 changed file(s)" (the counts right, the words not)."""
    root = committed(
        written(
            tmp_path / "p",
            {
                "pyrightconfig.json": '{"include": ["app"]}\n',
                "app/a.py": "x: int = 1\n",
                "scripts/tool.py": "y: int = 1\n",
            },
        )
    )
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "scripts/tool.py").write_text('y: int = "s"\n')
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None and since.introduced == [] and since.changed == []
        assert since.scope.startswith("1 changed file(s), none in the gate; ")
        (root / "app/a.py").write_text("x: int = 2\n")
        both = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert both is not None and both.changed == ["app/a.py"]
        assert both.scope.startswith("2 changed file(s), 1 in the gate; ")
