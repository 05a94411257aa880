"""tsc's kept copies are bounded (`tsc_kept.swept`, run where a question makes a new one): a
copy of a root that no longer exists, one no question used for `KEEP_DAYS`, and those past
the `KEPT_MOST` most recently used of a state directory are removed; a copy a question holds
never is."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from lspd.engine.program_runs import compiler_of
from lspd.workspace import Workspace, tsc_kept
from lspd.workspace.tsc_copy import checked_copy
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS7_PINNED, typescript_package

DAY = 86400.0


def _made(state: Path, root: Path, name: str, used: float) -> Path:
    """A kept copy of `root`'s configuration `name` in `state`, last used at `used`."""
    copy = tsc_kept.folder(state, root, root / name, root)
    with tsc_kept.taken(copy, root) as manifest:
        assert manifest is not None
        (copy / "a.ts").write_text("export const a = 1;\n")
        manifest.files["a.ts"] = [1, 2, 3, 4]
    os.utime(copy.with_suffix(".json"), (used, used))
    return copy


def _there(copy: Path) -> bool:
    return copy.is_dir() and copy.with_suffix(".json").is_file()


def test_copies_of_gone_roots_unused_ones_and_those_past_the_most_are_removed(
    tmp_path: Path,
) -> None:
    now = time.time()
    base, here, gone = tmp_path / "states", tmp_path / "here", tmp_path / "gone"
    here.mkdir()
    gone.mkdir()
    of_gone = _made(base / "g", gone, "tsconfig.json", now)
    old = _made(base / "h", here, "old.json", now - tsc_kept.KEEP_DAYS * DAY - 60)
    held = _made(base / "h", here, "held.json", now - tsc_kept.KEEP_DAYS * DAY - 60)
    recent = [
        _made(base / "m", here, f"c{i}.json", now - i * 60) for i in range(tsc_kept.KEPT_MOST + 2)
    ]
    gone.rmdir()
    with tsc_kept.taken(held, here) as manifest:
        assert manifest is not None
        removed = tsc_kept.swept(base)
    assert sorted(removed) == sorted([of_gone, old, *recent[-2:]])
    assert not any(p.exists() for c in removed for p in (c, c.with_suffix(".json")))
    assert not any(c.with_suffix(".lock").exists() for c in removed)
    assert all(_there(c) for c in [held, *recent[:-2]])
    assert tsc_kept.swept(base) == []
    with tsc_kept.taken(old, here) as manifest:  # made again from nothing
        assert manifest is not None and manifest.files == {}


def test_a_question_making_a_new_copy_sweeps(tmp_path: Path) -> None:
    config = {"compilerOptions": {"strict": True, "types": [], "noEmit": True}}
    root = written(tmp_path / "p", {"tsconfig.json": json.dumps(config), "a.ts": "export {};\n"})
    (root / "node_modules").mkdir()
    (root / "node_modules/typescript").symlink_to(typescript_package(TS7_PINNED))
    tsc = compiler_of(Workspace(root, log_dir=tmp_path / "logs"), root / "tsconfig.json")
    assert tsc is not None
    (tmp_path / "gone").mkdir()
    of_gone = _made(tmp_path / "states/g", tmp_path / "gone", "tsconfig.json", time.time())
    (tmp_path / "gone").rmdir()
    state = tmp_path / "states/p"
    assert checked_copy(tsc, root, root / "tsconfig.json", {}, state) is not None
    assert not of_gone.exists() and _there(
        tsc_kept.folder(state, root, root / "tsconfig.json", root).resolve()
    )
