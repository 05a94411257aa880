"""`check --baseline HEAD` after an edit of mypy's configuration with no HEAD result kept
under HEAD's configuration (a daemon started after the edit, a fresh state directory):
HEAD's texts checked with HEAD's configuration in lspd's copy of the project
(`engine/mypy_configured.py`), where mypy alone judges the gate and the copy is made the
same way under both. Before, refused (NotKept, exit 2). pyproject.toml given
warn_unreachable and app/main.py a new error: the new errors are what mypy's own runs at
HEAD and now differ by. Where the configuration names other files (`files`), refused as
before. Real mypy 2.4.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine.committed import NotKept
from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import FILES
from tests.ops.test_since_kept_config import REACH, UNREACHABLE
from tests.workspace.mypy_env import cli_errors, mypy_env, project

MORE = "extra: str = 1\n"


async def since_head(ws: Workspace) -> object:
    return await workspace_diagnostics(ws, baseline="HEAD")


def test_head_is_checked_under_its_own_mypy_configuration(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", {**FILES, "app/reach.py": REACH}, mypy_env()))
    before = cli_errors(root, "app", "tests")
    (root / "pyproject.toml").write_text(UNREACHABLE)
    main = root / "app/main.py"
    main.write_text(main.read_text() + MORE)
    after = cli_errors(root, "app", "tests")
    new = sorted((e[0], e[1], e[3]) for e in after if e not in before)
    assert new == [
        ("app/main.py", 3, "assignment"),
        ("app/reach.py", 2, "unreachable"),
        ("app/reach.py", 3, "unreachable"),
    ]
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert sorted((d.path, d.line, d.code) for d in since.introduced) == new
    assert (since.fixed, since.unchanged) == ([], len(before))
    assert "the configuration changed since " in since.scope
    assert "(pyproject.toml): compared under the one then" in since.scope


def test_a_configuration_naming_other_files_is_refused(tmp_path: Path) -> None:
    """`files` added: the copy's targets are the disk's configuration's, not HEAD's."""
    root = committed(project(tmp_path / "p", {**FILES, "app/reach.py": REACH}, mypy_env()))
    (root / "pyproject.toml").write_text(UNREACHABLE + 'files = ["app"]\n')
    with pytest.raises(NotKept, match=r"configuration changed since \w+ \(pyproject.toml\)"):
        answer(root, since_head)
