"""`pyright --verifytypes PACKAGE`, a step of exceptiongroup's gate beside pyright and mypy,
fails a public function that lost its return annotation; lspd does not run it, and its
check said "0 errors" with no word of the step. The scope now says it is not checked
(`workspace/pyright_verified.py`; the real basedpyright's `--verifytypes` beside)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.checker_runs import verified
from tests.conftest import answer

BASEDPYRIGHT = Path(sys.executable).parent / "basedpyright"
WORKFLOW = (
    "jobs:\n  typing:\n    steps:\n      - run: pip install -e . basedpyright\n"
    "      - run: basedpyright --verifytypes pkg --ignoreexternal\n"
)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root.resolve()


def test_a_verifytypes_run_is_said_not_checked(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "pyproject.toml": "[tool.pyright]\n",
            "pkg/__init__.py": "def twice(x: int):\n    return x * 2\n",
            "pkg/py.typed": "",
            ".github/workflows/ci.yml": WORKFLOW,
        },
    )
    gate = subprocess.run(
        [str(BASEDPYRIGHT), "--verifytypes", "pkg", "--ignoreexternal"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(root)},  # installed, as CI's `pip install -e .`
    )
    assert gate.returncode == 1 and "Return type annotation is missing" in gate.stdout
    assert verified(root) == {"basedpyright --verifytypes pkg"}
    checked = answer(root, workspace_diagnostics)
    note = (
        "not checked: `basedpyright --verifytypes pkg`, the completeness of the package's "
        "public types (each exported name annotated), which lspd does not run"
    )
    assert checked.errors == 0
    assert [(s.project, s.config, s.files, s.note) for s in checked.scope or []] == [
        (".", "pyproject.toml [tool.pyright]", 1, None),
        (".", None, 0, note),
    ]


def test_what_runs_no_verifytypes_names_none(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "tox.ini": "[testenv:t]\ncommands =\n    pyright src\n    mypy --verifytypes x\n",
            "Makefile": "types:\n\tpyright --verifytypes\n",  # no package: pyright's usage error
        },
    )
    assert verified(root) == set()
    (root / "scripts").mkdir()
    (root / "scripts/types").write_text("uv run pyright --verifytypes lib --outputjson\n")
    assert verified(root) == {"pyright --verifytypes lib"}
