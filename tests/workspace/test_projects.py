"""A file's project root (`workspace/projects.py`): the nearest directory holding one of its
server's markers, up to the workspace root, also when that root is `/`; kept while the
directories it was found in are unchanged."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lspd.servers.registry import definitions
from lspd.workspace.ignore import Ignore
from lspd.workspace.projects import Projects, _marked


def test_the_nearest_marked_directory_below_a_root_of_slash(tmp_path: Path) -> None:
    (tmp_path / "app/pkg").mkdir(parents=True)
    (tmp_path / "app/pyproject.toml").write_text("[project]\nname = 'app'\n")
    projects = Projects(Path("/"), definitions(), {}, Ignore(Path("/")))
    basedpyright = definitions()["basedpyright"]
    assert projects.project_root(tmp_path / "app/pkg/mod.py", basedpyright) == tmp_path / "app"
    # No marker above it: the root itself (`/` is below `/`: the walk stops there).
    assert projects.project_root(tmp_path / "loose.py", basedpyright) == Path("/")


def test_a_kept_project_root_holds_only_while_its_directories_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kept per directory (one lstat a level instead of a stat per marker a level), seen
    anew as soon as a marker comes or goes, a marker's symlink target comes, or a directory
    is replaced by a symlink; never kept while a directory changed within `RACY_NS`."""
    root = tmp_path.resolve()
    (root / "app/pkg").mkdir(parents=True)
    (root / "app/pyproject.toml").write_text("[project]\nname = 'app'\n")
    projects = Projects(root, definitions(), {}, Ignore(root))
    basedpyright = definitions()["basedpyright"]
    looked: list[str] = []

    def marked(directory: str, markers: tuple[str, ...]) -> tuple[bool, bool]:
        looked.append(os.path.relpath(directory, root))
        return _marked(directory, markers)

    monkeypatch.setattr("lspd.workspace.projects._marked", marked)

    def settled() -> None:  # as after RACY_NS: the directories' mtimes long past
        for directory in (root / "app/pkg", root / "app"):
            os.utime(directory, ns=(time.time_ns() - 10**10,) * 2, follow_symlinks=False)

    def asked() -> tuple[Path, list[str]]:
        looked.clear()
        return projects.project_root(root / "app/pkg/mod.py", basedpyright), list(looked)

    assert asked() == (root / "app", ["app/pkg", "app"])  # changed just now: not kept
    settled()
    assert asked() == (root / "app", ["app/pkg", "app"])
    assert asked() == (root / "app", [])  # kept
    (root / "app/pkg/setup.cfg").write_text("")
    assert asked() == (root / "app/pkg", ["app/pkg"])
    settled()
    assert asked() == (root / "app/pkg", ["app/pkg"])
    assert asked() == (root / "app/pkg", [])
    (root / "app/pkg/setup.cfg").unlink()
    assert asked() == (root / "app", ["app/pkg", "app"])

    # A marker that is a symlink: its target may come without its directory changing.
    (root / "app/pkg/pyrightconfig.json").symlink_to(root / "later.json")
    settled()
    assert asked() == (root / "app", ["app/pkg", "app"])
    assert asked() == (root / "app", ["app/pkg", "app"])  # not kept
    (root / "later.json").write_text("{}")
    assert asked() == (root / "app/pkg", ["app/pkg"])

    # The directory moved, a symlink to it in its place: looked at again.
    (root / "app/pkg/pyrightconfig.json").unlink()
    settled()
    assert asked()[0] == root / "app"
    assert asked() == (root / "app", [])
    (root / "app/pkg").rename(root / "app/real")
    (root / "app/real/setup.py").write_text("")
    (root / "app/pkg").symlink_to(root / "app/real")
    assert asked() == (root / "app/pkg", ["app/pkg"])
