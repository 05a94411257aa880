"""In a daemon the gate's scope of a mypy project whose `files` name part of it follows its
imports (`mypy_follow`): an import added or dropped by an edit (no file come or gone)
makes its mypy part again at the next question, and only that part: the other projects'
scopes are kept as they were read (a tsconfig's reading is a Node run, 0.3-1.3 s)."""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.scope import gate_scope
from tests.conftest import Warm, warm_root

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\n',
    "app/__init__.py": "",
    "app/main.py": "X = 1\n",
    "app/helper.py": "Y = 2\n",
    "other/pyrightconfig.json": "{}\n",
    "other/x.py": "Z = 3\n",
}


def test_an_import_edited_makes_the_mypy_part_again(tmp_path: Path) -> None:
    root = tmp_path / "w"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    root = root.resolve()
    main = root / "app/main.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before, other = _files(warm, root)
        assert before == ["app/__init__.py", "app/main.py", "other/x.py"]
        main.write_text("import app.helper\nX = 1\n")
        added, kept = _files(warm, root)
        assert added == ["app/__init__.py", "app/helper.py", "app/main.py", "other/x.py"]
        assert kept is other  # read once: not made again for the import
        main.write_text("X = 1\n")
        assert _files(warm, root) == (before, other)


def _files(warm: Warm, root: Path) -> tuple[list[str], object]:
    """The gate's files, and the pyright project's scope."""
    scope = warm.run(gate_scope(warm.ws))
    [other] = [p for p in scope.projects if p.project == root / "other"]
    return sorted(p.relative_to(root).as_posix() for p in scope.files), other
