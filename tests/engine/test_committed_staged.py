"""HEAD's kept result is made of HEAD's tree whatever the index holds (`engine/committed.py`,
`engine/revisions.listing`): a change staged when it is first made (`git mv`, `git rm`, a
new file or an edit `git add`ed) is a change since HEAD, as the same change unstaged is.
Before, a staged rename left the old path out of HEAD's state (git's listing named the new
path alone): HEAD's result held the rename's own `import-not-found`, so check --baseline
HEAD said it unchanged, a clean tree after said it fixed, and an edit breaking the same
import (the file deleted) was not new, read back so after a restart (the examiner's F0,
more-itertools on mypy 1.19.1 and frozenlist on basedpyright). Real mypy and basedpyright
on small projects, their own CLI's answer on the disk's tree (HEAD's: the clean tree first)
the truth; one-shot questions (a fresh workspace each, reading the kept result back) and a
watched workspace (the daemon's)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from tests import basedpyright_cli
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

Found = set[tuple[str, int, str | None]]  # (file, line, code) of each error
MYPY = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n',
    "app/__init__.py": "",
    "app/shapes.py": "def area(w: int, h: int) -> int:\n    return w * h\n",
    "app/chunks.py": "from app.shapes import area\n\nn: int = area(2, 3)\n",
    "app/report.py": 'count: int = "three"\n',  # HEAD's own error: unchanged throughout
}
PYRIGHT = {
    "pyrightconfig.json": '{ "typeCheckingMode": "standard" }\n',
    "sig/__init__.py": "def area(w: int, h: int) -> int:\n    return w * h\n",
    "app/__init__.py": "",
    "app/chunks.py": "from sig import area\n\nn: int = area(2, 3)\n",
    "app/report.py": 'count: int = "three"\n',
}
# Each staged change: files written, then git's commands; the commands making the tree clean.
Step = tuple[dict[str, str], list[list[str]]]
STAGED: dict[str, tuple[Step, Step]] = {
    "rename": (
        ({}, [["mv", "app/shapes.py", "app/geometry.py"]]),
        ({}, [["mv", "app/geometry.py", "app/shapes.py"]]),
    ),
    "deletion": (({}, [["rm", "-q", "app/shapes.py"]]), ({}, [["checkout", "HEAD", "--", "."]])),
    "new file": (
        ({"app/extra.py": 'y: int = "y"\n'}, [["add", "app/extra.py"]]),
        ({}, [["rm", "-qf", "app/extra.py"]]),
    ),
    "edit": (
        ({"app/shapes.py": 'def area(w: int, h: int) -> str:\n    return "x"\n'}, [["add", "."]]),
        ({}, [["checkout", "HEAD", "--", "."]]),
    ),
}


def _do(root: Path, step: Step) -> None:
    writes, commands = step
    for name, text in writes.items():
        (root / name).write_text(text)
    for args in commands:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _mypy(root: Path) -> Found:
    return {(f, line, code) for f, line, _, code, _ in cli_errors(root)}


def _pyright(root: Path) -> Found:
    found = basedpyright_cli.diagnostics(root)
    return {
        (basedpyright_cli.relative(d, root), basedpyright_cli.start(d)[0], d.get("rule"))
        for d in found
        if d["severity"] == "error"
    }


def _said(changes: Changes | None) -> tuple[Found, Found, int]:
    assert changes is not None
    new = {(str(d.path), d.line, d.code) for d in changes.introduced if d.severity == "error"}
    gone = {(str(d.path), d.line, d.code) for d in changes.fixed if d.severity == "error"}
    return new, gone, changes.unchanged


@contextmanager
def _asking(root: Path, watched: bool) -> Iterator[Callable[[], Changes | None]]:
    """check --baseline HEAD's changes: a fresh workspace each (one-shot) or a watched one."""
    if not watched:
        yield lambda: answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
        return
    for warm in warm_root(root, root.parent / "logs", watch=True):

        def watched_ask(w: Warm = warm) -> Changes | None:
            return w.run(workspace_diagnostics(w.ws, baseline="HEAD")).changes

        yield watched_ask


def _proved(root: Path, case: str, truth: Callable[[Path], Found], watched: bool) -> None:
    """The staged change's check --baseline HEAD (HEAD's result made then) says what the
    checker says new and gone since HEAD's tree; the clean tree after, nothing; the old
    module deleted then (unstaged), its importer's error new."""
    head = truth(root)
    staged, clean = STAGED[case]
    _do(root, staged)
    now = truth(root)
    assert now != head
    with _asking(root, watched) as ask:  # HEAD's result first made with the change staged
        assert _said(ask()) == (now - head, head - now, len(head & now))
        _do(root, clean)
        assert truth(root) == head
        assert _said(ask()) == (set(), set(), len(head))
        (root / "app/shapes.py").unlink()
        broken = truth(root)
        assert broken - head == {("app/chunks.py", 1, "import-not-found")}
        assert _said(ask()) == (broken - head, head - broken, len(head & broken))


@pytest.mark.parametrize("watched", [False, True], ids=["one-shot", "daemon"])
@pytest.mark.parametrize("case", sorted(STAGED))
def test_mypy_head_s_result_is_head_s_tree(tmp_path: Path, case: str, watched: bool) -> None:
    root = committed(project(tmp_path / "p", MYPY))
    _proved(root, case, _mypy, watched)


@pytest.mark.parametrize("watched", [False, True], ids=["one-shot", "daemon"])
def test_basedpyright_head_s_result_is_head_s_tree(tmp_path: Path, watched: bool) -> None:
    """A package folder renamed (`git mv sig sig2`): its importer's reportMissingImports."""
    root = tmp_path / "p"
    for name, text in PYRIGHT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    committed(root)
    head = _pyright(root)
    _do(root, ({}, [["mv", "sig", "sig2"]]))
    now = _pyright(root)
    assert now - head == {("app/chunks.py", 1, "reportMissingImports")}
    with _asking(root, watched) as ask:  # HEAD's result first made with the rename staged
        assert _said(ask()) == (now - head, head - now, len(head & now))
        _do(root, ({}, [["mv", "sig2", "sig"]]))
        assert _pyright(root) == head
        assert _said(ask()) == (set(), set(), len(head))
        shutil.rmtree(root / "sig")  # its __init__.py alone: a namespace package, no error
        assert _pyright(root) == now
        assert _said(ask()) == (now - head, head - now, len(head & now))
