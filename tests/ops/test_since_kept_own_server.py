"""`check --baseline HEAD` after the project's OWN basedpyright (in its .venv, run instead
of lspd's) changed version between the kept result and now, as `pip install
basedpyright==<other>` in the .venv would. Before, its toolchain's label ("python ...
.venv/bin/python, project, its own server") held no server version, so the kept result's
key was the same: HEAD's result made by 1.39.0 was reused by a warm daemon and read back
after a restart, and compared with 1.40.2's answers. Now the label holds the version read
from the .venv's `.dist-info` ("..., basedpyright 1.40.2, its own server"): HEAD is
checked again by the new version, and the warm daemon's answer says the toolchain changed.
Real basedpyright 1.39.0 and 1.40.2, each in an environment of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.workspace import retool
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import environment

FILES = {
    "pyproject.toml": '[project]\nname = "p"\nversion = "0"\n\n[tool.basedpyright]\n',
    ".gitignore": ".venv\n",
    "app.py": 'count: int = "three"\n',
}
OLD, NEW = "basedpyright 1.39.0", "basedpyright 1.40.2"


def basedpyright(version: str) -> Path:
    """An environment holding basedpyright `version` (made once under lspd's cache)."""
    return environment(f"basedpyright-{version}", f"basedpyright=={version}")


def own_server(tmp_path: Path) -> Path:
    """The project, committed, its .venv holding basedpyright 1.39.0."""
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(basedpyright("1.39.0"))
    return committed(root.resolve())


def upgraded(root: Path) -> None:
    """The .venv's basedpyright replaced by 1.40.2 (as `pip install` in it would)."""
    (root / ".venv").unlink()
    (root / ".venv").symlink_to(basedpyright("1.40.2"))


def test_another_own_basedpyright_checks_head_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen at the next question by the .venv's stamp (`tool_stamps`), not after
    `RECHECK_S` (made an hour here: before, the toolchain was looked up again only then)."""
    monkeypatch.setattr(retool, "RECHECK_S", 3600.0)
    root = own_server(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 1)
        labels = {r.toolchain for r in warm.run(check_all(warm.ws)).results}
        assert {label.split(", ")[-2] for label in labels if label} == {OLD}
        upgraded(root)
        labels = {r.toolchain for r in warm.run(check_all(warm.ws)).results}
        assert {label.split(", ")[-2] for label in labels if label} == {NEW}
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
        assert "the toolchain changed since its result was made" in since.scope
        assert f"{OLD}, its own server -> " in since.scope
        assert f"{NEW}, its own server)" in since.scope


def test_a_restart_on_another_own_basedpyright_makes_head_again(tmp_path: Path) -> None:
    root = own_server(tmp_path)
    for warm in warm_root(root, tmp_path / "logs"):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and "(checked)" in first.scope
    upgraded(root)
    for warm in warm_root(root, tmp_path / "logs2"):
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
        # before: "(read back)", 1.39.0's result; the change named as the live daemon names
        # it (`kept.made_before`: 1.39.0's saved result read for the note)
        assert "(checked; the toolchain changed since its result was made" in since.scope
        assert f"{OLD}, its own server -> " in since.scope
        assert f"{NEW}, its own server)" in since.scope
