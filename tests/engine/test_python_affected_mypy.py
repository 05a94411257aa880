"""A daemon's whole check after an edit of a module mypy judges (api/pyproject.toml's
[tool.mypy]) that a script basedpyright judges imports (`engine/python_affected.py`): the
script is asked again when the module's declarations change, as the importer of any
changed module is. Before, the check took mypy's file for a builder's and asked nothing:
tool.py's result stood at api/app/core.py's old text (0 errors where basedpyright's CLI
says tool.py:3 reportAssignmentType). Real mypy 2.4.1 and basedpyright."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.conftest import warm_root
from tests.engine.test_affected import asked, written
from tests.engine.test_python_across import CHANGED, MYPY, layout, truth

MYPY_FILES = ["api/app/__init__.py", "api/app/core.py"]  # mypy's run: its whole project
BODY = {"api/app/core.py": "def name(x: int) -> int:\n    return x + 0\n"}


def test_an_edit_of_mypy_s_module_asks_the_script_importing_it(tmp_path: Path) -> None:
    root = layout(tmp_path, MYPY)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert asked(warm) == ([*MYPY_FILES, "tool.py"], [])
        written(root, BODY)  # the body alone: mypy's run, nothing basedpyright judges
        assert asked(warm) == (MYPY_FILES, [])
        written(root, CHANGED)  # its declaration: its importer asked (before: not)
        assert truth(root) == Counter([("tool.py", 3, "reportAssignmentType")])
        new = [("tool.py", 3, "reportAssignmentType")]
        assert asked(warm) == ([*MYPY_FILES, "tool.py"], new)
