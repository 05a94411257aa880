"""A whole check shared with a second basedpyright opens every file it asks in each server
before asking any (`engine/second_server._opened`): basedpyright keeps a file it first made
for another file's import as it made it when lspd opens it later (`setFileOpened`: not
tracked, a library's file where the import went through site-packages), and such a file's
errors went unreported. mcp 2.3.0 (an editable install's .pth, extraPaths set, 11
sub-projects): a re-check after a signature change was undone answered stdio.py and the four
files importing it without their 6 errors, hints kept (issue 40, F1)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import second_server
from lspd.lsp import shapes
from lspd.lsp.documents import Document
from lspd.lsp.session import Session
from tests.conftest import Warm
from tests.engine.test_affected import asked, watched, written

# `c` is found through the venv's .pth alone (extraPaths set: no automatic `src`), as a
# library from the sub-project src/b/, whose file imports it as the root's files do.
CONFIG = '[tool.pyright]\ninclude = ["src"]\nvenvPath = "."\nvenv = ".venv"\nextraPaths = ["lib"]\n'
FILES = {
    "pyproject.toml": CONFIG,
    "src/a/__init__.py": "",
    **{f"src/a/i{i:02}.py": "from c import z\n\nprint(z)\n" for i in range(12)},
    "src/b/pyproject.toml": '[project]\nname = "b"\n\n[tool.pyright]\n',
    "src/b/main.py": "from c import z\n\nprint(z)\n",
    "src/c/__init__.py": "",
    "src/c/z.py": "x: str = 1\n",
}


@pytest.fixture
def python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Warm]:
    """The project with its venv's .pth naming src/ (as `pip install -e` writes it)."""
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    root = written(tmp_path / "py", FILES)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", root / ".venv"], check=True)
    [site] = (root / ".venv/lib").glob("python*/site-packages")
    (site / "_pkg.pth").write_text(f"{root / 'src'}\n")
    yield from watched(root, tmp_path / "logs")


def test_each_server_holds_every_file_before_the_first_is_asked(
    python: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the servers hold open at their first question: every file of the check."""
    held: dict[int, int] = {}
    real = Session.diagnostics

    async def diagnostics(
        self: Session, document: Document, timeout: float, held_: object = None
    ) -> list[shapes.Diagnostic]:
        held.setdefault(id(self), len(self.documents))
        return await real(self, document, timeout, held_)

    monkeypatch.setattr(Session, "diagnostics", diagnostics)
    files, errors = asked(python)
    assert (len(files), errors) == (len(FILES) - 2, [("src/c/z.py", 1, "reportAssignmentType")])
    assert sorted(held.values()) == [len(files), len(files)]  # the first and the second
