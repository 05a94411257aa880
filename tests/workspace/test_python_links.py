"""The symlinked folders of a Python project leading inside it (`workspace/python_links.py`):
found by a walk kept while no folder changed, and the other names of a file through them."""

from __future__ import annotations

import os
from pathlib import Path

from lspd.workspace.python_links import aliases, copy_link, linked, other_names, real_place
from tests.engine.test_affected import written


def test_links_inside_the_root_and_the_names_through_them(tmp_path: Path) -> None:
    root = written(tmp_path / "p", {"real/helper.py": "", "real/sub/x.py": "", "e/pyvenv.cfg": ""})
    written(tmp_path / "shared", {"dep.py": ""})
    os.symlink("real", root / "lib")
    os.symlink("../real/sub", root / "real/deep")  # inside the folder it leads to: aside
    os.symlink("../real", root / "e/inside")  # in an environment: not walked
    os.symlink(tmp_path / "shared", root / "out")  # outside the root
    (root / "node_modules").mkdir()
    os.symlink("../.git", root / "git")  # to a folder no copy holds
    (root / ".git").mkdir()
    links = linked(root)
    assert links == {Path("lib"): Path("real"), Path("real/deep"): Path("real/sub")}
    assert aliases(root, root / "real/helper.py", links) == [root / "lib/helper.py"]
    assert sorted(other_names(Path("real/sub/x.py"), links)) == [
        Path("lib/deep/x.py"),
        Path("lib/sub/x.py"),
        Path("real/deep/x.py"),
    ]
    assert real_place(Path("lib/deep/x.py"), links) == Path("real/sub/x.py")
    assert copy_link(root, Path("lib")) == "real"
    assert copy_link(root, Path("out")) == str(tmp_path / "shared")
    os.symlink("real", root / "e2")
    assert linked(root)[Path("e2")] == Path("real")  # the root's entries changed: walked again


def test_links_leading_into_each_other_end(tmp_path: Path) -> None:
    root = written(tmp_path / "p", {"a/x.py": "", "b/y.py": ""})
    os.symlink("../b", root / "a/to_b")
    os.symlink("../a", root / "b/to_a")
    found = other_names(Path("a/x.py"), linked(root))
    assert 0 < len(found) <= 64 and Path("b/to_a/x.py") in found
