"""scripts/: asking for help installs and runs nothing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SCRIPTS = Path(__file__).parent.parent / "scripts"


def test_scripts_test_help_installs_nothing(tmp_path: Path) -> None:
    # It installed ~600 MB and ran ruff and mypy before pytest saw --help. A copy with no
    # .venv beside it: a bootstrap would create one.
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPTS / "test", tmp_path / "scripts" / "test")
    for form in ("--help", "-h"):
        done = subprocess.run(
            [str(tmp_path / "scripts" / "test"), "tests/cli", form],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: scripts/test [--fast] [PYTEST ARGUMENTS...]\n")
        assert done.stderr == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scripts"]
