"""A folder a `.pth` of the project's environment names outside the workspace (a sibling
checkout installed editable: ../lib/src) is read by mypy, and the watcher does not see it:
its `.py` / `.pyi` files are followed and stamped (`tool_stamps`, at most `OUTSIDE_FILES`
of them), so an edit there is a change of the environment. Before, `lspd check` kept
mypy's answer made before the edit, and `check --baseline HEAD` compared with HEAD's
result made under the old library (the error the library's edit makes read as new). Real
mypy and basedpyright, against their own runs."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from lspd.workspace import tool_stamps
from tests.conftest import answer, warm_root
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import mypy_env
from tests.workspace.test_mypy_site import CORE, REQUIRED, truth

FILES = {
    "pyproject.toml": '[tool.mypy]\nstrict = true\nfiles = ["tests/typing"]\n',
    "tests/typing/use.py": "from app.core import Box, find\n\nbox: Box = find(1)\nother = Box(2)\n",
    ".gitignore": ".venv/\n",
}
LIBRARY = {
    "src/app/__init__.py": "",
    "src/app/py.typed": "",
    "src/app/errors.py": "class Missing(Exception):\n    pass\n",
    "src/app/core.py": CORE,
}
NEW = {("tests/typing/use.py", 4, "call-arg")}


def _written(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root.resolve()


def _project(tmp_path: Path) -> tuple[Path, Path]:
    """The project at tmp/proj, its `.venv` reaching the pinned mypy and, through an
    editable install's `.pth`, the library's src/ at tmp/lib (outside the project)."""
    library = _written(tmp_path / "lib", LIBRARY)
    root = _written(tmp_path / "proj", FILES)
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    shared = Path(sysconfig.get_path("purelib", vars={"base": str(mypy_env())}))
    (site / "mypy.pth").write_text(f"{shared}\n")
    (site / "_editable_impl_app.pth").write_text(f"{library / 'src'}\n")
    return committed(root), library / "src/app/core.py"


def _said(found: WorkspaceDiagnosticsResult) -> set[tuple[str | None, int, str | None]]:
    return {(d.path, d.line, d.code) for d in found.diagnostics}


def test_an_edit_in_a_pth_folder_outside_the_workspace_is_read(tmp_path: Path) -> None:
    """Warm and watched: check right after mypy's first run, edited and back, then check
    and check --baseline HEAD before and after the library's constructor is given a
    required parameter (mypy: nothing, then use.py's call-arg, at
    HEAD's texts too: the library is no file of the commit); then a fresh workspace on
    the state directory HEAD's result was kept in."""
    root, core = _project(tmp_path)
    assert truth(root) == set()
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == set()
        core.write_text(REQUIRED)  # right after mypy's first run
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == NEW
        core.write_text(CORE)
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == set()
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 0)
        core.write_text(REQUIRED)
        assert truth(root) == NEW
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == NEW
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
    core.write_text(CORE)
    once = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert once is not None and (once.introduced, once.unchanged) == ([], 0)
    core.write_text(REQUIRED)
    once = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert once is not None
    assert (once.introduced, once.fixed, once.unchanged) == ([], [], 1)


def test_beyond_the_bound_nothing_is_followed_or_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `.pth` folder outside the workspace holding more than `OUTSIDE_FILES` files of a
    typed package: none followed, and the environment's stamp is new at each look; within
    the bound, the same until a file's edit."""
    monkeypatch.setattr(tool_stamps, "OUTSIDE_FILES", 3)
    package = _written(tmp_path / "lib/src", {"big/py.typed": "", "big/a.py": "", "big/b.py": ""})
    site = tmp_path / "env/lib/python3.11/site-packages"
    _written(site, {"big.pth": f"{package}\n", "../../../bin/python": ""})
    interpreter, root = tmp_path / "env/bin/python", _written(tmp_path / "proj", {"a.py": ""})
    stamps = tool_stamps.ToolStamps(root)
    assert [p for p, _ in stamps.outside([interpreter])] == [
        package / "big/a.py",
        package / "big/b.py",
    ]
    first = stamps.environments([], [interpreter])
    assert stamps.environments([], [interpreter]) == first
    (package / "big/a.py").write_text("x = 1\n")
    assert stamps.environments([], [interpreter]) != first
    (package / "big/c.pyi").write_text("")
    (package / "big/d.py").write_text("")
    assert stamps.outside([interpreter]) == []
    beyond = stamps.environments([], [interpreter])
    assert stamps.environments([], [interpreter]) != beyond


PYRIGHT = {
    "pyrightconfig.json": '{"include": ["app"]}\n',
    "app/__init__.py": "",
    "app/main.py": "from mylib import f\n\nx: int = f()\n",
    ".gitignore": ".venv\n",
}
MYLIB = {"src/mylib/__init__.py": "def f() -> int:\n    return 1\n", "src/mylib/py.typed": ""}


def test_basedpyright_reads_an_edit_in_a_pth_folder_outside_the_workspace(tmp_path: Path) -> None:
    """The same for basedpyright: the library's `f` made to return a str, `lspd check`
    says what its CLI says."""
    library = _written(tmp_path / "lib", MYLIB)
    root = _written(tmp_path / "p", PYRIGHT)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    (site,) = (root / ".venv").glob("lib/python*/site-packages")
    (site / "_editable_impl_mylib.pth").write_text(f"{library / 'src'}\n")
    committed(root)
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == set()
        (library / "src/mylib/__init__.py").write_text('def f() -> str:\n    return ""\n')
        expected = [(p, line, rule) for p, line, _, rule, _ in cli(root)]
        assert expected == [("app/main.py", 3, "reportAssignmentType")]
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == set(expected)


def test_a_module_added_to_a_pth_folder_outside_the_workspace_is_read(tmp_path: Path) -> None:
    """Warm and watched: tests/typing imports app.extra, which the library outside the
    workspace has not (mypy: import-not-found); the module added there, mypy says the
    assignment its function's type breaks; then the same in a fresh workspace. Before, the
    added file was followed with its stamp as first listed: no change told, so lspd check
    kept the answer made before it (the import-not-found)."""
    root, core = _project(tmp_path)
    use = root / "tests/typing/use.py"
    use.write_text("from app.extra import g\n\nx: int = g()\n")
    missing = {("tests/typing/use.py", 1, "import-not-found")}
    assert truth(root) == missing
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == missing
        (core.parent / "extra.py").write_text('def g() -> str:\n    return ""\n')
        expected = truth(root)
        assert expected == {("tests/typing/use.py", 3, "assignment")}
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == expected
        (core.parent / "extra.py").write_text("def g() -> int:\n    return 1\n")
        assert truth(root) == set()
        assert _said(warm.run(workspace_diagnostics(warm.ws))) == set()
