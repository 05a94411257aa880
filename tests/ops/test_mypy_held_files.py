"""A held state's files are mypy's files in that state, and mypy's answer with a syntax error
is an answer: on a real mypy, a project without `files` (httpx's: its CI runs `mypy app
tests`), against the project's own mypy run on the state written to disk. A file deleted,
added or renamed by a preview is gone from, or added to, what mypy checks (its importers'
errors are found, the new file is checked); a syntax error is mypy's error (exit 2, "errors
prevented further checking"), introduced, never a failure of the check. mypy 1.x prints
that error as text even with `-O json`; 2.x as JSON."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, environment, mypy_env, project

TARGETS = ("app", "tests")  # its CI's `mypy app tests`: no `files` in its configuration
FILES = {
    "pyproject.toml": "[tool.mypy]\nstrict = true\n",
    "app/__init__.py": "",
    "app/utils.py": (
        'def to_bytes(value: str, encoding: str = "utf-8") -> bytes:\n'
        "    return value.encode(encoding)\n"
    ),
    "app/mock.py": "class Mock:\n    def handle(self) -> int:\n        return 1\n",
    # the baseline's errors, elsewhere; an unused ignore, as httpx's (its mypy runs once)
    "app/main.py": 'wrong: int = ""\nright: int = 1  # type: ignore[assignment]\n',
    "tests/__init__.py": "",
    "tests/test_mock.py": (
        "from app import mock\n\n\ndef test_it() -> None:\n    assert mock.Mock().handle() == 1\n"
    ),
}
EXTRA = (
    "from .utils import to_bytes\n\n\ndef twice(value: str) -> bytes:\n"
    "    return to_bytes(value, 3)\n"
)
BROKEN = "\n\ndef broken(:\n    pass\n"

Shown = tuple[str, int, str | None]


def truth(root: Path, tmp_path: Path, changes: dict[str, str | None]) -> set[Shown]:
    """The project's own mypy's errors (`mypy app tests`) in the state `changes` make,
    written to a copy of the project."""
    copy = tmp_path / f"truth-{len(list(tmp_path.glob('truth-*')))}"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for name, text in changes.items():
        if text is None:
            (copy / name).unlink()
        else:
            (copy / name).write_text(text)
    return {(file, line, code) for file, line, _, code, _ in cli_errors(copy, *TARGETS)}


def mypy_stopped(root: Path, *targets: str) -> list[int]:
    """The project's own mypy on the state on disk (`targets`, else its configuration's
    `files`), asserted stopped at a blocking error (exit 2, "errors prevented further
    checking"): the lines of the syntax errors it said, in its order."""
    blocked = subprocess.run(
        [str(root / ".venv/bin/mypy"), "--cache-dir", "/dev/null", *targets],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = blocked.stdout
    assert blocked.returncode == 2 and "errors prevented further checking" in said, said
    return [int(line.split(":")[1]) for line in said.splitlines() if "[syntax]" in line]


def introduced(previewed: Any) -> set[Shown]:
    return {(d.path, d.line, d.code) for d in previewed.changes.introduced}


def test_a_deleted_module_breaks_its_importers(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    gone = {"app/mock.py": None}
    previewed = answer(root, lambda ws: preview(ws, [{"path": "app/mock.py", "content": None}]))
    expected = truth(root, tmp_path, gone) - truth(root, tmp_path, {})
    assert expected == {("tests/test_mock.py", 1, "attr-defined")}
    assert introduced(previewed) == expected
    assert previewed.changes.scope == (  # mypy ran the whole project: said so, alone
        "1 changed file(s) and 5 other file(s): 5 in mypy's run of their whole project "
        "(every file of it, whatever changed); the others keep the disk's diagnostics "
        "(`lspd check` checks everything)"
    )


def test_a_new_file_is_checked_by_preview_and_diagnostics(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    test_extra = "from app.extra import twice\n\nvalue: str = twice('x')\n"
    added = [
        {"path": "app/extra.py", "content": EXTRA},
        {"path": "tests/test_extra.py", "content": test_extra},
    ]

    async def ask(ws: Workspace) -> tuple[Any, Any]:
        alone = await diagnostics(ws, "app/extra.py", content=EXTRA)
        return alone, await preview(ws, added)

    alone, previewed = answer(root, ask)
    expected = truth(root, tmp_path, {c["path"]: c["content"] for c in added})
    expected -= truth(root, tmp_path, {})
    assert expected == {("app/extra.py", 5, "arg-type"), ("tests/test_extra.py", 3, "assignment")}
    assert introduced(previewed) == expected
    assert [(d.line, d.code) for d in alone.diagnostics] == [(5, "arg-type")]
    assert alone.checker is not None and "outside" not in alone.checker  # mypy checked it


def test_a_renamed_module_is_checked_under_its_new_name(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    text = FILES["app/mock.py"]
    moved = {"app/mock.py": None, "app/mock2.py": text}
    changes: list[dict[str, str | None]] = [{"path": p, "content": t} for p, t in moved.items()]
    previewed = answer(root, lambda ws: preview(ws, changes))
    expected = truth(root, tmp_path, moved) - truth(root, tmp_path, {})
    assert expected == {("tests/test_mock.py", 1, "attr-defined")}
    assert introduced(previewed) == expected


def mypy_113() -> Path:
    """mypy 1.13 (httpx 0.28.1's): it prints a syntax error as text even with `-O json`."""
    return environment("mypy-1.13.0", "mypy==1.13.0")


@pytest.mark.parametrize("env", [mypy_env, mypy_113], ids=["mypy-2.4", "mypy-1.13"])
def test_a_syntax_error_is_mypys_answer_not_a_failure(tmp_path: Path, env: Any) -> None:
    root = committed(project(tmp_path / "p", FILES, env()))
    test_mock = root / "tests/test_mock.py"
    text = test_mock.read_text() + BROKEN
    test_mock.write_text(text)
    lines = set(mypy_stopped(root, *TARGETS))
    test_mock.write_text(FILES["tests/test_mock.py"])

    async def ask(ws: Workspace) -> tuple[Any, Any, Any, Any]:
        previewed = await preview(ws, [{"path": "tests/test_mock.py", "content": text}])
        test_mock.write_text(text)
        since = await workspace_diagnostics(ws, baseline="HEAD")
        one = await diagnostics(ws, "tests/test_mock.py")
        return previewed, since, one, await diagnostics(ws, "app/main.py")

    previewed, since, one, other = answer(root, ask)
    syntax = {("tests/test_mock.py", line, "syntax") for line in lines}
    assert introduced(previewed) == syntax
    assert introduced(since) == syntax
    # mypy stopped there and checked nothing else: the baseline's errors of app/main.py are
    # not fixed (they were "fixed" before), they are said not checked, and where it stopped.
    baseline = truth(root, tmp_path, {"tests/test_mock.py": FILES["tests/test_mock.py"]})
    assert {file for file, _, _ in baseline} == {"app/main.py"}
    for changes in (previewed.changes, since.changes):
        assert changes.fixed == [] and changes.fixed_total == 0
        [stopped] = changes.stopped
        assert stopped.checker == "mypy"
        assert stopped.at == [f"tests/test_mock.py:{line}" for line in sorted(lines)]
        assert (stopped.files, stopped.not_checked) == (["app/main.py"], len(baseline))
    # Another file's diagnostics: none said, and why (never a clean file).
    assert other.diagnostics == [] and other.checker.endswith(
        f"; mypy stopped at the error at tests/test_mock.py:{min(lines)} (errors prevented "
        "further checking) and did not check this file"
    )
    assert {(d.line, d.code) for d in one.diagnostics} == {(line, "syntax") for line in lines}
