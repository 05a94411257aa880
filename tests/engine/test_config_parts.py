"""A pyproject.toml edited where no checker reads (its `[project]` version) leaves HEAD's
configuration as it was (`config_parts.same_settings`, `revisions.configs_then`): `check
--baseline HEAD` answers, where it was refused (NotKept, exit 2: "the checkers'
configuration changed since ..."). Real basedpyright, its CLI beside."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.config_parts import same_settings
from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.ops.applied import basedpyright_errors
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import MYPY_PINNED, cli_errors, environment, project

PYPROJECT = """\
[project]
name = "app"
version = "0.1"

[tool.basedpyright]
typeCheckingMode = "standard"
"""


def app(root: Path, pyproject: str, main: str) -> Path:
    """A package `app` under `pyproject` at `root`, committed."""
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text(pyproject)
    (root / "app/__init__.py").write_text("")
    (root / "app/main.py").write_text(main)
    return committed(root.resolve())


def test_a_version_bump_leaves_the_baseline_answered(tmp_path: Path) -> None:
    root = app(tmp_path / "p", PYPROJECT, "x: int = 1\n")
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


PYDANTIC_PINNED = "2.12.5"
PLUGGED = """\
[project]
name = "app"
version = "0.1"

[tool.mypy]
files = ["app"]
plugins = ["pydantic.mypy"]

[tool.pydantic-mypy]
init_typed = false
"""
MODEL = (
    'from pydantic import BaseModel\n\n\nclass Point(BaseModel):\n    x: int\n\n\nPoint(x="1")\n'
)


def test_a_mypy_plugins_own_table_is_read_by_mypy(tmp_path: Path) -> None:
    """pydantic's mypy plugin reads `[tool.pydantic-mypy]` of mypy's configuration file:
    init_typed made true is mypy's new error (its own runs: 0 -> 1), where check --baseline
    HEAD kept HEAD's configuration as the disk's and said 0 new, 1 unchanged (exit 0).
    mypy 2.4.1, pydantic 2.12.5."""
    env = environment(
        f"mypy-{MYPY_PINNED}-pydantic-{PYDANTIC_PINNED}",
        f"mypy=={MYPY_PINNED}",
        f"pydantic=={PYDANTIC_PINNED}",
    )
    files = {"pyproject.toml": PLUGGED, "app/__init__.py": "", "app/main.py": MODEL}
    root = committed(project(tmp_path / "p", files, env))
    assert cli_errors(root) == []
    (root / "pyproject.toml").write_text(PLUGGED.replace("false", "true"))
    truth = [(f, line, code) for f, line, _, code, _ in cli_errors(root)]
    assert truth == [("app/main.py", 8, "arg-type")]
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    assert since.changes is not None
    assert [(d.path, d.line, d.code) for d in since.changes.introduced] == truth
    assert (since.changes.fixed, since.changes.unchanged) == ([], 0)


def test_plugins_make_every_tool_table_and_section_count() -> None:
    """With mypy's plugins named, a plugin's own table or section differs; without, it does
    not (no checker lspd runs reads it); a [project] version bump never."""
    pyproject = Path("pyproject.toml")
    unplugged = PLUGGED.replace('plugins = ["pydantic.mypy"]\n', "")
    assert same_settings(pyproject, unplugged, unplugged.replace("false", "true"))
    assert same_settings(pyproject, PLUGGED, PLUGGED.replace('"0.1"', '"0.2"'))
    setup = "[mypy]\nplugins = pydantic.mypy\n\n[pydantic-mypy]\ninit_typed = False\n"
    assert not same_settings(Path("setup.cfg"), setup, setup.replace("False", "True"))
    setup_unplugged = setup.replace("plugins = pydantic.mypy\n", "")
    assert same_settings(Path("setup.cfg"), setup_unplugged, setup_unplugged.replace("F", "T"))


PROJECT_ONLY = '[project]\nname = "app"\nversion = "0.1"\n\n[tool.black]\nline-length = 99\n'


def test_a_pyproject_configuring_no_checker_is_none_at_the_root_alone() -> None:
    """At the workspace's root a pyproject.toml or setup.cfg no checker reads comes and goes
    as none; deeper it marks a project root of its own, and its requires-python or a
    checker's table is read wherever it is."""
    root = Path("/w")
    assert same_settings(root / "pyproject.toml", PROJECT_ONLY, None, root)
    assert same_settings(root / "pyproject.toml", None, PROJECT_ONLY, root)
    assert same_settings(root / "setup.cfg", "[metadata]\nname = app\n", None, root)
    assert not same_settings(root / "pyproject.toml", PROJECT_ONLY, None)
    assert not same_settings(root / "pkg/pyproject.toml", PROJECT_ONLY, None, root)
    python = PROJECT_ONLY.replace("[tool", 'requires-python = ">=3.11"\n\n[tool')
    assert not same_settings(root / "pyproject.toml", python, None, root)
    assert not same_settings(root / "pyproject.toml", PYPROJECT, None, root)
    assert not same_settings(root / "setup.cfg", "[mypy]\nstrict = True\n", None, root)
    assert not same_settings(root / "pyproject.toml", "[project", None, root)


def test_a_root_pyproject_configuring_no_checker_deleted(tmp_path: Path) -> None:
    """A root pyproject.toml holding `[project]` and another tool's table, deleted beside
    a source edit: `check --baseline HEAD` and the preview of the same change answer as the
    CLI, where both were refused as a configuration edit that "chooses other files at the
    commit, names paths outside the root, or is read by mypy and basedpyright both"."""
    root = app(tmp_path / "p", PROJECT_ONLY, 'x: int = ""\n')
    changes = [
        {"path": "pyproject.toml", "content": None},
        {"path": "app/main.py", "content": 'x: int = ""\ny: str = 1\n'},
    ]
    found = answer(root, lambda ws: previewed(ws, changes)).changes
    (root / "pyproject.toml").unlink()
    (root / "app/main.py").write_text(str(changes[1]["content"]))
    truth = basedpyright_errors(root)
    assert [(f, line) for f, line, _ in truth] == [("app/main.py", 1), ("app/main.py", 2)]
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    for changed in (found, since):
        assert [(d.path, d.line, d.code) for d in changed.introduced] == truth[1:]
        assert (changed.fixed, changed.unchanged) == ([], 1)
