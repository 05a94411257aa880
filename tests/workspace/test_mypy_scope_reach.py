"""The files mypy follows into inside the project outside its `files` (found in a
`mypy_path` folder, an editable install's `.pth` folder) are the project's
(`mypy_follow`): an edit of one is a changed file, and HEAD's state holds its HEAD
text. The examiner's F1 (svcs 25.1.0, `files = ["tests/typing"]`, src/svcs reached
through the install alone): an attrs field made required was "0 new ... 0 changed
file(s)"; with `mypy_path = "src"` the 6 errors were counted as HEAD's ("6 unchanged").
Real mypy, against its own runs at HEAD and after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_scope import mypy_scopes
from tests.conftest import answer, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import mypy_env
from tests.workspace.test_mypy_site import LAYOUT, MYPYS, REQUIRED, editable, truth

CONFIGS = {
    "pth-alone": '[tool.mypy]\nstrict = true\nfiles = ["tests/typing"]\n',
    "mypy-path": '[tool.mypy]\nstrict = true\nmypy_path = "src"\nfiles = ["tests/typing"]\n',
}
FILES = {**LAYOUT, ".gitignore": ".venv/\n"}
NEW = {("tests/typing/use.py", 4, "call-arg")}


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_the_scope_holds_what_mypy_reaches_inside_the_project(tmp_path: Path, config: str) -> None:
    root = editable(tmp_path / "proj", FILES, config, mypy_env())
    python = sorted(p for p in root.rglob("*.py") if ".venv" not in p.parts)
    [scope] = mypy_scopes([root], python, "project", False)
    assert [p.relative_to(root).as_posix() for p in scope.files] == [
        "src/app/__init__.py",
        "src/app/core.py",
        "src/app/errors.py",
        "tests/typing/use.py",
    ]
    assert scope.note == "files = tests/typing; 3 more mypy follows into from them (their imports)"


@pytest.mark.parametrize("mypy", MYPYS.values(), ids=MYPYS.keys())
@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_an_edit_reached_outside_files_is_new_since_head(
    tmp_path: Path, config: str, mypy: Callable[[], Path]
) -> None:
    """Warm and watched (the daemon), then one-shot in a fresh workspace: 1 new, the
    edited module a changed file, as mypy's runs at HEAD (0) and after (1) say."""
    root = committed(editable(tmp_path / "proj", FILES, config, mypy()))
    assert truth(root) == set()
    core = root / "src/app/core.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes is not None
        core.write_text(REQUIRED)
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert {(d.path, d.line, d.code) for d in since.introduced} == NEW
        assert (since.fixed, since.unchanged, since.changed) == ([], 0, ["src/app/core.py"])
    assert truth(root) == NEW
    once = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert once is not None
    assert {(d.path, d.line, d.code) for d in once.introduced} == NEW
    assert (once.fixed, once.unchanged) == ([], 0)


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_head_made_after_the_edit_holds_its_head_text(tmp_path: Path, config: str) -> None:
    """The edit made before any question (HEAD's result made by a one-shot call, after it):
    HEAD's state holds src/app/core.py's HEAD text, so the error is new, not HEAD's too
    (sv3: "0 new ... 6 unchanged")."""
    root = committed(editable(tmp_path / "proj", FILES, config, mypy_env()))
    (root / "src/app/core.py").write_text(REQUIRED)
    assert truth(root) == NEW
    once = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert once is not None
    assert {(d.path, d.line, d.code) for d in once.introduced} == NEW
    assert (once.fixed, once.unchanged, once.changed) == ([], 0, ["src/app/core.py"])


def _elsewhere(root: Path) -> Path:
    """The project's environment moved from `.venv` to `envs/dev`, chosen in lspd.toml (no
    environment lspd would find by itself: `.venv`'s `.pth` files are that one's)."""
    (root / "envs").mkdir()
    (root / ".venv").rename(root / "envs/dev")
    (root / "lspd.toml").write_text('python = "envs/dev"\n')
    (root / ".gitignore").write_text(".venv/\nenvs/\n")
    return root


def test_the_pth_files_read_are_those_of_the_python_lspd_toml_chooses(tmp_path: Path) -> None:
    """lspd.toml's `python = "envs/dev"` (mypy runs there: `mypy_check.daemon_of`), the
    project installed editable into it, `files = ["tests/typing"]`: src/app/core.py is
    reached through that environment's `.pth` alone, so its edit is a changed file and the
    call it breaks new, as mypy in that environment says at HEAD (nothing) and after (1).
    Before, the `.pth` files were looked for in an environment found by itself (none here:
    `python3` on PATH): '0 new', no changed file."""
    config = CONFIGS["pth-alone"]
    root = committed(_elsewhere(editable(tmp_path / "proj", FILES, config, mypy_env())))
    interpreter = root / "envs/dev/bin/python"
    assert truth(root, interpreter) == set()
    (root / "src/app/core.py").write_text(REQUIRED)
    assert truth(root, interpreter) == NEW
    once = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert once is not None
    assert {(d.path, d.line, d.code) for d in once.introduced} == NEW
    assert (once.fixed, once.unchanged, once.changed) == ([], 0, ["src/app/core.py"])
