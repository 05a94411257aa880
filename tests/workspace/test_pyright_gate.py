"""A project whose gate runs pyright from an environment of its own (svcs: tox's
`typing-pyright`, a dependency group its .venv does not install) is judged by lspd's pyright
of the version it pins (`workspace/pyright_gate.py`), not by lspd's basedpyright, whose
"recommended" mode read svcs's `[tool.pyright]` as 78 errors and 356 warnings where the
gate says 0. Real pyright 1.1.414 (npm's, installed by lspd on first need) against pip's
pyright 1.1.414 CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine import second_server
from lspd.engine.mypy_project import project_of
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.workspace import Workspace
from lspd.workspace.pyright_gate import PYRIGHT_DEFAULT, gated_pyright
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import FILES, cli, diagnostic_rows, pyright_env

TOX = "[testenv:typing]\ndependency_groups = pyright\ncommands = pyright\n"


@pytest.mark.parametrize(
    ("files", "version"),
    [
        ({"pyproject.toml": "[tool.pyright]\n", "tox.ini": TOX}, PYRIGHT_DEFAULT),
        ({"pyrightconfig.json": "{}", "Makefile": "types:\n\tuv run pyright src\n"}, "1.1.414"),
        (
            {
                "pyproject.toml": "[tool.pyright]\n",
                "tox.ini": TOX,
                "uv.lock": '[[package]]\nname = "pyright"\nversion = "1.1.411"\n',
            },
            "1.1.411",
        ),
        (  # npm has no `.post0`: its 1.1.392
            {
                "pyproject.toml": "[tool.pyright]\n",
                "tox.ini": TOX,
                "uv.lock": '[[package]]\nname = "pyright"\nversion = "1.1.392.post0"\n',
            },
            "1.1.392",
        ),
        (
            {
                "pyproject.toml": '[dependency-groups]\npyright = ["pyright==1.1.409"]\n\n'
                "[tool.pyright]\n",
                "tox.ini": TOX,
            },
            "1.1.409",
        ),
        (
            {
                "pyproject.toml": "[tool.pyright]\n",
                "scripts/run-pyright": "exec node scripts/utils/node-tooling.cjs pyright -p x\n",
                "package.json": '{"devDependencies": {"pyright": "1.1.399"}}',
            },
            "1.1.399",
        ),
        # basedpyright's configuration, or something running basedpyright: not pyright's
        ({"pyproject.toml": "[tool.basedpyright]\n", "tox.ini": TOX}, None),
        (
            {"pyproject.toml": "[tool.pyright]\n", "tox.ini": TOX + "\tbasedpyright src\n"},
            None,
        ),
        # nothing runs pyright: the configuration is its editors'
        ({"pyproject.toml": "[tool.pyright]\n", "tox.ini": TOX.replace("pyright\n", "x\n")}, None),
    ],
    ids=[
        "tox",
        "makefile",
        "uv-lock",
        "post",
        "pinned",
        "package-json",
        "basedpyright",
        "runs-both",
        "not-run",
    ],
)
def test_what_gates_on_pyright(tmp_path: Path, files: dict[str, str], version: str | None) -> None:
    written(tmp_path, files)
    assert gated_pyright(tmp_path) == version


def test_lspd_s_pyright_answers_as_the_gate_s(tmp_path: Path) -> None:
    """The untyped `echo` is basedpyright's "recommended" alone: pyright says the two
    errors its default mode has."""
    root = written(tmp_path / "p", {**FILES, "tox.ini": TOX})
    (root / ".venv").symlink_to(environment("no-mypy"))
    expected = cli(root, pyright_env() / "bin" / "pyright")  # as its tox runs it
    assert [(r[0], r[1], r[3]) for r in expected] == [
        ("app/main.py", 8, "reportArgumentType"),
        ("app/main.py", 9, "reportAssignmentType"),
    ]
    for warm in warm_root(root, tmp_path / "logs"):
        checked = warm.run(workspace_diagnostics(warm.ws))
        rows = diagnostic_rows(checked)
        assert rows == expected
        labels = {r.toolchain for r in warm.run(check_all(warm.ws)).results if r.toolchain}
        assert {label.split(", ")[-1] for label in labels} == {
            f"pyright {PYRIGHT_DEFAULT} (lspd's: the gate runs pyright)"
        }
        assert {name for name, _ in warm.ws.pool.sessions} == {"pyright"}


def test_a_second_server_waits_for_the_first_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole check of many files starts a second server beside the first
    (`engine/second_server.py`): the second found the first's npm install half made and the
    check failed ("langserver.index.js does not exist"; openai-python's first `lspd
    check`). With no pyright in lspd's cache yet, both now answer."""
    root = written(tmp_path / "p", {**FILES, "tox.ini": TOX})
    (root / ".venv").symlink_to(environment("no-mypy"))
    expected = cli(root, pyright_env() / "bin" / "pyright")
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))  # none installed
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    checked = answer(root, workspace_diagnostics)
    rows = diagnostic_rows(checked)
    assert rows == expected
    assert (tmp_path / "cache" / f"npm-pyright-{PYRIGHT_DEFAULT}").is_dir()


def test_a_broken_configuration_mended_is_read_again(tmp_path: Path) -> None:
    """pyrightconfig.json extends base.json: while base.json does not parse, no version
    (the scope says what is wrong); once mended, pyright's, not the broken answer kept."""
    written(tmp_path, {"pyrightconfig.json": '{"extends": "base.json"}', "base.json": "{"})
    written(tmp_path, {"Makefile": "types:\n\tpyright\n"})
    assert gated_pyright(tmp_path) is None
    written(tmp_path, {"base.json": "{}"})
    assert gated_pyright(tmp_path) == PYRIGHT_DEFAULT
    written(tmp_path, {"base.json": '{"include": ["src"]}'})  # read again: still pyright's
    assert gated_pyright(tmp_path) == PYRIGHT_DEFAULT


@pytest.mark.parametrize(
    ("table", "runs", "named"),
    [
        ("[tool.pyright]", "pyright", "pyright"),
        ("[tool.basedpyright]", "basedpyright", "basedpyright"),
        ("[tool.pyright]", "basedpyright", "basedpyright"),
    ],
    ids=["gate-runs-pyright", "basedpyright-configured", "gate-runs-basedpyright"],
)
def test_the_checker_label_names_the_server_that_judges(
    tmp_path: Path, table: str, runs: str, named: str
) -> None:
    """svcs: mypy and lspd's pyright judge it; `checker` said "mypy and basedpyright"."""
    pyproject = FILES["pyproject.toml"].replace("[tool.pyright]", f"[tool.mypy]\n\n{table}")
    tox = f"[testenv:typing]\ncommands =\n    mypy app\n    {runs}\n"
    root = written(tmp_path / "p", {**FILES, "pyproject.toml": pyproject, "tox.ini": tox})
    (root / ".venv").symlink_to(environment("no-mypy"))
    ws = Workspace(root, log_dir=tmp_path / "logs")
    project = project_of(ws, root / "app" / "main.py")
    assert project is not None
    assert project.why.startswith(f"mypy and {named}: pyproject.toml [tool.mypy] and ")
