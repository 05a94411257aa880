"""The daemon's copy of a mypy project holds the folders its state holds, not only the
files: a stub's folder (on `mypy_path`) left empty on disk is a namespace package to mypy,
one removed is none. Before (the examiner's F3: more-itertools' project, stubs/toolz typing
the installed, untyped toolz), the copy kept a folder emptied by a deletion that the disk no
longer had (`Module has no attribute` where mypy says the import's error), or lacked one the
disk kept. Real mypy against the project's own, a warm workspace as the daemon's."""

from __future__ import annotations

import shutil
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_copy import Mirror, bare_folders
from lspd.workspace.mypy_mirror import FOLDER, Sees
from tests.conftest import Warm, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nmypy_path = ["stubs"]\n',
    "app/__init__.py": "",
    "app/main.py": "from ext import first\n\nx: int = first()\n",
    "stubs/ext/__init__.pyi": "def first() -> int: ...\n",
    ".gitignore": ".venv\n",
}


Row = tuple[str | None, int, str | None]


def checked(warm: Warm) -> list[Row]:
    found = warm.run(workspace_diagnostics(warm.ws)).diagnostics
    return [(d.path, d.line, d.code) for d in found]


def mypys(root: Path, cwd: Path | None = None) -> list[Row]:
    return [(p, line, code) for p, line, _, code, _ in cli_errors(root, cwd=cwd)]


def test_a_folder_emptied_in_the_copy_goes_unless_the_state_holds_it(tmp_path: Path) -> None:
    mirror = Mirror(tmp_path / "tree")
    mirror.hold({"stubs/ext/__init__.pyi": b"x", "app/main.py": b"y"})
    mirror.hold({"app/main.py": b"y"})  # the stub deleted (its folder with it, as git does)
    assert not (tmp_path / "tree/stubs").exists() and (tmp_path / "tree/app/main.py").exists()
    mirror.hold({"stubs/ext/__init__.pyi": b"x", "app/main.py": b"y"})
    assert mirror.hold({"app/main.py": b"y", "stubs/ext/": b""})  # the disk keeps the folder
    assert (tmp_path / "tree/stubs/ext").is_dir()
    assert not list((tmp_path / "tree/stubs/ext").iterdir())
    assert not mirror.hold({"app/main.py": b"y", "stubs/ext/": b""})
    assert mirror.hold({"app/main.py": b"y"})
    assert not (tmp_path / "tree/stubs").exists()


def test_a_stubs_folder_removed_is_mypys_answer(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    assert cli_errors(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert checked(warm) == []
        shutil.rmtree(root / "stubs/ext")  # as `git apply` of its deletion leaves the tree
        truth = mypys(root)
        assert truth == [("app/main.py", 1, "import-not-found")]
        assert checked(warm) == truth


def test_a_copy_of_the_folders_sees_finds_is_mypys_answer(tmp_path: Path) -> None:
    """What a copy made of `Sees`' files and folders holds is mypy's tree: a stub removed
    by `rm` (its folder stays: a namespace package, `Module "ext" has no attribute`), or
    with its folder (the import's error), or a held state's deletion of it (the folder goes
    with it, as `git apply` leaves the tree)."""
    root = committed(project(tmp_path / "p", FILES))
    sees = Sees(root)
    mirror = Mirror(tmp_path / "tree")

    def copied(deleted: frozenset[str] = frozenset()) -> list[Row]:
        wanted = {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in sees.files()
            if p.relative_to(root).as_posix() not in deleted
        }
        wanted["pyproject.toml"] = (root / "pyproject.toml").read_bytes()
        wanted.update((p.relative_to(root).as_posix() + FOLDER, b"") for p in sees.folders())
        mirror.hold(wanted)
        return mypys(root, cwd=mirror.directory)

    assert copied() == mypys(root) == []
    held = copied(frozenset({"stubs/ext/__init__.pyi"}))  # a preview of its deletion
    assert held == [("app/main.py", 1, "import-not-found")]
    (root / "stubs/ext/__init__.pyi").unlink()
    assert mypys(root) == [("app/main.py", 1, "attr-defined")]
    assert copied() == mypys(root)
    (root / "stubs/ext").rmdir()
    assert copied() == mypys(root) == [("app/main.py", 1, "import-not-found")]


def test_a_stub_removed_its_folder_left_is_mypys_answer(tmp_path: Path) -> None:
    """A `rm` of the stub leaves its folder on disk: mypy reads a namespace package there
    (`Module "ext" has no attribute`), and so does the daemon's copy (`mypy_check._held`
    holds the folders `Sees` finds): mypy run once on it, as for a project whose `# type:
    ignore` comments mypy reports unused. Before, the copy lacked the folder: the import's
    error, where mypy says the attribute's."""
    files = {
        **FILES,
        "pyproject.toml": FILES["pyproject.toml"] + "warn_unused_ignores = true\n",
        "app/__init__.py": "import os  # type: ignore[import-not-found]\n",
    }
    root = committed(project(tmp_path / "p", files))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert checked(warm) == mypys(root) == [("app/__init__.py", 1, "unused-ignore")]
        (root / "stubs/ext/__init__.pyi").unlink()
        truth = mypys(root)
        assert ("app/main.py", 1, "attr-defined") in truth
        assert checked(warm) == truth


def test_dmypy_says_mypys_answer_when_a_stub_goes_and_comes_back(tmp_path: Path) -> None:
    """The same `rm` checked by dmypy (no ignore reported unused: not mypy run once): its
    fine-grained update sees the stub go, not the namespace package its folder left, and
    kept its old answer ([]); nor does it see that package go when the stub comes back.
    A folder without a Python file coming or going restarts it (`Dmypy.check`)."""
    root = committed(project(tmp_path / "p", FILES))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert checked(warm) == mypys(root) == []
        (daemon,) = warm.ws.pool.mypy.values()
        stub = root / "stubs/ext/__init__.pyi"
        text = stub.read_text()
        stub.unlink()
        truth = mypys(root)
        assert truth == [("app/main.py", 1, "attr-defined")]
        assert (checked(warm), daemon.once) == (truth, False)
        stub.write_text(text)
        assert (checked(warm), daemon.once) == (mypys(root), False) == ([], False)


def test_the_bare_folders_are_those_without_a_python_file_under_them() -> None:
    """What restarts dmypy when it changes: a folder the copy holds with no `.py` or `.pyi`
    below it (an emptied stub's, one holding `py.typed` alone), its parents alike."""
    wanted = {
        "pyproject.toml": b"",
        "app/__init__.py": b"",
        "app/": b"",  # holding a README too: a Python file is under it
        "stubs/ext/": b"",
        "typed/py.typed": b"",
    }
    assert bare_folders(wanted) == {"stubs", "stubs/ext", "typed"}
    wanted["stubs/ext/__init__.pyi"] = b""
    assert bare_folders(wanted) == {"typed"}
