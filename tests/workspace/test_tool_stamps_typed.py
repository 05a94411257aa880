"""A typed dependency's file edited in place in the project's environment (no reinstall: the
directories' mtimes stay) and restored is a change of the environment
(`mypy_installed.typed_stamp` in `tool_stamps`): basedpyright restarts and answers from the
edited file, then from the restored one, as its CLI does; HEAD's result made under the
other state is not compared with. Before, the server kept the file it had read at its start:
`lspd check` said nothing where the CLI says app/main.py:3 reportAssignmentType. Real
basedpyright against its CLI; the package written into site-packages with its `.dist-info`,
as a non-editable install leaves it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed
from tests.workspace.test_mypy_installed_edit import INT, STR, in_place
from tests.workspace.test_tool_stamps_pth import FILES

WRONG = [("app/main.py", 3, "reportAssignmentType")]


def test_a_typed_dependency_edited_in_place_is_an_environment_change(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    library = written(site, {"mylib/__init__.py": INT, "mylib/py.typed": ""}) / "mylib"
    written(site, {"mylib-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: mylib\n"})
    committed(root)
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 0)
        for text, truth in ((STR, WRONG), (INT, []), (STR, WRONG)):
            in_place(library / "__init__.py", text)
            assert [(p, line, rule) for p, line, _, rule, _ in cli(root)] == truth
            now = warm.run(workspace_diagnostics(warm.ws))
            assert [(d.path, d.line, d.code) for d in now.diagnostics] == truth
            since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
            assert since is not None
            assert (since.introduced, since.fixed, since.unchanged) == ([], [], len(truth))
