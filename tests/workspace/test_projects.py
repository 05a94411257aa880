"""A file's project root (`workspace/projects.py`): the nearest directory holding one of its
server's markers, up to the workspace root, also when that root is `/`."""

from __future__ import annotations

from pathlib import Path

from lspd.servers.registry import definitions
from lspd.workspace.ignore import Ignore
from lspd.workspace.projects import Projects


def test_the_nearest_marked_directory_below_a_root_of_slash(tmp_path: Path) -> None:
    (tmp_path / "app/pkg").mkdir(parents=True)
    (tmp_path / "app/pyproject.toml").write_text("[project]\nname = 'app'\n")
    projects = Projects(Path("/"), definitions(), {}, Ignore(Path("/")))
    basedpyright = definitions()["basedpyright"]
    assert projects.project_root(tmp_path / "app/pkg/mod.py", basedpyright) == tmp_path / "app"
    # No marker above it: the root itself (`/` is below `/`: the walk stops there).
    assert projects.project_root(tmp_path / "loose.py", basedpyright) == Path("/")
