"""A project whose mypy `files` name part of it is gated on the modules mypy follows into
from them too (`mypy_follow`), in each state's own texts: an import added by an edit makes
the imported module's errors the gate's at once, on every path (check, check --baseline
HEAD, diagnostics FILE, preview); an import dropped takes them out ("left the gate", their
errors fixed, as a file leaving the gate is counted). Real mypy, against its own runs."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from tests.conftest import answer, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\nstrict = true\n',
    ".gitignore": ".venv/\n",
    "app/__init__.py": "",
    "app/main.py": "from app.helper import h\n\nX: int = h()\n",
    "app/helper.py": 'def h() -> int:\n    return "x"\n',
    "app/extra.py": 'E: int = "e"\n',
}
HELPER = ("app/helper.py", 2, "return-value")
EXTRA = ("app/extra.py", 1, "assignment")
ADDED = FILES["app/main.py"] + "import app.extra\n"
DROPPED = "X: int = 1\n"


def _mypy(root: Path) -> set[tuple[str, int, str | None]]:
    return {(file, line, code) for file, line, _, code, _ in cli_errors(root)}


def test_the_check_says_the_errors_of_the_modules_mypy_follows_into(tmp_path: Path) -> None:
    """The reviewer's repro: mypy says app/helper.py:2 [return-value]; lspd said 0 errors."""
    root = project(tmp_path / "p", FILES)
    assert _mypy(root) == {HELPER}
    checked = answer(root, check_all)
    assert {(r.path, d.line, d.code) for r in checked.results for d in r.diagnostics} == {HELPER}
    assert sorted(r.path for r in checked.results) == [
        "app/__init__.py",
        "app/helper.py",
        "app/main.py",
    ]
    alone = answer(root, lambda ws: diagnostics(ws, "app/extra.py"))  # nothing imports it
    assert alone.total == 0
    assert alone.checker is not None and "mypy did not check it" in alone.checker


def test_an_import_added_and_dropped_daemon(tmp_path: Path) -> None:
    """Watched: the preview of the import, then the import written (check, baseline,
    diagnostics FILE), then the first import dropped."""
    root = committed(project(tmp_path / "p", FILES))
    main = root / "app/main.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        ws = warm.ws
        assert warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes is not None
        shown = warm.run(preview(ws, [{"path": "app/main.py", "content": ADDED}]))
        assert [(d.path, d.line, d.code) for d in shown.changes.introduced] == [EXTRA]
        main.write_text(ADDED)
        assert _mypy(root) == {HELPER, EXTRA}
        since = warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes
        assert since is not None
        assert [(d.path, d.line, d.code) for d in since.introduced] == [EXTRA]
        assert (since.fixed, since.unchanged) == ([], 1)
        now = warm.run(check_all(ws))
        assert {(r.path, d.line, d.code) for r in now.results for d in r.diagnostics} == {
            HELPER,
            EXTRA,
        }
        extra = warm.run(diagnostics(ws, "app/extra.py"))
        assert [(d.line, d.code) for d in extra.diagnostics] == [EXTRA[1:]]
        main.write_text(DROPPED)
        assert _mypy(root) == set()
        since = warm.run(workspace_diagnostics(ws, baseline="HEAD")).changes
        assert since is not None
        assert since.introduced == []
        assert [(d.path, d.line, d.code) for d in since.fixed] == [HELPER]
        assert "1 file(s) left the gate since (their errors fixed): app/helper.py" in since.scope


def test_an_import_added_and_dropped_one_shot(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    main = root / "app/main.py"
    main.write_text(ADDED)
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert [(d.path, d.line, d.code) for d in since.introduced] == [EXTRA]
    assert (since.fixed, since.unchanged) == ([], 1)
    main.write_text(DROPPED)
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert since.introduced == []
    assert [(d.path, d.line, d.code) for d in since.fixed] == [HELPER]
