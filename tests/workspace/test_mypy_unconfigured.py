"""A Python project configuring no checker whose own scripts or pre-commit hook run mypy is
judged by mypy with its defaults, on what they run it on (`workspace/mypy_unconfigured.py`):
the `hatch new` template's `types:check`. basedpyright's defaults failed such a project
whose gate says "Success". Where something runs pyright on every file too, or nothing runs
mypy, basedpyright judges it as before; where pyright's runs name paths, both judge it."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from lspd.ops import file_diagnostics
from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from lspd.workspace.mypy_config import UNCONFIGURED, CheckerChoice, choose
from lspd.workspace.mypy_unconfigured import may_run_mypy
from lspd.workspace.scope import gate_scope
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.test_mypy_config import write
from tests.workspace.test_scope import scope_of
from tests.workspace.test_toolchain_pyright import cli, pyright_env

# `hatch new`'s pyproject.toml: no [tool.mypy], a types environment running mypy
HATCH = """\
[project]
name = "demo"
version = "0.1"

[tool.hatch.envs.types.scripts]
check = "mypy --install-types --non-interactive {args:src/demo tests}"
"""
NONE, HOOK = "no checker configuration: ", ".pre-commit-config.yaml's mypy hook"
PYRIGHT_SCRIPT = {"scripts": {"typecheck": "pyright"}}
PRECOMMIT = "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n  hooks: [{id: mypy}]\n"
BACKEND_HOOK = PRECOMMIT.replace("{id: mypy}", "{id: mypy, files: ^backend/}")
BACKEND = {"backend/mypy.ini": "[mypy]\n", "backend/svc.py": ""}
PYRIGHTS = "no mypy configuration"


@pytest.mark.parametrize(
    ("files", "checker", "reason"),
    [
        ({"pyproject.toml": HATCH}, "mypy", f"{NONE}pyproject.toml runs mypy"),
        ({".pre-commit-config.yaml": PRECOMMIT}, "mypy", f"{NONE}{HOOK} runs mypy"),
        ({"Makefile": "types:\n\tmypy src\n"}, "mypy", f"{NONE}Makefile runs mypy"),
        # something runs pyright on every file too: basedpyright's, as before
        (
            {"Makefile": "types:\n\tmypy src\n", "package.json": json.dumps(PYRIGHT_SCRIPT)},
            "basedpyright",
            "no mypy configuration",
        ),
        ({"Makefile": "test:\n\tpytest src\n"}, "basedpyright", "no mypy configuration"),
        ({"Makefile": "types:\n\tmypy nowhere\n"}, "basedpyright", "no mypy configuration"),
        # what runs mypy takes only the files of a folder below configuring its own
        ({**BACKEND, ".pre-commit-config.yaml": BACKEND_HOOK}, "basedpyright", PYRIGHTS),
        ({**BACKEND, "Makefile": "types:\n\tmypy backend/svc.py\n"}, "basedpyright", PYRIGHTS),
        (
            {
                **BACKEND,
                ".pre-commit-config.yaml": BACKEND_HOOK.replace("backend", "(src|backend)"),
            },
            "mypy",
            f"{NONE}{HOOK} runs mypy",
        ),
        (
            {**BACKEND, "Makefile": "types:\n\tmypy backend src\n"},
            "mypy",
            f"{NONE}Makefile runs mypy",
        ),
        # a regex taking more than the folder it starts with: the top's too
        (
            {
                **BACKEND,
                ".pre-commit-config.yaml": BACKEND_HOOK.replace("^backend/", "^backend/|^src/"),
            },
            "mypy",
            f"{NONE}{HOOK} runs mypy",
        ),
        (
            {**BACKEND, ".pre-commit-config.yaml": BACKEND_HOOK.replace("^backend/", "^backend/*")},
            "mypy",
            f"{NONE}{HOOK} runs mypy",
        ),
        # a configuration mypy would not find by itself: not its defaults
        ({"Makefile": "types:\n\tmypy --config-file ci/mypy.ini src\n"}, "basedpyright", PYRIGHTS),
        (
            {"Makefile": "types:\n\tmypy --config-file=./mypy.ini src\n"},
            "mypy",
            f"{NONE}Makefile runs mypy",
        ),
    ],
)
def test_what_runs_mypy_on_a_project_configuring_none_chooses_it(
    tmp_path: Path, files: dict[str, str], checker: str, reason: str
) -> None:
    write(tmp_path, {"src/demo/__init__.py": "", **files})
    assert choose(tmp_path) == CheckerChoice((checker,), reason)


def test_a_script_written_later_chooses_again(tmp_path: Path) -> None:
    write(tmp_path, {"src/demo/__init__.py": ""})
    assert choose(tmp_path).checkers == ("basedpyright",)
    write(tmp_path, {"justfile": "types:\n    mypy src\n"})
    assert choose(tmp_path).checkers == ("mypy",)
    write(tmp_path, {".github/workflows/ci.yml": "steps:\n- run: npx pyright\n"})
    assert choose(tmp_path).checkers == ("basedpyright",)


def test_a_folder_configuring_its_own_checker_that_goes_makes_the_hook_the_tops(
    tmp_path: Path,
) -> None:
    """The hook takes backend/ alone: the top is mypy's once backend/ configures no checker
    of its own (its mypy.ini removed), and basedpyright's again once it does."""
    write(
        tmp_path, {"src/demo/__init__.py": "", **BACKEND, ".pre-commit-config.yaml": BACKEND_HOOK}
    )
    assert choose(tmp_path).checkers == ("basedpyright",)
    (tmp_path / "backend" / "mypy.ini").unlink()
    assert choose(tmp_path).checkers == ("mypy",)
    write(tmp_path, {"backend/pyrightconfig.json": "{}"})
    assert choose(tmp_path).checkers == ("basedpyright",)


def test_the_hatch_template_is_judged_by_mypy_on_what_its_script_names(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": HATCH,
        "src/demo/__init__.py": (
            "import json\n\n\ndef load(text):\n    return json.loads(text)\n\n\n"
            "def size(data: dict) -> int:\n    return len(data) + len(load('{}'))\n"
        ),
        "tests/test_size.py": 'from demo import size\n\nwrong: int = size({}) + ""\n',
        "docs/example.py": 'n: int = "not the gate\'s"\n',  # no path the script names
    }
    root = project(tmp_path / "p", files)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "src/demo", "tests"))
    assert truth == [("tests/test_size.py", 3, "operator")]
    scope = scope_of(root)
    [line] = [(p.config, len(p.files), p.note) for p in scope.projects]
    assert line == (
        UNCONFIGURED,
        2,
        "no `files`: what pyproject.toml runs mypy on: src/demo, tests",
    )
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth
    assert {d.source for d in checked.diagnostics} == {"mypy"}


def test_a_hook_running_mypy_and_tox_pyright_on_a_folder_are_both_judged(
    tmp_path: Path,
) -> None:
    """pytest-asyncio's shape: mirrors-mypy's hook (its default args), no mypy
    configuration, tox's `pyright pkg/`. mypy was dropped (something runs pyright) and its
    error unsaid; now mypy's defaults judge what the hook passes it, pyright's what tox
    names, as where both are configured."""
    tox = "[testenv:pyright]\ndeps = pyright\ncommands = pyright pkg/\n"
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        ".gitignore": ".venv\n",
        ".pre-commit-config.yaml": PRECOMMIT,
        "tox.ini": tox,
        "pkg/__init__.py": "",
        "pkg/mod.py": "items = []\n",  # mypy's error alone
        "pkg/unb.py": "def probe(c: bool) -> int:\n    if c:\n        v = 1\n    return v\n",
    }
    root = committed(project(tmp_path / "p", files))
    passed = ("pkg/__init__.py", "pkg/mod.py", "pkg/unb.py")  # `git ls-files '*.py'`
    mypy = cli_errors(root, "--ignore-missing-imports", "--scripts-are-modules", *passed)
    assert [(f, line, code) for f, line, _, code, _ in mypy] == [("pkg/mod.py", 1, "var-annotated")]
    pyright = cli(root, pyright_env() / "bin/pyright", ("pkg/",))
    unbound = ("pkg/unb.py", 4, "reportPossiblyUnboundVariable")
    assert [(f, line, code) for f, line, _, code, _ in pyright] == [unbound]
    assert choose(root).checkers == ("mypy", "basedpyright")
    checked = answer(root, workspace_diagnostics)
    found = sorted((d.path, d.line, d.code) for d in checked.diagnostics)
    assert found == [("pkg/mod.py", 1, "var-annotated"), unbound]


def test_a_folder_configuring_a_checker_below_is_its_own(tmp_path: Path) -> None:
    """The top's script names backend/ and lib/ too, but each has its own configuration:
    their files are their own projects', judged once, as `project_of` finds them."""
    files = {
        "Makefile": "types:\n\tmypy app backend lib tests\n",
        "app/main.py": "x: int = 1\n",
        "backend/pyrightconfig.json": "{}",
        "backend/svc.py": "y: int = 2\n",
        "lib/mypy.ini": "[mypy]\n",
        "lib/job.py": "",
        "tests/fixture/pyproject.toml": "[tool\nnot TOML",  # a fixture: configures none
        "tests/fixture/case.py": "",
    }
    root = project(tmp_path / "p", files)
    lines = [
        (p.project.relative_to(root).as_posix(), p.config, len(p.files))
        for p in scope_of(root).projects
    ]
    assert sorted(lines) == [
        (".", UNCONFIGURED, 2),
        ("backend", "backend/pyrightconfig.json", 1),
        ("lib", "lib/mypy.ini", 1),
    ]


def test_a_hook_on_a_folder_configuring_its_own_leaves_the_top_basedpyrights(
    tmp_path: Path,
) -> None:
    """The repository's one mypy hook runs on backend/ (its own mypy.ini): app/ is no mypy
    run's, so basedpyright's defaults judge it, as they would with no hook; lspd judged it
    by mypy's defaults."""
    files = {
        **BACKEND,
        ".pre-commit-config.yaml": BACKEND_HOOK,
        "backend/svc.py": "y: int = 2\n",
        "app/main.py": "def f(x): return x\n",
    }
    root = project(tmp_path / "p", files)
    lines = [
        (p.project.relative_to(root).as_posix(), p.config, [f.name for f in p.files])
        for p in scope_of(root).projects
    ]
    assert sorted(lines) == [(".", None, ["main.py"]), ("backend", "backend/mypy.ini", ["svc.py"])]


def test_a_running_daemons_scope_follows_what_chooses_the_checker(tmp_path: Path) -> None:
    """A justfile running mypy written while the daemon runs is neither a source nor a
    configuration: the walk finds the same files. The scope is made again all the same
    (`GateScope.chose`), and a package.json script running pyright later makes it
    basedpyright's again."""
    root = project(tmp_path / "p", {"src/demo/__init__.py": "x: int = 1\n"})

    async def run() -> list[str | None]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        labels = []
        try:
            assert await ws.watch()
            labels.append((await gate_scope(ws)).projects[0].config)
            write(root, {"justfile": "types:\n    mypy src\n"})
            await ws.refresh_open_documents(catch_up=True)
            labels.append((await gate_scope(ws)).projects[0].config)
            write(root, {"package.json": json.dumps(PYRIGHT_SCRIPT)})
            await ws.refresh_open_documents(catch_up=True)
            labels.append((await gate_scope(ws)).projects[0].config)
        finally:
            await ws.close()
        return labels

    assert asyncio.run(run()) == [None, UNCONFIGURED, None]  # None: no configuration's


def test_packages_below_each_running_mypy_are_judged_by_its_defaults(tmp_path: Path) -> None:
    """markitdown's layout: no configuration anywhere, packages/ each the `hatch new`
    template's, whose `types:check` runs mypy in the package on its paths. basedpyright's
    defaults said 197 errors and 2,979 warnings there; each package with such a script is
    now judged as it is (one without stays basedpyright's), and by a file's own question
    too (`project_of`). Under a top configuring mypy, a package is the top's, as before."""
    files = {
        "packages/a/pyproject.toml": HATCH.replace("src/demo", "src/a"),
        "packages/a/src/a/__init__.py": "def double(x: int) -> int:\n    return x * 2\n",
        "packages/a/tests/test_a.py": 'from a import double\n\nwrong: int = double(1) + ""\n',
        "packages/b/pyproject.toml": '[project]\nname = "b"\nversion = "0.1"\n',
        "packages/b/src/b/__init__.py": "import os\n\nvalue = os.environ.get('X')\n",
    }
    root = project(tmp_path / "p", files)
    package = root / "packages/a"
    said = cli_errors(root, "src/a", "tests", cwd=package)
    truth = sorted((f"packages/a/{f}", line, code) for f, line, _, code, _ in said)
    assert truth == [("packages/a/tests/test_a.py", 3, "operator")]
    lines = [
        (p.project.relative_to(root).as_posix(), p.config, len(p.files))
        for p in scope_of(root).projects
    ]
    assert sorted(lines) == [
        ("packages/a", f"packages/a/{UNCONFIGURED}", 2),
        ("packages/b", None, 1),
    ]
    checked = answer(root, workspace_diagnostics)
    mypys = [d for d in checked.diagnostics if d.source == "mypy"]
    assert sorted((d.path, d.line, d.code) for d in mypys) == truth
    assert {d.path for d in checked.diagnostics if d.source != "mypy"} <= {
        "packages/b/src/b/__init__.py"
    }
    one = answer(root, lambda ws: file_diagnostics.diagnostics(ws, "packages/a/tests/test_a.py"))
    assert [(d.line, d.code, d.source) for d in one.diagnostics] == [(3, "operator", "mypy")]
    (root / "pyproject.toml").write_text("[tool.mypy]\n")  # the top's mypy reads the package
    assert [(p.project, p.config) for p in scope_of(root).projects] == [
        (root, "pyproject.toml [tool.mypy]")
    ]


def test_a_package_script_written_while_the_daemon_runs_makes_it_mypys(tmp_path: Path) -> None:
    """packages/b gets a justfile running mypy on its src, then one running pytest: its
    scope follows each (only the root and packages already mypy's were stamped: the
    package stayed basedpyright's until the daemon restarted)."""
    files = {
        "packages/b/pyproject.toml": '[project]\nname = "b"\nversion = "0.1"\n',
        "packages/b/src/b/__init__.py": "value = 1\n",
    }
    root = project(tmp_path / "p", files)
    edits = [
        {"packages/b/justfile": "types:\n    mypy src\n"},
        {"packages/b/justfile": "test:\n    pytest\n"},
    ]
    mypys = [("b", f"packages/b/{UNCONFIGURED}")]
    assert _scopes_after(root, edits) == [[("b", None)], mypys, [("b", None)]]


def _scopes_after(root: Path, edits: list[dict[str, str]]) -> list[list[tuple[str, str | None]]]:
    """A running daemon's scope (each project's folder name and configuration) at its
    start and after each of `edits` written."""

    async def run() -> list[list[tuple[str, str | None]]]:
        ws = Workspace(root, log_dir=root.parent / "logs")
        said = []
        try:
            assert await ws.watch()
            for edit in ({}, *edits):
                write(root, edit)
                await ws.refresh_open_documents(catch_up=True)
                scope = await gate_scope(ws)
                said.append([(p.project.name, p.config) for p in scope.projects])
        finally:
            await ws.close()
        return said

    return asyncio.run(run())


def test_a_package_whose_pyright_script_goes_becomes_mypys(tmp_path: Path) -> None:
    """packages/b's Makefile runs mypy and its package.json pyright: basedpyright's. Its
    package.json edited in place to run pyright no more makes it mypy's (only the folder
    and its scripts were stamped, not what runs pyright)."""
    pyright = json.dumps({"scripts": {"typecheck": "pyright"}})
    files = {
        "packages/b/pyproject.toml": '[project]\nname = "b"\nversion = "0.1"\n',
        "packages/b/src/b/__init__.py": "value = 1\n",
        "packages/b/Makefile": "types:\n\tmypy src\n",
        "packages/b/package.json": pyright,
    }
    root = project(tmp_path / "p", files)
    edits = [{"packages/b/package.json": pyright.replace("pyright", "tsc")}]
    assert _scopes_after(root, edits) == [[("b", None)], [("b", f"packages/b/{UNCONFIGURED}")]]


def test_a_fifo_where_a_pre_commit_configuration_is_says_nothing(tmp_path: Path) -> None:
    """Reading it would block the daemon until something writes into it."""
    write(tmp_path, {"src/demo/__init__.py": "", "Makefile": "types:\n\tmypy src\n"})
    os.mkfifo(tmp_path / ".pre-commit-config.yaml")
    assert may_run_mypy(tmp_path)
    (tmp_path / "Makefile").unlink()
    assert not may_run_mypy(tmp_path)
