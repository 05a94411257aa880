"""A project whose gate runs ty alone is judged by ty (`workspace/ty_gate.py`): pipx
configures `[tool.ty]` and its tox runs `ty check`; lspd's basedpyright said 179 errors and
2,428 warnings of its clean tree where ty says the gate's 4 warnings. Real ty (lspd's, the
tests' environment holding none) against the same ty's CLI."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.servers.registry import definitions
from lspd.workspace.ty_gate import gate_ty
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import diagnostic_rows

TY = Path(sys.executable).parent / "ty"
TOX = "[testenv:type]\ncommands = ty check\n"
PYPROJECT = '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n'
FILES = {
    "pyproject.toml": PYPROJECT,
    "tox.ini": TOX,
    ".gitignore": ".venv\n",
    "app/__init__.py": "",
    # basedpyright's "recommended" flags the untyped `echo` and `os.foo` its own way
    "app/main.py": (
        "import os\n\n\ndef echo(x):\n    return x\n\n\n"
        'width: int = "wide"\nprint(echo(1))\nos.foo\n'
    ),
    # a package below with no checker configuration: the gate's at the top (ty's)
    "tools/setup.py": "",
    "tools/t.py": 'count: int = "x"\n',
}
_CONCISE = re.compile(r"^(.+?):(\d+):(\d+): (error|warning)\[([\w-]+)\] ", re.MULTILINE)


@pytest.mark.parametrize(
    ("files", "gated"),
    [
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX}, True),
        ({"ty.toml": "", "Makefile": "types:\n\tuv run ty check src\n"}, True),
        ({"pyproject.toml": PYPROJECT + "[tool.ty.terminal]\n", "tox.ini": TOX}, True),
        # another checker runs too (typer's lint.sh: mypy, then ty): not ty's alone
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX + "    mypy src\n"}, False),
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX.replace("ty check", "pytest")}, False),
        ({"pyproject.toml": PYPROJECT.replace("[tool.ty]", "[tool.ruff]"), "tox.ini": TOX}, False),
    ],
    ids=["tox", "ty-toml", "subtable", "mypy-too", "not-run", "not-configured"],
)
def test_what_gates_on_ty(tmp_path: Path, files: dict[str, str], gated: bool) -> None:
    root = written(tmp_path, {**files, ".git/HEAD": ""})
    servers = definitions()
    chosen = gate_ty(servers["basedpyright"], root, servers)
    assert (chosen is not None and chosen.name == "ty") == gated


def test_a_package_below_is_the_gates_unless_it_configures_its_own(tmp_path: Path) -> None:
    root = written(tmp_path, {**FILES, ".git/HEAD": "", "own/pyrightconfig.json": "{}"})
    servers = definitions()
    assert gate_ty(servers["basedpyright"], root / "tools", servers) is not None
    assert gate_ty(servers["basedpyright"], root / "own", servers) is None


def test_ty_answers_as_the_gates_ty(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(environment("no-mypy"))
    done = subprocess.run(
        [str(TY), "check", "--output-format", "concise"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    expected = sorted(
        (m[1], int(m[2]), int(m[3]), m[5], m[4]) for m in _CONCISE.finditer(done.stdout)
    )
    assert expected == [
        ("app/main.py", 8, 14, "invalid-assignment", "error"),
        ("app/main.py", 10, 1, "missing-attribute", "error"),
        ("tools/t.py", 1, 14, "invalid-assignment", "error"),
    ]
    for warm in warm_root(root, tmp_path / "logs"):
        checked = warm.run(workspace_diagnostics(warm.ws))
        rows = diagnostic_rows(checked)
        assert rows == expected
        servers = {r.server for r in warm.run(check_all(warm.ws)).results}
        assert servers == {"ty"}


def test_a_one_shot_check_names_ty(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(environment("no-mypy"))
    checked = answer(root, check_all)
    labels = {r.toolchain for r in checked.results if r.toolchain}
    said = f"ty {version('ty')} (lspd's: the gate runs ty)"  # an upgrade re-keys HEAD's result
    assert {label.split(", ")[-1] for label in labels} == {said}
