"""ty beside mypy (`workspace/ty_config.py`): typer's lint.sh runs `mypy typer`, then `ty
check typer`; lspd judged it by mypy alone, and what ty says was never told. Real mypy (the
pinned one) and real ty (lspd's), against their CLIs run as the script runs them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_config import choose
from lspd.workspace.ty_config import gated_ty, ty_beside_mypy
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.ty_cli import TY, ty_rows

PYPROJECT = (
    '[project]\nname = "p"\nversion = "0"\n\n[tool.mypy]\nstrict = true\n\n'
    "[tool.ty.terminal]\nerror-on-warning = true\n"
)
FILES = {
    ".gitignore": ".venv\n",
    "pyproject.toml": PYPROJECT,
    "scripts/lint.sh": "#!/bin/sh -e\nmypy app tools\nty check app\n",
    "app/__init__.py": "",
    "app/main.py": 'def twice(x: int) -> int:\n    return 2 * x\n\n\ntwice("s")\n',
    # ty 1.0.0 warns of it (its gate fails: `error-on-warning`), mypy does not
    "app/opened.py": (
        "from collections.abc import Iterator\nfrom contextlib import contextmanager\n\n\n"
        "@contextmanager\ndef opened() -> Iterator[int]:\n    yield 1\n"
    ),
    "tools/__init__.py": "",
    "tools/t.py": 'count: int = "x"\n',  # mypy's alone: ty runs on app/ only
}


HOOK = (
    "repos:\n- repo: local\n  hooks:\n"
    "  - {id: ty, name: ty, entry: uv run ty check app, language: system,"
    " pass_filenames: false}\n"
)


@pytest.mark.parametrize(
    "ran",
    [{}, {"scripts/lint.sh": "#!/bin/sh -e\nmypy app tools\n", ".pre-commit-config.yaml": HOOK}],
    ids=["script", "hook"],
)
def test_ty_and_mypy_both_judge_where_both_run(tmp_path: Path, ran: dict[str, str]) -> None:
    """ty judges what runs it names (app/): a script's, or a hook's passing no file names."""
    root = project(tmp_path / "p", {**FILES, **ran})
    said = [("mypy", f, line, code) for f, line, _, code, _ in cli_errors(root, "app", "tools")]
    said += [("ty", f, line, code) for f, line, _, code, _ in ty_rows(root, "app")]
    assert sorted(said) == [
        ("mypy", "app/main.py", 5, "arg-type"),
        ("mypy", "tools/t.py", 1, "assignment"),
        ("ty", "app/main.py", 5, "invalid-argument-type"),
        ("ty", "app/opened.py", 5, "deprecated"),
    ]
    checked = answer(root, workspace_diagnostics)
    rows = [(d.source, d.path, d.line, d.code) for d in checked.diagnostics]
    assert sorted(rows) == sorted(said)
    # `error-on-warning`: ty's warning fails the gate, so it is told as an error
    assert (checked.errors, checked.warnings) == (4, 0)
    both = "pyproject.toml [tool.mypy] + pyproject.toml [tool.ty]"
    assert [s.config for s in checked.scope] == [both]


def test_ty_naming_more_than_mypy_judges_the_files_mypy_leaves_out(tmp_path: Path) -> None:
    """fastapi-cli: `mypy src tests` with `exclude = ["tests/assets/*"]`, `ty check src
    tests`; the gate was mypy's files, and ty's error in tests/assets/ was never told."""
    config = PYPROJECT.replace("strict = true\n", 'strict = true\nexclude = ["tools/assets/"]\n')
    lint = "#!/bin/sh -e\nmypy app tools\nty check app tools\n"
    assets = {"tools/assets/__init__.py": "", "tools/assets/a.py": 'size: int = "x"\n'}
    files = {**FILES, **assets, "pyproject.toml": config, "scripts/lint.sh": lint}
    root = project(tmp_path / "p", files)
    said = [("mypy", f, line, code) for f, line, _, code, _ in cli_errors(root, "app", "tools")]
    said += [("ty", f, line, code) for f, line, _, code, _ in ty_rows(root, "app", "tools")]
    assert ("ty", "tools/assets/a.py", 1, "invalid-assignment") in said
    assert ("mypy", "tools/assets/a.py", 1, "assignment") not in said
    checked = answer(root, workspace_diagnostics)
    rows = [(d.source, d.path, d.line, d.code) for d in checked.diagnostics]
    assert sorted(rows) == sorted(said)
    assert checked.scope[0].note == (
        "mypy: no `files`: what scripts/lint.sh runs mypy on: app, tools; "
        "ty: what scripts/lint.sh runs ty on: app, tools"
    )


def test_what_runs_chooses(tmp_path: Path) -> None:
    root = written(tmp_path, {**FILES, ".git/HEAD": ""})
    assert (ty_beside_mypy(root), gated_ty(root)) == (True, False)
    choice = choose(root)
    assert (choice.checkers, choice.ty_beside) == (("mypy", "basedpyright"), True)
    assert choice.reason == "pyproject.toml [tool.mypy] and pyproject.toml [tool.ty]"
    # structlog's tox runs pyright too (on a folder or two): ty is still the one beside mypy
    written(root, {"scripts/lint.sh": "#!/bin/sh -e\nmypy app\nty check app\npyright app\n"})
    assert (ty_beside_mypy(root), gated_ty(root)) == (True, False)
    assert (choose(root).checkers, choose(root).ty_beside) == (("mypy", "basedpyright"), True)
    unrun = "not run beside them: pyright (what scripts/lint.sh runs pyright on: app)"
    assert (
        choose(root).reason == f"pyproject.toml [tool.mypy] and pyproject.toml [tool.ty]; {unrun}"
    )
    written(root, {"scripts/lint.sh": "#!/bin/sh -e\nty check app\n"})
    assert (ty_beside_mypy(root), gated_ty(root)) == (False, True)


def test_mypy_without_a_configuration_beside_ty(tmp_path: Path) -> None:
    """No mypy configuration, the script running mypy and ty: mypy's defaults and ty."""
    pyproject = '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n'
    root = written(tmp_path, {**FILES, "pyproject.toml": pyproject, ".git/HEAD": ""})
    choice = choose(root)
    assert (choice.checkers, choice.ty_beside) == (("mypy", "basedpyright"), True)
    assert choice.reason == "no checker configuration: scripts/lint.sh runs mypy, and ty"


@pytest.mark.parametrize(
    ("terminal", "severity", "exit_code"), [("true", "error", 1), ("false", "warning", 0)]
)
def test_a_warning_fails_the_gate_where_ty_says_so(
    tmp_path: Path, terminal: str, severity: str, exit_code: int
) -> None:
    """ty.toml's `[terminal] error-on-warning`: ty's CLI fails on its warning, so lspd tells
    it as an error; without it, a warning, and the gate passes."""
    files = {k: v for k, v in FILES.items() if k not in ("pyproject.toml", "scripts/lint.sh")}
    files["ty.toml"] = f"[terminal]\nerror-on-warning = {terminal}\n"
    files["tox.ini"] = "[testenv:type]\ncommands = ty check app/opened.py\n"
    root = project(tmp_path / "p", files)
    gate = [str(TY), "check", "app/opened.py"]  # as its tox runs it
    done = subprocess.run(gate, cwd=root, capture_output=True, timeout=300)
    assert done.returncode == exit_code
    checked = answer(root, workspace_diagnostics)
    said = [(d.path, d.code, d.severity) for d in checked.diagnostics]
    assert said == [("app/opened.py", "deprecated", severity)]


def test_ty_beside_mypy_where_pyright_runs_too(tmp_path: Path) -> None:
    """structlog's tox runs `mypy src`, `ty check`, `pyright tests/typing` and `pyrefly
    check`: lspd ran mypy alone, and an error ty alone reports (an import mypy's
    `ignore_missing_imports` lets by) passed lspd's check while it fails the gate."""
    config = PYPROJECT.replace("strict = true\n", "strict = true\nignore_missing_imports = true\n")
    tox = "[testenv:typing]\ndeps = pyright\ncommands =\n    mypy app\n    ty check app\n"
    tox += "    pyright app/opened.py\n    pyrefly check\n"
    files = {k: v for k, v in FILES.items() if k != "scripts/lint.sh"}
    files |= {"pyproject.toml": config, "tox.ini": tox, "app/probe.py": "import not_there\n"}
    root = project(tmp_path / "p", files)
    ty_said = ty_rows(root, "app")
    assert ("app/probe.py", 1, 8, "import-not-found", "error") in ty_said
    said = [("mypy", f, line, code) for f, line, _, code, _ in cli_errors(root, "app")]
    said += [("ty", f, line, code) for f, line, _, code, _ in ty_said]
    checked = answer(root, workspace_diagnostics)
    rows = [(d.source, d.path, d.line, d.code) for d in checked.diagnostics]
    assert sorted(rows) == sorted(said)
    # pyright's and pyrefly's errors are not said: the scope says so (they were dropped in
    # silence, and a change failing them alone said to pass)
    [scope] = checked.scope or []
    assert (scope.note or "").endswith(
        "; not checked: pyrefly, pyright (what tox.ini runs pyright on: app/opened.py), which "
        "the gate runs too (lspd runs one server here: ty)"
    )


def test_pyright_run_over_its_configuration_is_the_one_beside_mypy(tmp_path: Path) -> None:
    """argon2-cffi's tox: `mypy src`, `pyright` (its `[tool.pyright]` include) and `ty check`
    over the same files. ty had answered beside mypy where the scope line named pyright;
    pyright, run over its own configuration, is the server beside mypy, as that line says,
    and the line says ty's run is not checked."""
    pyproject = (
        '[project]\nname = "p"\nversion = "0"\n\n[tool.mypy]\nstrict = true\n\n'
        '[tool.pyright]\ninclude = ["app"]\n'
    )
    tox = "[testenv:typing]\ncommands =\n    mypy app\n    pyright\n    ty check\n"
    files = {**FILES, "pyproject.toml": pyproject, "tox.ini": tox}
    del files["scripts/lint.sh"]
    root = project(tmp_path / "p", files)
    assert (ty_beside_mypy(root), gated_ty(root)) == (False, False)
    checked = answer(root, workspace_diagnostics)
    rows = sorted((d.source, d.path, d.line, d.code) for d in checked.diagnostics)
    assert rows == [
        ("Pyright", "app/main.py", 5, "reportArgumentType"),  # basedpyright says so
        ("mypy", "app/main.py", 5, "arg-type"),
    ]
    [scope] = checked.scope or []
    assert scope.config == "pyproject.toml [tool.pyright] + pyproject.toml [tool.mypy]"
    # svcs's: ty's run (and pyrefly's) is the gate's too, and not lspd's: said, not dropped
    assert (scope.note or "").endswith(
        "; not checked: ty, which the gate runs too (lspd runs one server here: pyright)"
    )
    # pyright on a folder of its own (structlog's `pyright tests/typing`): ty, as before
    written(root, {"tox.ini": tox.replace("    pyright\n", "    pyright app\n")})
    assert ty_beside_mypy(root)
