"""A module written while the daemon runs where basedpyright's configuration keeps files
out of its checked files (a folder of `exclude`, a folder outside `include`) still resolves
for its importers, as the CLI resolves it: `exclude` and `include` choose the files checked,
not the modules imports find. basedpyright's server drops a watcher event of a file it does
not track and of a folder it excludes (`_shouldHandleSourceFileWatchChanges`), so its
import resolver kept its listing of the folder from before, and the importer's
`Import "scratch.mod" could not be resolved` stood for good (the examiner's F2: on every
path, then in HEAD's kept result once committed, so the stop gate blocked a turn that only
added a comment). Real basedpyright against its CLI on the same disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import Row, cli, rows
from tests.ops.test_baseline import committed, git

CHECKS = "from util import twice\n\n\ndef f(n: int) -> int:\n    return twice(n)\n"
USE = '\n\ndef g(n: int) -> int:\n    from scratch.mod import scale\n\n    return scale(n) + "s"\n'
MODULE = "def scale(x: int) -> int:\n    return x * 2\n"
EXCLUDED = {  # the examiner's shape: an execution root holding an excluded folder
    "pyrightconfig.json": '{"include": ["tools"], "exclude": ["tools/scratch"],'
    ' "executionEnvironments": [{"root": "tools"}], "typeCheckingMode": "standard"}\n',
    "tools/util.py": "def twice(x: int) -> int:\n    return 2 * x\n",
    "tools/checks.py": CHECKS,
}
OUTSIDE = {  # a module beside `include`, found from the project's root
    "pyrightconfig.json": '{"include": ["tools"], "typeCheckingMode": "standard"}\n',
    "tools/__init__.py": "",
    "tools/util.py": "def twice(x: int) -> int:\n    return 2 * x\n",
    "tools/checks.py": CHECKS.replace("from util", "from tools.util"),
}
ROOT = {  # `include` the project's folder (the default), `exclude` one of its folders
    **OUTSIDE,
    "pyrightconfig.json": '{"exclude": ["scratch"], "typeCheckingMode": "standard"}\n',
}
CASES = {
    "excluded": (EXCLUDED, "tools/scratch/mod.py"),
    "outside": (OUTSIDE, "scratch/mod.py"),
    "root": (ROOT, "scratch/mod.py"),
}


def said(warm: Warm) -> tuple[list[Row], list[Row], list[Row]]:
    """`lspd check`'s diagnostics, and `check --baseline HEAD`'s introduced and fixed."""
    now = warm.run(workspace_diagnostics(warm.ws, limit=100))
    since = warm.run(workspace_diagnostics(warm.ws, limit=100, baseline="HEAD")).changes
    assert since is not None
    return rows(now.diagnostics), rows(since.introduced), rows(since.fixed)


@pytest.mark.parametrize("case", CASES)
def test_a_module_written_outside_the_checked_files_resolves_as_the_clis(
    tmp_path: Path, case: str
) -> None:
    files, module = CASES[case]
    root = committed(written(tmp_path / "p", files))
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])  # tools/ listed by the server's resolver
        written(root, {module: MODULE})
        with (root / "tools/checks.py").open("a") as checks:
            checks.write(USE)
        truth = cli(root)
        assert [(r[0], r[1], r[3]) for r in truth] == [
            ("tools/checks.py", 11, "reportOperatorIssue")
        ]
        assert said(warm) == (truth, truth, [])
        git(root, "add", "-A")
        git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "use")
        assert said(warm) == (truth, [], [])  # HEAD's result made by this server now
