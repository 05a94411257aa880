"""A Python file the server holds, replaced on disk (moved over: `sed -i`, an atomic save;
inotify says created), is a change in place for a pyright server: it re-checks what the
new text affects alone. Told that its `include` folders were created, as for a module come
or gone, basedpyright checked the whole project again (trio 0.35: `check --baseline HEAD`
26-41 s after a `sed -i` that changed nothing, 0.5 s for the same text written in place).
Real basedpyright: its answer "unchanged" (the same `resultId`) for a file it did not check
again, and its CLI on the same disk."""

from __future__ import annotations

import logging
import re
import subprocess
from pathlib import Path

import pytest

from lspd.engine.second_server import SPLIT_AT
from lspd.lsp.text import path_to_uri
from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import Row, cli, rows
from tests.ops.test_baseline import committed

A = "def f(x: int) -> int:\n    return x\n"
FILES = {
    "pyproject.toml": '[tool.basedpyright]\ntypeCheckingMode = "standard"\n',
    "pkg/__init__.py": "",
    "pkg/a.py": A,
    "pkg/b.py": "from pkg.a import f\n\ny: str = f(1)\n",
    "pkg/c.py": "z: int = 1\n",
}


def _replaced(root: Path, name: str, old: str, new: str) -> None:
    """`sed -i` on `name`: its text written to `sedXXXXXX` beside it, moved over it."""
    subprocess.run(["sed", "-i", f"s/{old}/{new}/", name], cwd=root, check=True)


def _checked(warm: Warm) -> tuple[list[Row], dict[str, str]]:
    """`lspd check`'s diagnostics, and each file's last pulled `resultId`."""
    found = rows(warm.run(workspace_diagnostics(warm.ws, limit=100)).diagnostics)
    pulled = warm.ws.session_for(warm.root / "pkg/c.py").inbox.pulled
    ids = {name: pulled[path_to_uri(warm.root / name)].result_id for name in FILES if ".py" in name}
    return found, ids


def _anew(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The whole checks' "checked N files in T s, K answered anew", T left out."""
    said = [r.getMessage() for r in caplog.records if r.name == "lspd.engine.whole_check"]
    caplog.clear()
    return [re.sub(r" in [0-9.]+ s", "", message) for message in said]


def test_a_held_file_replaced_is_checked_again_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "lspd.engine.whole_check")
    root = committed(written(tmp_path / "p", FILES))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before, ids = _checked(warm)
        assert [(r[0], r[1], r[3]) for r in before] == [("pkg/b.py", 3, "reportAssignmentType")]
        assert before == cli(root)
        caplog.clear()
        _replaced(root, "pkg/a.py", "nowhere", "none")  # the same text: nothing to check
        assert _checked(warm) == (before, ids)  # every resultId changed before
        # nothing asked: `sedXXXXXX`, come and gone, made it ask all 4 (trio: 162, on
        # a server restarted afresh beside a second one, 30 s)
        assert _anew(caplog) == ["checked 4 files, 0 answered anew"]
        _replaced(root, "pkg/a.py", "-> int:", "-> str:")
        _replaced(root, "pkg/a.py", "return x$", "return str(x)")
        now, after = _checked(warm)
        assert now == cli(root) == []
        assert after["pkg/c.py"] == ids["pkg/c.py"]  # imports nothing of it
        assert after["pkg/b.py"] != ids["pkg/b.py"]
        subprocess.run(["git", "checkout", "--", "pkg/a.py"], cwd=root, check=True)
        back, last = _checked(warm)  # deleted and written again by git: told created
        assert back == before == cli(root)
        assert last["pkg/c.py"] == ids["pkg/c.py"]


def test_a_module_written_where_one_was_deleted_resolves_again(tmp_path: Path) -> None:
    """A file deleted, then written again (told created, once lspd saw it absent): its
    importer's `reportMissingImports` goes, as the CLI says."""
    root = committed(written(tmp_path / "p", FILES))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before, _ = _checked(warm)
        (root / "pkg/a.py").unlink()
        gone = rows(warm.run(workspace_diagnostics(warm.ws, limit=100)).diagnostics)
        assert gone == cli(root)
        assert ("pkg/b.py", 1, "reportMissingImports") in [(r[0], r[1], r[3]) for r in gone]
        (root / "pkg/a.tmp").write_text(A)
        (root / "pkg/a.tmp").rename(root / "pkg/a.py")
        assert _checked(warm)[0] == before == cli(root)


def test_a_sed_in_place_of_a_project_over_the_split_asks_no_file_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`sed -i`'s `sedXXXXXX`, come and gone in one batch, was a change the check could not
    place: it asked every file, and with `SPLIT_AT` of them on a server started afresh
    beside a second (trio's 162: 30 s after a `sed -i` that changed nothing)."""
    caplog.set_level(logging.INFO, "lspd.engine.whole_check")
    many = {f"pkg/m{n}.py": f"v: int = {n}\n" for n in range(SPLIT_AT)}
    root = committed(written(tmp_path / "p", {**FILES, **many}))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before = rows(warm.run(workspace_diagnostics(warm.ws, limit=100)).diagnostics)
        assert before == cli(root)
        caplog.clear()
        _replaced(root, "pkg/m7.py", "nowhere", "none")
        _replaced(root, "pkg/a.py", "-> int:", "-> str:")
        _replaced(root, "pkg/a.py", "return x$", "return str(x)")
        now = rows(warm.run(workspace_diagnostics(warm.ws, limit=100)).diagnostics)
        assert now == cli(root) == []
        files = len(FILES) - 1 + SPLIT_AT
        # b.py, whose error went; a.py where its answer was not last time's very items
        # (answered by the other of the two servers); and m7.py where sed's events for it
        # came in two batches (a loaded machine: the CI's two workers). Never every file.
        said = _anew(caplog)
        assert said in ([f"checked {files} files, {anew} answered anew"] for anew in (1, 2, 3))
