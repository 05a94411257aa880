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


def test_a_body_edit_keeps_the_scope_and_a_branch_edit_makes_it_again(tmp_path: Path) -> None:
    """An edit that leaves what mypy imports as it was (a body's, a comment's) keeps the
    scope (poetry's leaf edit made its mypy part again: 0.24 s of a 0.59 s check); one that
    makes an import unreachable (its import lines the same) makes it again."""
    text = "import sys\nif sys.version_info >= (3, 8):\n    import app.helper\nX = 1\n"
    root = tmp_path / "w"
    for name, body in {**FILES, "app/main.py": text}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    root = root.resolve()
    main = root / "app/main.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        scope = warm.run(gate_scope(warm.ws))
        assert root / "app/helper.py" in scope.files
        main.write_text(text + "\n\ndef f() -> int:  # app.other\n    return 1\n")
        assert warm.run(gate_scope(warm.ws)) is scope
        main.write_text(text.replace(">= (3, 8)", "< (3, 8)"))
        again = warm.run(gate_scope(warm.ws))
        assert root / "app/helper.py" not in again.files
