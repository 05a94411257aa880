"""Which folders a pyright server is told created beside the disk's changes
(`pyright_watch.included`): its configuration's existing `include` folders that `exclude`
leaves in, where a Python file or a folder came or went under its folder (or a Python file
changed in place in a folder its imports reach out of it); none for
another file's change or another server. Which of its folders reload their configuration
for a change (`pyright_watch.reloads`), as basedpyright 1.40 watches them."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.pyright_watch import included, outside, reloads
from tests.engine.test_affected import written

CONFIG = '{"include": ["tools", "shared", "gone", "tools/scratch"], "exclude": ["tools/scratch"]}'


def test_the_include_folders_are_told_when_a_python_file_or_a_folder_comes_or_goes(
    tmp_path: Path,
) -> None:
    root = written(tmp_path / "p", {"pyrightconfig.json": CONFIG, "tools/scratch/mod.py": ""})
    (root / "shared").mkdir()
    folders = [root / "tools", root / "shared"]
    mod, scratch = root / "tools/scratch/mod.py", root / "tools/scratch"
    for change in [(mod, 1), (mod, 3), (scratch, 1), (root / "tools/old", 3)]:
        assert included("basedpyright", [root], [change]) == folders
    readme = written(root, {"README.md": ""}) / "README.md"
    for change in [(mod, 2), (readme, 1), (readme, 3), (root / "a.swp", 3)]:
        assert included("basedpyright", [root], [change]) == []
    assert included("typescript-language-server", [root], [(mod, 1)]) == []
    assert included("basedpyright", [root / "elsewhere"], [(mod, 1)]) == []


def test_the_include_folders_are_told_for_a_folder_its_imports_reach_outside_it(
    tmp_path: Path,
) -> None:
    """An `extraPaths` entry or an execution root out of the server's folder (`../libs`,
    relative to the configuration naming it): a module come or gone there tells the folder's
    `include` folders too."""
    config = (
        '{"include": ["src"],'
        ' "executionEnvironments": [{"root": "../env", "extraPaths": ["../libs"]}]}'
    )
    root = written(tmp_path / "p", {"svc/pyrightconfig.json": config, "svc/src/a.py": ""})
    svc = root / "svc"
    for module in ("libs/m.py", "env/m.py", "svc/m.py"):
        assert included("basedpyright", [svc], [(root / module, 1)]) == [svc / "src"]
    assert included("basedpyright", [svc], [(root / "other/m.py", 1)]) == []
    # changed in place out of the folder: its text reaches the project's program no other way
    for module in ("libs/m.py", "env/m.py"):
        assert included("basedpyright", [svc], [(root / module, 2)]) == [svc / "src"]
    for module in ("svc/m.py", "other/m.py", "libs/notes.txt"):  # `outside`'s; none
        assert included("basedpyright", [svc], [(root / module, 2)]) == []


def test_a_folder_without_a_configuration_is_told_itself(tmp_path: Path) -> None:
    root = written(tmp_path / "p", {"app/main.py": ""})
    assert included("pyright", [root], [(root / "app/new.py", 1)]) == [root]


def test_a_python_file_written_outside_every_include_folder_is_read_again(
    tmp_path: Path,
) -> None:
    """`pyright_watch.outside`: the server's source watchers see the `include` folders
    (their excluded parts too); a file beside them changed in place, or created (replaced
    by `git apply`), is read again."""
    root = written(tmp_path / "p", {"pyrightconfig.json": CONFIG})
    shared2, scratch = root / "shared2/helpers.py", root / "tools/scratch/mod.py"
    stub = root / "typings/lib.pyi"
    assert outside("basedpyright", [root], [(shared2, 2), (stub, 2), (scratch, 2)]) == [
        shared2,
        stub,
    ]
    assert outside("basedpyright", [root], [(shared2, 1)]) == [shared2]
    for change in [(shared2, 3), (root / "shared2/notes.txt", 2)]:
        assert outside("basedpyright", [root], [change]) == []
    assert outside("typescript-language-server", [root], [(shared2, 2)]) == []
    assert outside("basedpyright", [root / "elsewhere"], [(shared2, 2)]) == []
    bare = written(tmp_path / "bare", {"app/main.py": ""})  # no configuration: all included
    assert outside("pyright", [bare], [(bare / "app/main.py", 2)]) == []


def test_the_folders_reloading_their_configuration_for_a_change(tmp_path: Path) -> None:
    """A folder with a configuration file reloads for any change of it or of what it
    extends (its pyproject.toml beside a pyrightconfig.json is not read); one without, for
    either name written anywhere under it; another server, never."""
    root = written(
        tmp_path / "p",
        {
            "a/pyrightconfig.json": '{"extends": "../base.json"}',
            "a/pyproject.toml": "",
            "base.json": "{}",
            "b/pyproject.toml": "[project]\n",  # no pyright table: still the one it watches
            "c/app.py": "",
        },
    )
    a, b, c = root / "a", root / "b", root / "c"
    folders = [a, b, c]
    for change, count in [
        ((a / "pyrightconfig.json", 2), 1),
        ((a / "pyrightconfig.json", 1), 1),  # written anew (an editor's save)
        ((root / "base.json", 2), 1),
        ((a / "pyproject.toml", 2), 0),
        ((b / "pyproject.toml", 2), 1),
        ((b / "pyproject.toml", 3), 1),
        ((b / "sub/pyproject.toml", 2), 0),
        ((c / "sub/pyproject.toml", 1), 1),
        ((c / "pyrightconfig.json", 2), 1),
        ((c / "pyrightconfig.json", 3), 1),  # it was there: the one it watched
        ((c / "pyproject.toml", 3), 1),
        ((c / "app.py", 2), 0),
    ]:
        assert len(reloads("basedpyright", folders, [change])) == count, change
    (a / "pyrightconfig.json").unlink()
    assert reloads("basedpyright", folders, [(a / "pyrightconfig.json", 3)]) == [a]
    assert reloads("basedpyright", folders, [(a / "pyproject.toml", 2)]) == [a]  # read now
    assert reloads("basedpyright", [root, c], [(c / "pyproject.toml", 1)]) == [root, c]
    assert reloads("typescript-language-server", folders, [(b / "pyproject.toml", 2)]) == []
