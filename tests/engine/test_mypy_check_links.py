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
from lspd.ops.models import FileDiagnostic
from lspd.ops.preview import preview
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project
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


SIGNED = "def helper(n: str) -> int:\n    return len(n)\n"  # its callers' int now wrong
NESTED = {  # the mypy project in proj/, its link leading out of it to the repository's common/
    ".gitignore": ".venv\n",
    "proj/pyproject.toml": "[tool.mypy]\nstrict = true\n",
    **{f"proj/{name}": text for name, text in APP.items() if name.startswith("app/")},
    "common/vendor/__init__.py": "",
    "common/vendor/util.py": APP["shared/vendor/util.py"],
}


def mypy_rows(found: list[FileDiagnostic]) -> Counter[Row]:
    return Counter((str(d.path), d.line, d.code) for d in found if d.source == "mypy")


def test_a_state_under_a_link_leading_out_of_the_project_is_read(tmp_path: Path) -> None:
    """HEAD's text and a preview's of a module under a link leading out of the project
    (proj/app/vendor -> ../../common/vendor) are the ones mypy reads: the copy holds that
    folder's files where the state holds one there (before, its link to the disk's: the
    preview's signature change and the written one against HEAD said 0 new)."""
    root = project(tmp_path / "p", NESTED)
    os.symlink("../../common/vendor", root / "proj/app/vendor")
    committed(root)

    def mypy_of() -> Counter[Row]:
        said = cli_errors(root, ".", cwd=root / "proj")
        return Counter((f"proj/{f}", line, code) for f, line, _, code, _ in said)

    head = mypy_of()
    change: list[dict[str, str | None]] = [{"path": "common/vendor/util.py", "content": SIGNED}]
    previewed = answer(root, lambda ws: preview(ws, change))
    (root / "common/vendor/util.py").write_text(SIGNED)
    new = mypy_of() - head
    assert new == Counter({("proj/app/main.py", 5, "arg-type"): 1})
    assert mypy_rows(previewed.changes.introduced) == new
    since = answer(root, lambda ws: workspace_diagnostics(ws, limit=1000, baseline="HEAD"))
    assert since.changes is not None and mypy_rows(since.changes.introduced) == new
