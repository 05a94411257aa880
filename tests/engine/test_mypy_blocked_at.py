"""A stop of mypy's at a syntax error names the file whose syntax stopped it, not another
file's syntax error it does not stop at (an invalid `# type: ignore`, said beside it in
the same run): `mypy_blocked.blocking`, asked of the project's Python's parser, for mypy
run once (exit 2) and for dmypy's update alike. Before, the check said 'mypy stopped at
app/a.py:1, app/b.py:1'. Real mypy 2.4.1, against its own run."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from tests.conftest import answer, warm_root
from tests.engine.test_mypy_blocked import own_stop
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/a.py": "x = 1  # type: ignore[\n",  # a syntax error mypy goes on after
    "app/b.py": "def f(:\n    pass\n",  # one it stops at
}


def test_the_stop_is_at_the_syntax_error_that_stops_mypy(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    said = [e.split(": error: ")[0] for e in own_stop(root)]
    assert said == ["app/a.py:1", "app/b.py:1", "app/b.py:1"]  # both files' errors said
    [stop] = answer(root, check_all).stopped
    assert stop.at == (("app/b.py", 1),)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        (root / "app/b.py").write_text("def f() -> None:\n    pass\n")
        assert warm.run(check_all(warm.ws)).stopped == []
        (root / "app/b.py").write_text(FILES["app/b.py"])  # dmypy's update blocked
        [stop] = warm.run(check_all(warm.ws)).stopped
        assert stop.at == (("app/b.py", 1),)


OUTSIDE = {  # mypy_path leads out of the project's copy: dmypy reads shared/ from the disk
    "app/pyproject.toml": (
        '[tool.mypy]\nfiles = ["main.py"]\nmypy_path = "../shared"\nstrict = true\n'
    ),
    "app/main.py": "from util import double\n\nfour: int = double(2)\nwrong: int = ''\n",
    "shared/util.py": "def double(x: int) -> int:\n    return x * 2\n",
}


def test_a_syntax_error_outside_the_project_s_copy_stops_it(tmp_path: Path) -> None:
    """A module of `mypy_path` outside the project's package (dmypy's copy holds none of
    it) broken: mypy stops there (exit 2) and never checks main.py; dmypy's update said
    util.py's syntax errors alone, and the check said main.py clean, no stop (its baseline
    error fixed)."""
    root = committed(project(tmp_path / "p", OUTSIDE))
    (root / "app/.venv").symlink_to(root / ".venv")
    broken = OUTSIDE["shared/util.py"] + "\n\ndef broken(:\n    pass\n"  # line 5
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        checked = warm.run(check_all(warm.ws))
        assert checked.stopped == []
        assert [
            (r.path, d.line, d.code)
            for r in checked.results
            if r.path == "app/main.py"
            for d in r.diagnostics
        ] == [("app/main.py", 4, "assignment")]
        (root / "shared/util.py").write_text(broken)
        assert [e.split(": error: ")[0] for e in own_stop(root / "app")] == [
            f"{root}/shared/util.py:5",
            f"{root}/shared/util.py:5",
        ]
        [stop] = warm.run(check_all(warm.ws)).stopped
        assert stop.at == (("shared/util.py", 5),)
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None and since.changes.fixed == []  # not checked
        assert [s.at for s in since.changes.stopped] == [["shared/util.py:5"]]
