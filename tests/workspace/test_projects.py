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


def test_a_kept_project_root_follows_the_gitignore_edited_in_place(tmp_path: Path) -> None:
    """The rules come from the root's .gitignore: edited in place (same inode, the
    directories' mtimes unchanged) to ignore a marked directory, the next answer passes it
    over, and back; an edit within `RACY_NS` of the last one (same size) is seen too.
    Before, the kept root held (and the .gitignore was never read again)."""
    root = tmp_path.resolve()
    (root / "app/pkg").mkdir(parents=True)
    (root / "app/pyproject.toml").write_text("[project]\nname = 'app'\n")
    gitignore = root / ".gitignore"
    gitignore.write_text("*.log\n")
    projects = Projects(root, definitions(), {}, Ignore(root))
    basedpyright = definitions()["basedpyright"]
    old = time.time_ns() - 10**10  # past RACY_NS
    for path in (root / "app/pkg", root / "app", root, gitignore):
        os.utime(path, ns=(old, old))
    inode = gitignore.stat().st_ino

    def asked() -> Path:
        return projects.project_root(root / "app/pkg/mod.py", basedpyright)

    assert asked() == asked() == root / "app"  # the second one kept
    with gitignore.open("a") as file:  # in place
        file.write("app\n")
    assert asked() == root
    gitignore.write_text("*.log\nap?/\n")  # a directory's rule: the marked one's too
    assert asked() == root
    gitignore.write_text("*.log\nzzz/\n")  # the same size, at once
    assert asked() == root / "app"
    os.utime(gitignore, ns=(old, old))
    assert asked() == asked() == root / "app"
    assert gitignore.stat().st_ino == inode  # (edited in place throughout)
    assert [d.stat().st_mtime_ns for d in (root / "app/pkg", root / "app", root)] == [old] * 3
    gitignore.unlink()
    assert asked() == root / "app"


def test_the_gitignore_is_looked_at_only_where_a_marker_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept root found with no marked directory above the file does not depend on the
    ignore rules: its next answer stats no .gitignore (click's src/click/core.py); one
    found where a marker is stats it once."""
    root = tmp_path.resolve()
    (root / "app/pkg").mkdir(parents=True)
    (root / ".gitignore").write_text("*.log\n")
    ignore = Ignore(root)
    projects = Projects(root, definitions(), {}, ignore)
    basedpyright = definitions()["basedpyright"]
    looked: list[object] = []
    rules = ignore.rules
    monkeypatch.setattr(ignore, "rules", lambda: looked.append(rules()) or looked[-1])

    def settled() -> None:
        old = time.time_ns() - 10**10  # past RACY_NS
        for path in (root / "app/pkg", root / "app", root, root / ".gitignore"):
            os.utime(path, ns=(old, old))

    settled()
    assert projects.project_root(root / "app/pkg/mod.py", basedpyright) == root
    assert projects.project_root(root / "app/pkg/mod.py", basedpyright) == root
    assert looked == []
    (root / "app/setup.py").write_text("")
    settled()
    assert projects.project_root(root / "app/pkg/mod.py", basedpyright) == root / "app"
    assert len(looked) == 1
    assert projects.project_root(root / "app/pkg/mod.py", basedpyright) == root / "app"
    assert len(looked) == 2
