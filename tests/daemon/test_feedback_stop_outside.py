"""A checker's stop at a file the gate's check has no result of (mypy follows app/main.py's
import into lib/util.py, outside its `files`, and stops at its syntax error): the stop gate
knows the stop by the text it stopped at, not by its file alone, so another syntax error of
that file (written by a shell command the edit hook never saw, main.py edited after it) is
a new stop, blocked once, as one in a file of the gate is (`ops/progressive_kept.stop_keys`).
On a real mypy 2.4.1, against the project's own mypy run."""

from __future__ import annotations

from pathlib import Path

from lspd.daemon.feedback import Feedback
from tests.conftest import warm_root
from tests.daemon.test_feedback_stopped import EDIT, STOP, mypy_exit
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import project

UTIL = "def double(x: int) -> int:\n    return x * 2\n"
FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/main.py": "from lib.util import double\n\nfour: int = double(2)\n",
    "lib/__init__.py": "",
    "lib/util.py": UTIL,
}


def test_another_syntax_error_of_a_file_outside_the_gate_is_a_new_stop(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    util = root / "lib/util.py"
    util.write_text(UTIL + "\n\ndef broken(:\n    pass\n")  # line 5
    status, out = mypy_exit(root)
    assert status == 2 and out.startswith("lib/util.py:5: error: "), out
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        (root / "app/main.py").write_text(FILES["app/main.py"] + "five: int = 5\n")
        warm.run(feedback.answer({**EDIT, "paths": ["app/main.py"]}))
        first = warm.run(feedback.answer(STOP))
        assert first["stopped"] == ["mypy stopped at the syntax error at lib/util.py:5"]
        assert first["repeat"] is False

        util.write_text(UTIL + "\n\nvalue = = 1\n")  # another syntax error, line 5 still
        status, out = mypy_exit(root)
        assert status == 2 and out.startswith("lib/util.py:5: error: "), out
        (root / "app/main.py").write_text(FILES["app/main.py"] + "six: int = 6\n")
        warm.run(feedback.answer({**EDIT, "paths": ["app/main.py"]}))
        second = warm.run(feedback.answer(STOP))
        assert second["stopped"] == ["mypy stopped at the syntax error at lib/util.py:5"]
        assert second["repeat"] is False  # a new stop: blocked once
        warm.run(feedback.close())
