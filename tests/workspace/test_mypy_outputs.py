"""A project's mypy configuration naming reports, a JUnit file, a cache directory or stub
installs: lspd's copy of it leaves them out, so lspd's mypy and dmypy write nothing beyond
lspd's own cache and answer as the project's own mypy does. On a real mypy, against the
project's own run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lspd.dirs import state_dir
from lspd.engine.mypy_check import MypyRun, project_of, run_mypy
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.mypy_outputs import without_outputs
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project

INI = (
    "[mypy]\n"
    "strict = True\n"
    "html_report = /tmp/x\n"
    "JUnit-XML = ../out.xml\n"
    "cache_dir =\n"
    "    /tmp/cache\n"
    "install_types = True\n"
    "\n"
    "[mypy-app.*]\n"
    "txt_report: r\n"
    "\n"
    "[tool:pytest]\n"
    "junit_xml = kept.xml\n"
)
TOML = (
    "[tool.mypy]\n"
    "strict = true\n"
    '"xml_report" = "/tmp/x"\n'
    "junit-format = 'per_file'\n"
    'any_exprs_report = """\n'
    '/tmp/y"""\n'
    "\n"
    "[[tool.mypy.overrides]]\n"
    'module = "app"\n'
    'linecount_report = "r"\n'
    "\n"
    "[tool.other]\n"
    'html_report = "kept"\n'
)


def test_ini_options_that_write_are_emptied_in_mypy_sections_alone() -> None:
    assert without_outputs("setup.cfg", INI) == (
        "[mypy]\nstrict = True\n\n\n\n\n\n\n[mypy-app.*]\n\n\n[tool:pytest]\njunit_xml = kept.xml\n"
    )


def test_toml_options_that_write_are_emptied_in_mypy_tables_alone() -> None:
    assert without_outputs("pyproject.toml", TOML) == (
        "[tool.mypy]\nstrict = true\n\n\n\n\n\n"
        '[[tool.mypy.overrides]]\nmodule = "app"\n\n\n'
        '[tool.other]\nhtml_report = "kept"\n'
    )


def test_an_option_a_line_cannot_hold_is_refused() -> None:
    text = '[tool]\nmypy = { strict = true, junit_xml = "/tmp/out.xml" }\n'
    with pytest.raises(InvalidInput) as refused:
        without_outputs("pyproject.toml", text)
    assert str(refused.value) == (
        "pyproject.toml: lspd cannot leave mypy's 'junit_xml' out of its copy of the "
        "configuration (mypy writes or installs by it): write junit_xml as a plain key of "
        "its mypy section"
    )


Error = tuple[Path, int, int, str | None, str]
REPORTS = ("linecount.txt", "lineprecision.txt", "any-exprs.txt", "out.xml", "index.txt")
IGNORED = "unused: int = 1  # type: ignore[assignment]\n"  # an unused ignore: mypy run once


def written(directory: Path) -> set[Path]:
    """Every file and directory under `directory`."""
    return {Path(top) / name for top, dirs, files in os.walk(directory) for name in dirs + files}


@pytest.mark.parametrize("extra", ["", IGNORED], ids=["dmypy", "mypy-once"])
def test_reports_are_written_by_the_projects_mypy_alone(
    tmp_path: Path, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy.ini names reports at an absolute path, at `..` (leaving the copy) and inside
    the project: lspd's check, and its check of a preview's text, write none of them (mypy
    2.4.1 run once wrote abs/linecount.txt beside the project and out.xml into lspd's state
    directory; dmypy restarted at every run, "configuration changed", and gave no answer);
    the project's own mypy writes them all, and its errors are lspd's. Nor does the
    user's MYPY_CACHE_DIR take mypy's cache out of lspd's state directory."""
    monkeypatch.setenv("MYPY_CACHE_DIR", str(tmp_path / "env-cache"))
    outside = tmp_path / "abs"
    config = (
        f"[mypy]\nfiles = app\nwarn_unused_ignores = True\nlinecount_report = {outside}\n"
        "junit_xml = ../out.xml\nlineprecision_report = ../precision\n"
        "any_exprs_report = inside\ncache_dir = ../cache\n"
    )
    root = project(
        tmp_path / "repo",
        {
            "mypy.ini": config,
            "app/__init__.py": "",
            "app/main.py": f'count: int = "three"\n{extra}',
        },
    )
    before = written(tmp_path)
    main = root / "app/main.py"

    async def ask(ws: Workspace) -> tuple[MypyRun, MypyRun]:
        judged = project_of(ws, main)
        assert judged is not None
        disk = await run_mypy(ws, judged)
        held = await run_mypy(ws, judged, {main: f"count: str = 3\n{extra}"})
        return disk, held

    disk, held = answer(root, ask)
    assert disk.once == held.once == bool(extra)
    new = written(tmp_path) - before
    assert {p for p in new if tmp_path / "logs" not in [p, *p.parents]} == set()
    state = written(state_dir(root))
    assert [p for p in state if p.name in REPORTS or p.name in ("precision", "inside")] == []

    def errors(run: MypyRun) -> set[Error]:
        return {
            (e.path.relative_to(root), e.line, e.column, e.code, e.message)
            for errors in run.errors.values()
            for e in errors
        }

    expected = {(Path(f), *rest) for f, *rest in cli_errors(root)}
    assert errors(disk) == expected
    assert {(p.name, line, code) for p, line, _, code, _ in expected} == {
        ("main.py", 1, "assignment"),
        *([("main.py", 2, "unused-ignore")] if extra else []),
    }
    assert {(p.name, line, code) for p, line, _, code, _ in errors(held)} == {
        ("main.py", 1, "assignment"),
        *([("main.py", 2, "unused-ignore")] if extra else []),
    }
    # The project's own run writes them: the configuration is mypy's.
    assert (outside / "linecount.txt").is_file() and (tmp_path / "out.xml").is_file()
    assert (tmp_path / "precision/lineprecision.txt").is_file()
    assert (root / "inside/any-exprs.txt").is_file()
