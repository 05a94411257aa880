"""A project gating on pyright (`pyright-langserver` in its .venv, no basedpyright there) is
judged by that pyright, not by lspd's basedpyright: its errors are its `pyright` CLI's, error
for error, in pyright's default mode (basedpyright's "recommended" adds rules of its own: the
untyped `echo` below). Found on mcp 1.9.0 (`uv run pyright`: 27 errors, 1 warning; lspd's
basedpyright said 117 errors, 2,196 warnings). Real pyright 1.1.414 in an environment of its
own, run without a `node` on PATH: lspd's Node is given to it (it would download one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import DiagnosticsResult
from lspd.ops.preview import preview
from lspd.ops.state import servers
from lspd.servers.registry import definitions, node_executable
from lspd.surface.table import call, operation
from lspd.workspace import Workspace
from lspd.workspace.own_server import node_last
from lspd.workspace.toolchain import Choice, adapt
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import environment

PYRIGHT = "pyright 1.1.414"
FILES = {
    "pyproject.toml": '[project]\nname = "p"\nversion = "0"\n\n[tool.pyright]\n',
    ".gitignore": ".venv\n",
    "app/__init__.py": "",
    "app/shapes.py": "def area(width: int, height: int) -> int:\n    return width * height\n",
    "app/main.py": (
        "from app.shapes import area\n"
        "\n"
        "\n"
        "def echo(x):\n"
        "    return x\n"
        "\n"
        "\n"
        'total: int = area(2, "3")\n'
        'count: int = "three"\n'
    ),
    "app/unsorted.py": "import sys\nimport os\n\nWHERE = os.sep + sys.prefix\n",
}
Row = tuple[str, int, int, str, str]  # file, line, column, rule, severity
PATH = os.environ["PATH"]  # the CLI's (the tests take node off it)


def pyright_env() -> Path:
    """An environment holding pyright 1.1.414 (made once under lspd's cache)."""
    return environment("pyright-1.1.414", "pyright==1.1.414")


def project(tmp_path: Path) -> Path:
    """The project, committed, its .venv holding pyright."""
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(pyright_env())
    return committed(root.resolve())


def diagnostic_rows(checked: WorkspaceDiagnosticsResult) -> list[Row]:
    """A workspace answer's diagnostics as the CLIs' rows are compared."""
    found = checked.diagnostics
    return sorted((d.path or "", d.line, d.column, d.code or "", d.severity) for d in found)


def cli(root: Path, pyright: Path | None = None, args: tuple[str, ...] = ()) -> list[Row]:
    """The project's own `pyright` CLI (else `pyright`, run in it, given `args`): each
    error and warning."""
    done = subprocess.run(
        [str(pyright or root / ".venv/bin/pyright"), "--outputjson", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": PATH},
    )
    said = json.loads(done.stdout)["generalDiagnostics"]
    return sorted(
        (
            str(Path(d["file"]).relative_to(root)),
            d["range"]["start"]["line"] + 1,
            d["range"]["start"]["character"] + 1,
            d["rule"],
            d["severity"],
        )
        for d in said
    )


def without_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PATH holding git only: no `node` for pyright's wrapper to find."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    git = subprocess.run(["which", "git"], capture_output=True, text=True, check=True)
    (bin_dir / "git").symlink_to(git.stdout.strip())
    monkeypatch.setenv("PATH", str(bin_dir))


def test_the_project_s_pyright_answers_as_its_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path)
    expected = cli(root)
    assert [(r[0], r[1], r[3]) for r in expected] == [
        ("app/main.py", 8, "reportArgumentType"),
        ("app/main.py", 9, "reportAssignmentType"),
    ]
    without_node(tmp_path, monkeypatch)
    for warm in warm_root(root, tmp_path / "logs"):
        checked = warm.run(workspace_diagnostics(warm.ws))
        rows = diagnostic_rows(checked)
        assert rows == expected
        labels = {r.toolchain for r in warm.run(check_all(warm.ws)).results}
        assert {label.split(", ")[-2] for label in labels if label} == {PYRIGHT}
        assert {name for name, _ in warm.ws.pool.sessions} == {"pyright"}
        written(root, {"app/shapes.py": FILES["app/shapes.py"] + "late: str = 1\n"})
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None and since.unchanged == 2
        assert [(d.path, d.line, d.code) for d in since.introduced] == [
            ("app/shapes.py", 3, "reportAssignmentType")
        ]
        narrower = "def area(width: int) -> int:\n    return width\n"
        change: list[dict[str, str | None]] = [{"path": "app/shapes.py", "content": narrower}]
        previewed = warm.run(preview(warm.ws, change)).changes
        assert [(d.path, d.line, d.code) for d in previewed.introduced] == [
            ("app/main.py", 8, "reportCallIssue")
        ]
        fixed = [(d.path, d.line, d.code) for d in previewed.fixed]
        assert fixed == [
            ("app/main.py", 8, "reportArgumentType"),
            ("app/shapes.py", 3, "reportAssignmentType"),
        ]
        written(root, {"app/shapes.py": narrower})  # the CLI agrees
        assert [(r[0], r[1], r[3]) for r in cli(root)] == [
            ("app/main.py", 8, "reportCallIssue"),
            ("app/main.py", 9, "reportAssignmentType"),
        ]


def test_its_organize_imports_command_is_offered(tmp_path: Path) -> None:
    """As basedpyright's: its code actions are quick fixes only, the command sorts."""
    root = project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs"):
        asked = {"path": "app/unsorted.py", "source": True}
        result = warm.run(call(operation("fixes"), warm.ws, asked))
        [organize] = result.fixes
        assert (organize.title, organize.kind) == ("Organize imports", "source.organizeImports")
        assert "+import os\n import sys\n-import os\n" in organize.diff


def test_restricted_mode_runs_lspd_s_basedpyright(tmp_path: Path) -> None:
    root = project(tmp_path)
    basedpyright = definitions()["basedpyright"]
    runs, toolchain = adapt(basedpyright, root, root, Choice())
    assert runs.name == "pyright" and runs.command[0] == str(root / ".venv/bin/pyright-langserver")
    assert toolchain is not None and toolchain.server_version == PYRIGHT
    runs, toolchain = adapt(basedpyright, root, root, Choice(restricted=True))
    assert runs.name == "basedpyright" and runs.command == basedpyright.command


def test_lspd_s_node_comes_last_and_only_without_one(tmp_path: Path) -> None:
    pyright = definitions()["pyright"]
    node_dir = str(Path(node_executable()).parent)
    assert node_last(pyright, str(tmp_path)) == f"{tmp_path}{os.pathsep}{node_dir}"
    assert node_last(pyright, node_dir) == node_dir
    assert node_last(definitions()["ty"], str(tmp_path)) == str(tmp_path)


def test_a_configuration_edit_is_judged_by_its_pyright_on_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diagnostics FILE --baseline HEAD` after a [tool.pyright] edit, no HEAD result kept:
    the file's HEAD state under HEAD's configuration is the project's pyright's, and the
    answer names that checker (before: "by basedpyright on a copy")."""
    root = project(tmp_path)
    before = cli(root)
    edited = FILES["pyproject.toml"] + 'reportMissingParameterType = "error"\n'
    written(root, {"pyproject.toml": edited})
    new = sorted(set(cli(root)) - set(before))
    assert [(r[0], r[1], r[3]) for r in new] == [("app/main.py", 4, "reportMissingParameterType")]
    without_node(tmp_path, monkeypatch)

    async def ask(ws: Workspace) -> DiagnosticsResult:
        return await diagnostics(ws, "app/main.py", baseline="HEAD")

    found = answer(root, ask).changes
    assert found is not None
    assert [(d.path, d.line, d.column, d.code) for d in found.introduced] == [
        (r[0], r[1], r[2], r[3]) for r in new
    ]
    assert (found.fixed, found.unchanged) == ([], 2)
    assert found.scope.endswith("configuration (pyproject.toml), by pyright on a copy")


def test_lspd_servers_says_the_project_s_pyright_found(tmp_path: Path) -> None:
    """Its row said "missing" (pyright-langserver on no PATH of lspd's) while it answered
    the project's Python: now found, its version and command the project's."""
    root = project(tmp_path)
    rows = {info.server: info for info in servers({}, root, Choice()).servers}
    pyright, basedpyright = rows["pyright"], rows["basedpyright"]
    assert (pyright.found, pyright.missing, pyright.version) == (True, None, "1.1.414")
    assert pyright.command[0] == str(root / ".venv/bin/pyright-langserver")
    assert basedpyright.selected and basedpyright.toolchain is not None
    assert basedpyright.toolchain.endswith(f"{PYRIGHT}, its own server, by pyright")
    elsewhere = {info.server: info for info in servers({}, tmp_path, Choice()).servers}
    assert elsewhere["pyright"].found == (shutil.which("pyright-langserver") is not None)
