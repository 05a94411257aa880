"""Confining an input path to the root (`workspace/paths.confine`): what realpath says, seen
anew at every call: a file or a directory moved and replaced by a symlink is answered at
its new place, a symlink leading out is refused, whether or not the path was asked before
(the parts below the root are looked at with lstat each time; realpath only when one is a
symlink)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.workspace.paths import confine


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = (tmp_path / "root").resolve()
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/app.py").write_text("x = 1\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/app.py").write_text("y = 2\n")
    return root


def test_every_kind_of_path_is_what_realpath_says(root: Path) -> None:
    asked = ["pkg/app.py", "pkg/new.py", "pkg/no/such/dir.py", "./pkg/app.py", "pkg//app.py"]
    asked += ["pkg/../pkg/app.py", "pkg/", str(root / "pkg/app.py"), "."]
    for raw in asked:
        assert confine(root, raw) == Path(os.path.realpath(root / raw)), raw


def test_a_part_replaced_by_a_symlink_is_seen_at_once(root: Path, tmp_path: Path) -> None:
    assert confine(root, "pkg/app.py") == root / "pkg/app.py"
    # The file moved, a symlink in its place.
    (root / "pkg/app.py").rename(root / "pkg/real.py")
    (root / "pkg/app.py").symlink_to("real.py")
    assert confine(root, "pkg/app.py") == root / "pkg/real.py"
    # Its directory moved, a symlink in its place.
    (root / "pkg").rename(root / "lib")
    (root / "pkg").symlink_to(root / "lib")
    assert confine(root, "pkg/app.py") == root / "lib/real.py"
    assert confine(root, "pkg/new.py") == root / "lib/new.py"
    # A symlink leading out of the root: refused.
    (root / "pkg").unlink()
    (root / "pkg").symlink_to(tmp_path / "outside")
    with pytest.raises(InvalidInput, match="outside the workspace"):
        confine(root, "pkg/app.py")
    # Back to a plain directory: answered as such again.
    (root / "pkg").unlink()
    (root / "lib").rename(root / "pkg")
    assert confine(root, "pkg/real.py") == root / "pkg/real.py"


def test_a_symlink_loop_is_an_error(root: Path) -> None:
    (root / "loop").symlink_to("loop")
    with pytest.raises(RuntimeError, match="Symlink loop"):
        confine(root, "loop/app.py")
