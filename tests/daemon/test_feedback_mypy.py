"""The hook on a mypy-gated project (`daemon/feedback.py`): the check is the project's mypy,
so once its mypy runs no hook says a server loads. Before, the hook judged the file by
basedpyright, which checks nothing of a mypy project and so never made a first comparison:
httpx 0.28.1's hook said "lspd is loading basedpyright … (1194 s since it started)" with
status showing both ready. While the project's mypy is not started, that is said, once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lspd.daemon.feedback import Feedback
from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.daemon.test_feedback_typescript import STILL, loading_said_once, note
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/shapes.py": "def area(width: int, height: int) -> int:\n    return width * height\n",
    "app/main.py": "from app.shapes import area\n\n\ndef run() -> int:\n    return area(2, 3)\n",
}


def edited(root: Path) -> dict[str, Any]:
    """`area` takes a third argument its caller does not pass (mypy: call-arg)."""
    shapes = root / "app" / "shapes.py"
    shapes.write_text(shapes.read_text().replace("height: int)", "height: int, depth: int)"))
    return {"event": "edit", "session": "s", "paths": ["app/shapes.py"], "baseline": "HEAD"}


def test_an_edit_is_judged_by_the_projects_mypy_not_basedpyright(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))  # the project's mypy ran
        feedback = Feedback(warm.ws)
        request = edited(root)
        for _ in range(2):
            answer = warm.run(feedback.answer({**request, "wait": 0.0}))
            assert answer.get("loading") is None, answer
            assert answer["complete"] or note(answer).startswith(STILL)
        answer = warm.run(feedback.answer({**request, "wait": 120.0}))
        assert answer["complete"] is True
        told = [*answer["late"], *answer["introduced"]]
        found = [(i["path"], i["line"], i["column"], i["code"], i["message"]) for i in told]
        assert found == cli_errors(root)  # the project's own mypy, to the error
        assert [(path, code) for path, _, _, code, _ in found] == [("app/main.py", "call-arg")]
        warm.run(feedback.close())


def test_mypy_not_started_yet_is_said_once(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        loading_said_once(warm, edited(root), "mypy for p")


BOTH = {
    **FILES,
    "pyproject.toml": FILES["pyproject.toml"] + '\n[tool.basedpyright]\ninclude = ["app"]\n',
}


def test_both_checkers_warm_after_a_check_say_no_loading(tmp_path: Path) -> None:
    """trio configures mypy and basedpyright: after whole checks (not the hook's) had both
    answer, the hook said "lspd is loading basedpyright for trio (1736 s since it started)"."""
    root = committed(project(tmp_path / "p", BOTH))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))  # both checkers answered
        feedback = Feedback(warm.ws)
        request = edited(root)
        answer = warm.run(feedback.answer({**request, "wait": 0.0}))
        done = warm.run(feedback.answer({**request, "wait": 120.0}))
        warm.run(feedback.close())
        assert answer.get("loading") is None, answer
        assert answer["complete"] or note(answer).startswith(STILL)
        assert done["complete"] is True
