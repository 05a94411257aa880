"""What an environment holds, read without running it: the version of its mypy (what
`mypy --version` says, on a real environment), none where it has no mypy."""

from __future__ import annotations

import re
import subprocess

from lspd.workspace.mypy_installed import installed_version
from tests.workspace.mypy_env import environment, mypy_env


def test_the_version_is_the_one_mypy_says() -> None:
    env = mypy_env()
    said = subprocess.run(
        [str(env / "bin" / "mypy"), "--version"], capture_output=True, text=True, timeout=120
    ).stdout
    found = re.match(r"mypy (\d+)\.(\d+)\.(\d+)", said)
    assert found is not None, said
    assert installed_version(env / "bin" / "python") == tuple(map(int, found.groups()))


def test_an_environment_without_mypy_has_no_version() -> None:
    assert installed_version(environment("no-mypy") / "bin" / "python") is None
