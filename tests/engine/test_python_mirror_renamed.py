"""A preview renaming the only module of a folder (an execution environment's `extraPaths`
folder, shared/helpers.py -> shared/helpers2.py) is answered as basedpyright's CLI answers
the renamed tree: the folder the deletion would empty is the new file's too, so the copy
(`python_mirror.wanted`) keeps it. Before (the examiner's F1), the copy left the folder out
and writing the new file failed: `lspd failed unexpectedly (FileNotFoundError ...
python-copy-kept/shared/helpers2.py)`, exit 2. Real basedpyright against its CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine.python_mirror import wanted
from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import cli, preview, rows

HELPERS = "def helper() -> int:\n    return 1\n"
FILES = {
    "pyrightconfig.json": '{"include": ["tools", "shared"], "executionEnvironments":'
    ' [{"root": "tools", "extraPaths": ["shared"]}], "typeCheckingMode": "standard"}\n',
    "shared/helpers.py": HELPERS,
    "tools/release.py": "from helpers import helper\n\nx: int = helper()\n",
}
FIXED = "from helpers2 import helper\n\nx: int = helper()\n"


@pytest.mark.parametrize("importer", [None, FIXED], ids=["rename", "rename-and-fix"])
def test_a_preview_renaming_a_folders_only_module_is_the_clis(
    tmp_path: Path, importer: str | None
) -> None:
    change: dict[str, str | None] = {"shared/helpers.py": None, "shared/helpers2.py": HELPERS}
    if importer is not None:
        change["tools/release.py"] = importer
    after = {k: v for k, v in {**FILES, **change}.items() if v is not None}
    truth = cli(written(tmp_path / "after", after))
    expected = [] if importer else [("tools/release.py", 1, "reportMissingImports")]
    assert [(r[0], r[1], r[3]) for r in truth] == expected
    root = written(tmp_path / "p", FILES)
    for warm in watched(root, tmp_path / "logs"):
        changes = preview(warm, change)
        assert (rows(changes.introduced), changes.fixed) == (truth, [])


def test_the_copy_keeps_a_folder_a_held_file_is_written_in(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    texts = {root / "shared/helpers.py": None, root / "shared/helpers2.py": HELPERS}
    want = wanted(root, texts)
    assert Path("shared") in want.folders
    assert Path("shared/helpers.py") not in want.files
    assert want.files[Path("shared/helpers2.py")] == HELPERS.encode()
    gone = wanted(root, {root / "shared/helpers.py": None})
    assert Path("shared") not in gone.folders  # emptied, as `git apply` leaves the tree
