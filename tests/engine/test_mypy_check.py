"""A mypy project nested inside a package (pydantic's tests/typechecking: its own
configuration, below tests/__init__.py) is run by its users where its configuration is,
and mypy names its modules and resolves its imports from the directory its crawl up the
`__init__.py` files reaches (the repository): lspd's run sees what that run sees, and its
errors are that run's, in the project and in the packages above it mypy follows into. On a
real mypy, against the same mypy run as the project's users run it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import mypy_check
from lspd.engine.mypy_check import MypyRun, run_mypy
from lspd.engine.mypy_errors import parse
from lspd.engine.mypy_project import by_project, project_of
from lspd.workspace import Workspace
from lspd.workspace.mypy_said import MypyOutput
from tests.conftest import answer
from tests.ops.test_mypy_held_files import mypy_113
from tests.workspace.mypy_env import cli_errors, mypy_env, mypy_ran, project

NESTED = {
    "pkg/__init__.py": "",
    "pkg/core.py": 'def size() -> int:\n    return 1\n\n\nwrong: int = ""\n',
    "tests/__init__.py": "",
    "tests/typing/mypy.ini": "[mypy]\nstrict = True\n",
    "tests/typing/helper.py": 'LABEL = "x"\n',
    # `pkg` is found from the repository, `.` is the package tests.typing: neither from
    # the nested project alone.
    "tests/typing/check.py": (
        "from pkg.core import size\n"
        "\n"
        "from . import helper\n"
        "\n"
        "count: str = size()\n"
        "label: int = helper.LABEL\n"
    ),
}
IGNORED = "unused: int = 1  # type: ignore[assignment]\n"  # an unused ignore: mypy run once

Error = tuple[Path, int, int, str | None, str]


def users(nested: Path, root: Path) -> set[Error]:
    """`cd tests/typing && mypy .`'s errors, at their real paths."""
    found = cli_errors(root, ".", cwd=nested)
    return {((nested / file).resolve(), *rest) for file, *rest in found}  # type: ignore[misc]


def ours(run: MypyRun) -> set[Error]:
    return {
        (e.path, e.line, e.column, e.code, e.message)
        for errors in run.errors.values()
        for e in errors
    }


async def nested_run(ws: Workspace, texts: dict[Path, str | None] | None = None) -> MypyRun:
    judged = project_of(ws, ws.root / "tests/typing/check.py")
    assert judged is not None and judged.directory == ws.root / "tests/typing"
    return await run_mypy(ws, judged, texts)


@pytest.mark.parametrize(
    ("extra", "watch"),
    [("", False), (IGNORED, False), (IGNORED, True)],
    ids=["dmypy", "mypy-once", "mypy-once-forked"],  # forked: a daemon's workspace (`mypy_fork`)
)
def test_a_project_nested_in_a_package_gets_its_users_errors(
    tmp_path: Path, extra: str, watch: bool
) -> None:
    root = project(tmp_path / "repo", {**NESTED, "tests/typing/more.py": extra})
    nested = root / "tests/typing"

    async def ask(ws: Workspace) -> tuple[MypyRun, bool]:
        assert not watch or await ws.watch()
        run = await nested_run(ws)
        daemon = next(iter(ws.pool.mypy.values()))
        return run, daemon.forks.pid is not None

    run, forked = answer(root, ask)
    assert forked == watch
    expected = users(nested, root)
    assert ours(run) == expected
    assert {(path.relative_to(root).as_posix(), line) for path, line, *_ in expected} == {
        ("pkg/core.py", 5),  # followed into the package above, as mypy does
        ("tests/typing/check.py", 5),
        ("tests/typing/check.py", 6),
        *([("tests/typing/more.py", 1)] if extra else []),
    }
    assert run.once == bool(extra)  # the configuration found where the project is in the copy
    assert run.files == [nested / "check.py", nested / "helper.py", nested / "more.py"]


def test_a_package_above_the_project_is_held_and_its_edit_seen(tmp_path: Path) -> None:
    """A preview's text of a file above the nested project (the package it imports) is
    what mypy checks, and removing tests/__init__.py (mypy's module names start at the
    project then: `pkg` is not found) is seen by the same daemon: each the users' errors."""
    check = "from pkg.core import size\n\ncount: str = size()\n"
    root = project(tmp_path / "repo", {**NESTED, "tests/typing/check.py": check})
    nested = root / "tests/typing"
    core = root / "pkg/core.py"
    returns_str = 'def size() -> str:\n    return ""\n'

    async def ask(ws: Workspace) -> list[set[Error]]:
        held = await nested_run(ws, {core: returns_str})
        (root / "tests/__init__.py").unlink()
        alone = await nested_run(ws)
        return [ours(held), ours(alone)]

    held, alone = answer(root, ask)
    assert held == set()  # pkg/core.py's `wrong` is not in the held text
    assert alone == users(nested, root)
    assert {(p.name, line, code) for p, line, _, code, _ in alone} == {
        ("check.py", 1, "import-not-found")
    }


MEMBER = {
    "pyproject.toml": '[tool.mypy]\nstrict = true\nfiles = ["packages"]\n',
    # a uv workspace's member: its own pyproject.toml, for its build alone
    "packages/a/pyproject.toml": '[project]\nname = "a"\nversion = "0"\n',
    "packages/a/src/a/__init__.py": "",
    "packages/a/src/a/core.py": 'def f(x):\n    return x\n\n\ncount: int = "s"\n',
}


def test_a_member_package_without_a_checker_section_is_the_top_projects(tmp_path: Path) -> None:
    """A member package's pyproject.toml holding no checker's section configures no
    checker: mypy run at the top (`files = ["packages"]`), as its users run it, judges its
    files, and the whole check's mypy step with it (basedpyright judged them: 5 of its
    diagnostics where mypy gives 2)."""
    root = project(tmp_path / "mono", MEMBER)
    core = root / "packages/a/src/a/core.py"

    async def ask(ws: Workspace) -> tuple[MypyRun, list[Path]]:
        judged = project_of(ws, core)
        assert judged is not None and judged.directory == root
        return await run_mypy(ws, judged), [p for ps in by_project(ws, [core]).values() for p in ps]

    run, grouped = answer(root, ask)
    expected = {((root / file).resolve(), *rest) for file, *rest in cli_errors(root)}
    assert ours(run) == expected and len(expected) == 2
    assert grouped == [core]


def test_an_error_without_a_column_ends_where_it_starts(tmp_path: Path) -> None:
    """mypy 1.13's unused ignore in `-O json`: column -1, no end (httpx's _decoders.py:33)."""
    line = (
        '{"file": "a.py", "line": 33, "column": -1, "message": "Unused \\"type: ignore\\" '
        'comment", "hint": null, "code": "unused-ignore", "severity": "error"}'
    )
    (error,) = parse(MypyOutput((line,), True, 1), tmp_path)
    assert (error.line, error.column, error.end_line, error.end_column) == (33, 1, 33, 1)


# A file-level error of each mypy (no line): mypy 2.4.1's `-O json` says line -1, mypy
# 1.13 prints it as text (`path: error: ...`) beside its JSON lines.
FILE_LEVEL = {
    "shadow-2.4": (mypy_env, {"scripts/types.py": "version = 1\n"}, "This file shadows library"),
    "duplicate-1.13": (
        mypy_113,
        {"scripts/a/util.py": "one = 1\n", "scripts/b/util.py": "two = 2\n"},
        "Duplicate module named",
    ),
}


@pytest.mark.parametrize(("env", "files", "said"), FILE_LEVEL.values(), ids=FILE_LEVEL.keys())
def test_a_file_level_error_is_at_line_1_column_1(
    tmp_path: Path, env: Callable[[], Path], files: dict[str, str], said: str
) -> None:
    """mypy's error of a whole file (no line: a file shadowing a library module, two files
    of one module name) is at the file's start, 1-based as every position lspd says; it
    was at line -1 (2.4.1), or left out (1.13's text)."""
    config = '[tool.mypy]\nfiles = ["app", "scripts"]\nstrict = true\n'
    root = project(
        tmp_path / "p", {"pyproject.toml": config, "app/__init__.py": "", **files}, env()
    )
    done = mypy_ran(root, exits=(2,))  # errors prevented further checking
    lines = tuple(line for line in done.stdout.splitlines() if line.startswith(("{", "scripts")))
    [named] = [line for line in lines if said in line]
    if named.startswith("{"):
        file, line, message = (json.loads(named)[k] for k in ("file", "line", "message"))
        assert line == -1
    else:
        file, message = named.split(": error: ")
    (error,) = parse(MypyOutput(lines, True, 2), root)
    assert (error.path, error.message) == ((root / file).resolve(), message)
    assert (error.line, error.column, error.end_line, error.end_column) == (1, 1, 1, 1)


def test_a_body_edit_keeps_the_projects_files_and_an_import_edit_makes_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`files` names app/main.py: mypy follows its imports. A body's edit leaves them (the
    scope is not walked again), held for a preview too; an import's adds the module it
    reaches."""
    root = tmp_path / "w"
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\n',
        "app/__init__.py": "",
        "app/main.py": "X = 1\n",
        "app/helper.py": "Y = 2\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    walks: list[int] = []
    scopes = mypy_check.mypy_scopes

    def counted(*args: Any, **kwargs: Any) -> Any:
        walks.append(1)
        return scopes(*args, **kwargs)

    monkeypatch.setattr(mypy_check, "mypy_scopes", counted)
    ws = Workspace(root.resolve(), log_dir=tmp_path / "logs")
    main = ws.root / "app/main.py"
    [project] = by_project(ws, [main])
    assert mypy_check.project_files(ws, project)[0] == [ws.root / "app/__init__.py", main]
    main.write_text("X = 1\n\n\ndef f() -> int:\n    return 2\n")
    assert mypy_check.project_files(ws, project)[0] == [ws.root / "app/__init__.py", main]
    assert len(walks) == 1
    held = {main: "X = 1\n\n\ndef g() -> str:\n    return ''\n"}  # a preview's: the disk's scope
    assert mypy_check.project_files(ws, project, texts=held)[0] == [
        ws.root / "app/__init__.py",
        main,
    ]
    assert len(walks) == 1
    helper = ws.root / "app/helper.py"
    held = {main: "import app.helper\nX = 1\n"}
    assert mypy_check.project_files(ws, project, texts=held)[0] == [
        ws.root / "app/__init__.py",
        helper,
        main,
    ]
    assert len(walks) == 2
    main.write_text("import app.helper\nX = 1\n")
    assert mypy_check.project_files(ws, project)[0] == [ws.root / "app/__init__.py", helper, main]
    assert len(walks) == 3
