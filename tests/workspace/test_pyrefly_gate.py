"""A project whose gate runs pyrefly alone is judged by pyrefly (`workspace/pyrefly_gate.py`):
a project configuring `[tool.pyrefly]` whose `make check-types` runs `pyrefly check` was
judged by lspd's basedpyright, which said it clean where its gate fails on an
`unused-ignore` its configuration makes an error. Real pyrefly (lspd's, the tests'
environment holding none) against the same pyrefly's CLI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.servers.registry import definitions
from lspd.workspace.pyrefly_gate import configures_pyrefly, gate_pyrefly, gated_pyrefly
from tests.conftest import answer
from tests.workspace.test_scope import write

PYPROJECT = (
    '[project]\nname = "p"\nversion = "0"\n\n[tool.pyrefly]\nproject-includes = ["pkg"]\n\n'
    '[tool.pyrefly.errors]\nunused-ignore = "error"\n'
)
FILES = {
    "pyproject.toml": PYPROJECT,
    "Makefile": "check-types:\n\tpyrefly check\n",
    "pkg/__init__.py": "def f(x: int) -> int:\n    return x  # pyrefly: ignore[bad-return]\n",
}


def pyrefly_rows(root: Path) -> list[tuple[str, int, str]]:
    """pyrefly's own `check` of `root` (lspd's pyrefly, the gate's command) as (file, line,
    code)."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "pyrefly"), "check", "--output-format", "min-text"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.findall(r"^ERROR (\S+):(\d+):\d+-\d+: .*\[([\w-]+)\]$", done.stdout, re.MULTILINE)
    return sorted((path, int(line), code) for path, line, code in found)


def test_pyrefly_judges_a_project_whose_gate_runs_it_alone(tmp_path: Path) -> None:
    root = write(tmp_path / "p", FILES)
    truth = pyrefly_rows(root)
    assert truth == [("pkg/__init__.py", 2, "unused-ignore")]
    found = answer(root, workspace_diagnostics)
    rows = sorted((d.path, d.line, d.code) for d in found.diagnostics if d.severity == "error")
    assert rows == truth
    assert {d.source for d in found.diagnostics} == {"Pyrefly"}
    # pyright runs too: basedpyright stays the judge, and says no such error
    write(root, {"Makefile": FILES["Makefile"] + "\tpyright pkg\n"})
    found = answer(root, workspace_diagnostics)
    assert "Pyrefly" not in {d.source for d in found.diagnostics}
    assert [d for d in found.diagnostics if d.code == "unused-ignore"] == []


@pytest.mark.parametrize(
    ("files", "gated"),
    [
        ({"pyproject.toml": PYPROJECT, "Makefile": FILES["Makefile"]}, True),
        ({"pyrefly.toml": "", "tox.ini": "[testenv:types]\ncommands = pyrefly check\n"}, True),
        ({"pyproject.toml": PYPROJECT, "Makefile": "check:\n\tpyrefly check\n\tmypy pkg\n"}, False),
        ({"pyproject.toml": PYPROJECT, "Makefile": "check:\n\tpytest\n"}, False),
    ],
    ids=["makefile", "pyrefly.toml", "mypy-too", "no-run"],
)
def test_which_gate_is_pyreflys(tmp_path: Path, files: dict[str, str], gated: bool) -> None:
    root = write(tmp_path / "p", files)
    assert configures_pyrefly(root) and gated_pyrefly(root) == gated
    servers = definitions()
    chosen = gate_pyrefly(servers["basedpyright"], root / "pkg", servers)
    assert (chosen is not None and chosen.name == "pyrefly") == gated


def test_a_project_configuring_another_checker_nearer_is_not_pyreflys(tmp_path: Path) -> None:
    """A package below with its own `[tool.mypy]` is its checker's, not the top's pyrefly."""
    root = write(tmp_path / "p", {**FILES, "pkg/pyproject.toml": "[tool.mypy]\n"})
    servers = definitions()
    assert gate_pyrefly(servers["basedpyright"], root / "pkg", servers) is None
    assert gate_pyrefly(servers["basedpyright"], root, servers) is not None
