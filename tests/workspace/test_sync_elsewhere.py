"""A module written while the daemon runs outside the folder of the configuration whose
execution root reaches it (an `executionEnvironments` entry's `extraPaths` pointing out of
its project, `../libs`) resolves for that project's importer as its CLI resolves it: the
folders a pyright server is told created (`pyright_watch.included`) were those of the
folder the change is in alone. Real basedpyright against its CLI on the same disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import Row, cli
from tests.ops.test_baseline import committed
from tests.workspace.test_sync_excluded import said

APP = 'def g(n: int) -> int:\n    from helper import scale\n\n    return scale(n) + "s"\n'
MODULE = "def scale(x: int) -> int:\n    return x * 2\n"
ENVIRONMENT = (
    '{"typeCheckingMode": "standard",'
    ' "executionEnvironments": [{"root": ".", "extraPaths": ["../libs"]}]}\n'
)
CASES = {
    "environment": {"svc/pyrightconfig.json": ENVIRONMENT, "svc/app.py": APP},
    "beside": {  # another project beside it, the folder it reaches inside that one
        "svc/pyrightconfig.json": ENVIRONMENT.replace("../libs", "../other/libs"),
        "svc/app.py": APP,
        "other/pyrightconfig.json": '{"typeCheckingMode": "standard"}\n',
        "other/main.py": "x = 1\n",
    },
}


def in_root(rows: list[Row], project: str) -> list[Row]:
    return [(f"{project}/{r[0]}", *r[1:]) for r in rows]


def _written_while_served(root: Path, module: str, warm: Warm) -> list[Row]:
    """`module` written while the daemon runs: said at once as the CLI says it."""
    before = in_root(cli(root / "svc"), "svc")
    assert [(r[0], r[1], r[3]) for r in before] == [("svc/app.py", 2, "reportMissingImports")]
    assert said(warm) == (before, [], [])  # the importer looked for it in vain
    written(root, {module: MODULE})
    now = said(warm)  # at once: before the server's library watcher would hear of it
    truth = in_root(cli(root / "svc"), "svc")
    assert [(r[0], r[1], r[3]) for r in truth] == [("svc/app.py", 4, "reportOperatorIssue")]
    assert now == (truth, truth, before)
    assert said(warm) == (truth, truth, before)
    return before


@pytest.mark.parametrize("case", CASES)
def test_a_module_another_projects_environment_reaches_resolves_as_the_clis(
    tmp_path: Path, case: str
) -> None:
    root = committed(written(tmp_path / "p", CASES[case]))
    module = "libs/helper.py" if case == "environment" else "other/libs/helper.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        _written_while_served(root, module, warm)


@pytest.mark.parametrize("case", CASES)
def test_a_module_there_edited_in_place_is_read_at_once(tmp_path: Path, case: str) -> None:
    """Read 5 s late before (basedpyright's library watcher; xfail in the last stop): a file
    out of the server's folder opened there goes to its default workspace, not the project's
    program, so the `include` folders are told created for it as for a module come or gone."""
    root = committed(written(tmp_path / "p", CASES[case]))
    module = "libs/helper.py" if case == "environment" else "other/libs/helper.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before = _written_while_served(root, module, warm)
        with (root / module).open("r+") as edited:  # in place: the watcher says changed
            edited.write(MODULE.replace("int", "str"))
        now = said(warm)
        truth = in_root(cli(root / "svc"), "svc")
        assert [(r[0], r[1], r[3]) for r in truth] == [
            ("svc/app.py", 4, "reportReturnType"),
            ("svc/app.py", 4, "reportArgumentType"),
        ]
        assert now == (truth, truth, before)
