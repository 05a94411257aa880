"""What a walk read of a file's imports, and whether an edit since changed it
(`workspace/mypy_imports.py`): a body's or a comment's edit keeps mypy's reach, an import's
or a reachable branch's does not."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.files import stamp
from lspd.workspace.mypy_imports import ImportsRead, Stamped, held_unmoved, imports_of, unmoved
from lspd.workspace.mypy_reachable import Facts

FACTS = Facts((3, 12), "linux", frozenset(), frozenset())
TEXT = "import os\nif sys.version_info >= (3, 8):\n    import json\n\n\ndef f():\n    return 1\n"


def test_a_body_edit_is_unmoved_and_stamped_now(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(TEXT)
    read, was = _walked(path, exact=False)
    path.write_text(TEXT.replace("return 1", "return 2  # re"))
    assert unmoved(read, was) == ((path, stamp(path)),)


def test_an_import_added_or_a_configuration_edited_is_moved(tmp_path: Path) -> None:
    path, config = tmp_path / "m.py", tmp_path / "mypy.ini"
    path.write_text(TEXT)
    config.write_text("[mypy]\n")
    read, was = _walked(path, exact=False)
    read = (*read, (config, stamp(config)))
    config.write_text("[mypy]\nstrict = true\n")
    assert unmoved(read, was) is None  # nothing says what was read of it
    config.write_text("[mypy]\n")
    read = (*read[:1], (config, stamp(config)))
    path.write_text("import re\n" + TEXT)
    assert unmoved(read, was) is None
    path.unlink()
    assert unmoved(read, was) is None


def test_a_branch_edit_is_moved_where_the_walk_parsed(tmp_path: Path) -> None:
    """The import lines are the same; the parse's imports are not (json unreachable)."""
    path = tmp_path / "m.py"
    path.write_text(TEXT)
    edited = TEXT.replace(">= (3, 8)", "< (3, 8)")
    read, was = _walked(path, exact=True)
    path.write_text(edited)
    assert unmoved(read, was) is None
    other = tmp_path / "n.py"  # never parsed
    other.write_text(TEXT)
    read, lines_only = _walked(other, exact=False)
    other.write_text(edited)
    assert unmoved(read, lines_only) is not None  # lines alone were walked: the same lines


def _walked(path: Path, exact: bool) -> tuple[Stamped, dict[Path, ImportsRead]]:
    """What a walk keeps of `path`: its stamp, and what it read of its imports."""
    _, _, was = imports_of(path, "m", {}, exact, FACTS)
    return ((path, stamp(path)),), {path: was}


def test_held_texts_import_as_the_disk_or_not(tmp_path: Path) -> None:
    """A preview's texts: the disk's scope serves where each held file the walk read
    imports the same, and none is gone; a file it never read may say anything."""
    path, other = tmp_path / "m.py", tmp_path / "unread.py"
    path.write_text(TEXT)
    read, was = _walked(path, exact=False)
    assert held_unmoved({path: TEXT + "X = 1\n", other: "import json\n"}, read, was)
    assert not held_unmoved({path: "import re\n" + TEXT}, read, was)
    assert not held_unmoved({other: None}, read, was)  # a module gone: not found any more
