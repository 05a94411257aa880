"""Which folders a pyright server is told created beside the disk's changes
(`pyright_watch.included`): its configuration's existing `include` folders that `exclude`
leaves in, where a Python file or a folder came or went under its folder; none for
another file's change or another server."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.pyright_watch import included, outside
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


def test_a_folder_without_a_configuration_is_told_itself(tmp_path: Path) -> None:
    root = written(tmp_path / "p", {"app/main.py": ""})
    assert included("pyright", [root], [(root / "app/new.py", 1)]) == [root]


def test_a_python_file_changed_in_place_outside_every_include_folder_is_read_again(
    tmp_path: Path,
) -> None:
    """`pyright_watch.outside`: the server's source watchers see the `include` folders
    (their excluded parts too); a file beside them changed in place is read again."""
    root = written(tmp_path / "p", {"pyrightconfig.json": CONFIG})
    shared2, scratch = root / "shared2/helpers.py", root / "tools/scratch/mod.py"
    stub = root / "typings/lib.pyi"
    assert outside("basedpyright", [root], [(shared2, 2), (stub, 2), (scratch, 2)]) == [
        shared2,
        stub,
    ]
    for change in [(shared2, 1), (shared2, 3), (root / "shared2/notes.txt", 2)]:
        assert outside("basedpyright", [root], [change]) == []
    assert outside("typescript-language-server", [root], [(shared2, 2)]) == []
    assert outside("basedpyright", [root / "elsewhere"], [(shared2, 2)]) == []
    bare = written(tmp_path / "bare", {"app/main.py": ""})  # no configuration: all included
    assert outside("pyright", [bare], [(bare / "app/main.py", 2)]) == []
