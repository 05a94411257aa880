"""A symlinked package folder of a mypy project coming, going or led elsewhere while the
daemon runs is mypy's answer at once: the targets named through it (`mypy .` walks into it)
are made again with it (`project_files`' key holds the project's links). Before, the
targets kept after the link went named files through it, and mypy refused: `can't read file
'app/vendor/__init__.py'`. Real mypy against the project's own, a watched warm workspace
as the daemon's."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import Warm, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import project
from tests.workspace.test_mypy_mirror_links import APP, Row, mypys

FILES = {**APP, "pyproject.toml": "[tool.mypy]\nstrict = true\n"}


def checked(warm: Warm) -> Counter[Row]:
    found = warm.run(workspace_diagnostics(warm.ws, limit=1000)).diagnostics
    return Counter((str(d.path), d.line, d.code) for d in found)


def test_a_link_gone_back_and_led_elsewhere_is_mypys_answer(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FILES)
    link = root / "app/vendor"
    os.symlink("../shared/vendor", link)
    committed(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert checked(warm) == mypys(root) == Counter({("app/other.py", 2, "return-value"): 1})
        link.unlink()
        gone = mypys(root)
        assert ("app/main.py", 1, "import-not-found") in gone
        assert checked(warm) == gone
        os.symlink("../shared/vendor", link)
        assert checked(warm) == mypys(root)
        link.unlink()
        os.symlink("../shared", link)  # a package still, without util
        elsewhere = mypys(root)
        assert ("app/main.py", 1, "import-not-found") in elsewhere
        assert checked(warm) == elsewhere
