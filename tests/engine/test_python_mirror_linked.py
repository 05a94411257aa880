"""A preview of a module under a folder that a symlink inside the project leads to
(`lib -> real`, the importer naming `lib.helper`) says what basedpyright's CLI says once the
change is written: app/use.py:3:10 reportAssignmentType. It said nothing: app/use.py was
not among the files the change reaches (`python_imports.importers` knew real/helper.py by
that name alone: the daemon's `check` and `check --baseline HEAD` after the change was
written said nothing either), and the copy the held text is checked in linked `lib` to the
project's own `real/`, so the importer read the disk's text through it. Now the importers
through the link are reached (`workspace/python_links.py`) and asked on the copy, whose
`lib` links to its own `real/` (`python_mirror.wanted`), its kept server told of a change
by both names (`kept_copy.brought`). Real basedpyright against its CLI."""

from __future__ import annotations

import os
from pathlib import Path

from lspd.engine.python_mirror import wanted
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli, preview, rows
from tests.ops.test_baseline import committed
from tests.workspace.test_sync_config_reload import of_file
from tests.workspace.test_sync_excluded import said

HELPER = "def h() -> int:\n    return 1\n"
CHANGED = 'def h() -> str:\n    return ""\n'
BYTES = 'def h() -> bytes:\n    return b""\n'


def project(root: Path, helper: str) -> Path:
    """real/helper.py holding `helper`, `lib -> real`, app/use.py importing lib.helper."""
    files = {
        "pyrightconfig.json": '{"typeCheckingMode": "standard"}\n',
        "real/helper.py": helper,
        "app/use.py": "from lib.helper import h\n\nx: int = h()\n",
    }
    root = written(root, files)
    os.symlink("real", root / "lib")
    return root


def test_previews_under_a_symlinked_folder_say_what_the_cli_says(tmp_path: Path) -> None:
    """Three previews in a row on the daemon's kept copy (by either name: `paths.confined`
    takes both to real/helper.py), then the change written."""
    truths = {
        text: cli(project(tmp_path / f"t{i}", text)) for i, text in enumerate((CHANGED, BYTES))
    }
    assert [(r[0], r[1], r[2], r[3]) for r in truths[CHANGED]] == [
        ("app/use.py", 3, 10, "reportAssignmentType")
    ]
    assert '"bytes" is not assignable' in truths[BYTES][0][4]
    root = committed(project(tmp_path / "p", HELPER))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        assert rows(preview(warm, {"lib/helper.py": CHANGED}).introduced) == truths[CHANGED]
        assert rows(preview(warm, {"real/helper.py": BYTES}).introduced) == truths[BYTES]
        assert rows(preview(warm, {"lib/helper.py": HELPER}).introduced) == []
        assert (root / "real/helper.py").read_text() == HELPER  # nothing written
        (root / "real/helper.py").write_text(CHANGED)
        assert said(warm) == (truths[CHANGED], truths[CHANGED], [])
        assert of_file(warm, "app/use.py") == (truths[CHANGED], truths[CHANGED])


def test_the_copy_links_a_folder_inside_the_root_into_itself(tmp_path: Path) -> None:
    """`lib -> real` is a relative link in the copy; one leading outside the root stays a
    link to its real place; a text held by its name through the link is written at its
    real place."""
    root = project(tmp_path / "p", HELPER)
    written(tmp_path / "shared", {"dep.py": "y = 1\n"})
    (root / "out").symlink_to(tmp_path / "shared")
    want = wanted(root, {root / "lib/helper.py": CHANGED})
    assert want.links == {Path("lib"): "real", Path("out"): str(tmp_path / "shared")}
    assert want.files[Path("real/helper.py")] == CHANGED.encode()
    assert Path("lib/helper.py") not in want.files
