"""A pyproject.toml edited where no checker reads (its `[project]` version) leaves HEAD's
configuration as it was (`config_parts.same_settings`, `revisions.configs_then`): `check
--baseline HEAD` answers, where it was refused (NotKept, exit 2: "the checkers'
configuration changed since ..."). Real basedpyright, its CLI beside."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.ops.applied import basedpyright_errors
from tests.ops.test_baseline import committed

PYPROJECT = """\
[project]
name = "app"
version = "0.1"

[tool.basedpyright]
typeCheckingMode = "standard"
"""


def test_a_version_bump_leaves_the_baseline_answered(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "app/__init__.py").write_text("")
    (root / "app/main.py").write_text("x: int = 1\n")
    root = committed(root.resolve())
    assert basedpyright_errors(root) == []
    (root / "pyproject.toml").write_text(PYPROJECT.replace('"0.1"', '"0.2"'))
    (root / "app/main.py").write_text('x: int = ""\n')
    truth = basedpyright_errors(root)
    assert truth == [("app/main.py", 1, "reportAssignmentType")]
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    assert since.changes is not None
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == truth
    assert since.changes.fixed == []


def test_a_preview_of_a_version_bump_beside_a_source_edit(tmp_path: Path) -> None:
    """The same patch previewed: pyproject.toml's [project] edit is left out (it was
    refused as a checker's configuration), the source edit answered as the CLI has it."""
    root = tmp_path / "p"
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "app/__init__.py").write_text("")
    (root / "app/main.py").write_text("x: int = 1\n")
    root = root.resolve()
    changes = [
        {"path": "pyproject.toml", "content": PYPROJECT.replace('"0.1"', '"0.2"')},
        {"path": "app/main.py", "content": 'x: int = ""\n'},
    ]
    found = answer(root, lambda ws: previewed(ws, changes)).changes
    for change in changes:
        (root / str(change["path"])).write_text(str(change["content"]))
    truth = basedpyright_errors(root)
    assert truth == [("app/main.py", 1, "reportAssignmentType")]
    assert [(d.path, d.line, d.code) for d in found.introduced] == truth
