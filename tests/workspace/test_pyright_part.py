"""A project both mypy and basedpyright judge is judged by basedpyright on its part alone
(`workspace/pyright_part.py`): trio's `[tool.pyright]` (strict, no `include`) is its
editors', its tox runs pyright on two type_tests folders, and its clean tree had 1,871
basedpyright errors where its gate says mypy's 5. What runs pyright there runs pyright, so
lspd's pyright answers the part (`pyright_gate`: its source "Pyright"). Real mypy,
basedpyright and pyright."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from lspd.workspace.pyright_part import pyright_part
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import STRICT, cli_errors, project

PYRIGHT = '[tool.pyright]\ntypeCheckingMode = "strict"\n'
PYRIGHT_RUN = "Pyright"  # lspd's pyright's source: the project's tox runs pyright
TOX = "[testenv:typing]\ncommands =\n    mypy\n    pyright app/typed\n"
FILES = {
    **STRICT,
    "pyproject.toml": STRICT["pyproject.toml"] + PYRIGHT,
    "tox.ini": TOX,
    "app/typed/__init__.py": "",
    "app/typed/check.py": 'value: int = "s"\n',  # both say it
    "docs/conf.py": 'project: int = "no"\n',  # neither's gate holds it
}


def _said(root: Path) -> list[tuple[str, str, int]]:
    checked = answer(root, check_all)
    return sorted((d.source or "", r.path, d.line) for r in checked.results for d in r.diagnostics)


def test_basedpyright_judges_what_the_scripts_run_pyright_on(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FILES)
    part = pyright_part(root)
    assert part is not None and part.note == "what tox.ini runs pyright on: app/typed"
    assert part.judges(root / "app/typed/check.py") and not part.judges(root / "app/main.py")
    checked = answer(root, check_all)
    [scope] = checked.scope.projects if checked.scope is not None else []
    assert scope.note == "basedpyright: what tox.ini runs pyright on: app/typed; mypy: files = app"
    assert root / "app/main.py" in scope.files and root / "docs/conf.py" not in scope.files
    mypy = sorted((f, line) for f, line, _, _, _ in cli_errors(root))
    assert ("app/typed/check.py", 1) in mypy and ("app/main.py", 8) in mypy
    assert _said(root) == sorted(
        [("mypy", f, line) for f, line in mypy] + [(PYRIGHT_RUN, "app/typed/check.py", 1)]
    )
    main = answer(root, lambda ws: diagnostics(ws, "app/main.py"))
    assert {d.source for d in main.diagnostics} == {"mypy"}
    typed = answer(root, lambda ws: diagnostics(ws, "app/typed/check.py"))
    assert {d.source for d in typed.diagnostics} == {"mypy", PYRIGHT_RUN}
    shapes = (root / "app/shapes.py").read_text().replace("def area(width", "def area(*, width")
    change = [{"path": "app/shapes.py", "content": shapes}]
    previewed = answer(root, lambda ws: preview(ws, change))
    introduced = {(d.path, d.code, d.source) for d in previewed.changes.introduced}
    assert introduced == {("app/main.py", "call-arg", "mypy")}


def test_an_include_is_basedpyrights_part_and_mypys_files_are_the_gate_too(
    tmp_path: Path,
) -> None:
    """attrs' shape: `include` names one folder, mypy's `files` more, its tox runs both
    (`pyright` bare): both are checked."""
    pyright = '[tool.pyright]\ninclude = ["app/typed"]\n'
    tox = "[testenv:typing]\ncommands =\n    mypy\n    pyright\n"
    files = {**FILES, "pyproject.toml": STRICT["pyproject.toml"] + pyright, "tox.ini": tox}
    root = project(tmp_path / "p", files)
    mypy = sorted((f, line) for f, line, _, _, _ in cli_errors(root))
    assert _said(root) == sorted(
        [("mypy", f, line) for f, line in mypy] + [(PYRIGHT_RUN, "app/typed/check.py", 1)]
    )


def test_without_an_include_or_a_script_basedpyright_judges_every_file(tmp_path: Path) -> None:
    root = project(tmp_path / "p", {**FILES, "tox.ini": ""})
    assert pyright_part(root) is None
    said = _said(root)
    assert ("basedpyright", "docs/conf.py", 1) in said  # as before: its whole reach
    assert ("basedpyright", "app/main.py", 8) in said


def test_a_baseline_keeps_basedpyrights_files_outside_mypys(tmp_path: Path) -> None:
    """tools/ is basedpyright's alone (tox runs `pyright tools`; mypy's `files` are app):
    HEAD's gate holds it too, so its error stands, neither new nor fixed, after an edit."""
    tox = "[testenv:typing]\ncommands =\n    mypy\n    pyright tools\n"
    files = {**FILES, "tox.ini": tox, "tools/run.py": 'n: int = "x"\n'}
    root = committed(project(tmp_path / "p", files))
    main = root / "app/main.py"
    main.write_text(main.read_text() + 'again: int = "four"\n')
    since = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert since is not None
    assert [(d.path, d.source) for d in since.introduced] == [("app/main.py", "mypy")]
    assert since.fixed == []
    assert (PYRIGHT_RUN, "tools/run.py", 1) in _said(root)


def test_a_configuration_nothing_runs_judges_no_file(tmp_path: Path) -> None:
    """werkzeug's shape: `[tool.pyright] include = ["src"]` for its editors, its tox
    (pyproject.toml's `[tool.tox]`) runs mypy alone: 87 pyright errors its gate never says.
    basedpyright judges no file; a CI workflow running pyright makes its include its part."""
    pyright = '[tool.pyright]\ninclude = ["app"]\n'
    tox = '[tool.tox.env.typing]\ncommands = [["mypy"]]\n'
    files = {**FILES, "pyproject.toml": STRICT["pyproject.toml"] + pyright + tox, "tox.ini": ""}
    root = project(tmp_path / "p", files)
    part = pyright_part(root)
    assert part is not None and not part.judges(root / "app/typed/check.py")
    mypy = sorted((f, line) for f, line, _, _, _ in cli_errors(root))
    assert _said(root) == sorted(("mypy", f, line) for f, line in mypy)
    checked = answer(root, check_all)
    [scope] = checked.scope.projects if checked.scope is not None else []
    assert scope.note == (
        "basedpyright: no file: the project runs mypy, no pyright checks its files (its "
        "configuration is its editors'); mypy: files = app"
    )
    workflow = root / ".github/workflows/ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("jobs:\n  typing:\n    steps:\n      - run: uv run pyright\n")
    assert (PYRIGHT_RUN, "app/typed/check.py", 1) in _said(root)
