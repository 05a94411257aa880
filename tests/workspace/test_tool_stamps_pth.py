"""A project environment's .pth file edited in place (an editable install repointed: the
site-packages directory's mtime does not move) is a toolchain change
(`workspace/tool_stamps.py`, `mypy_installed.site_mtime`): the check answers from the new
path, and HEAD's result kept under the old .pth is not reused (the kept result's key holds
the environments' stamps). Before, `lspd check` kept the old answer and `check --baseline
HEAD` compared with HEAD's result made under the old .pth: the error the repointed library
makes read as introduced by the (clean) tree. Real basedpyright against its CLI, a real
venv whose .pth is rewritten."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed

FILES = {
    "pyrightconfig.json": '{"include": ["app"]}\n',
    "app/__init__.py": "",
    "app/main.py": "from mylib import f\n\nx: int = f()\n",
    ".gitignore": ".venv\n",
}
LIBRARIES = {
    "one/mylib/__init__.py": "def f() -> int:\n    return 1\n",
    "two/mylib/__init__.py": 'def f() -> str:\n    return "1"\n',
    "one/mylib/py.typed": "",
    "two/mylib/py.typed": "",
}


def test_a_pth_edited_in_place_is_a_toolchain_change(tmp_path: Path) -> None:
    written(tmp_path / "libs", LIBRARIES)
    root = written(tmp_path / "p", FILES)
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    pth = site / "mylib.pth"
    pth.write_text(f"{tmp_path / 'libs' / 'one'}\n")
    committed(root)
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 0)
        stamp = site.stat().st_mtime_ns
        with pth.open("r+") as edited:  # in place: the directory's mtime stays
            edited.write(f"{tmp_path / 'libs' / 'two'}\n")
            edited.truncate()
        assert site.stat().st_mtime_ns == stamp
        assert [(p, line, rule) for p, line, _, rule, _ in cli(root)] == [
            ("app/main.py", 3, "reportAssignmentType")
        ]
        now = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.code) for d in now.diagnostics] == [
            ("app/main.py", 3, "reportAssignmentType")
        ]
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
        assert "(checked; the toolchain changed since its result was made" in since.scope
