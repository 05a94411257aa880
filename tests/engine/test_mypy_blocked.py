"""Whether dmypy's answer stopped at a blocking error (`engine/mypy_blocked.py`), against
the project's own mypy run on the same texts (exit 2, "errors prevented further
checking"). dmypy's update that meets a blocker answers status 1 with that file's errors
alone, so only what the errors say can tell the stop."""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lspd.engine.mypy_blocked import blocked, parses_in
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.daemon.test_feedback_stopped import mypy_exit
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import BROKEN, mypy_113
from tests.workspace.mypy_env import MYPY_PINNED, cli_errors, environment, mypy_env, project

PYTHON = Path(sys.executable)
FILES = {
    "app/__init__.py": "",
    "app/main.py": "from app.helpers import helper\n\n\ndef run() -> int:\n    return helper()\n",
    "app/helpers.py": 'def helper() -> int:\n    return 1\n\n\nwrong: int = ""\n',
}
# A loop taken away around its `break`: Python's parser takes it, mypy's semantic
# analysis blocks at it. `match` where the target is 3.9: mypy 1.x parses for the
# target's version (CPython's feature check), lspd's parser takes it.
BREAK = "\n\ndef more() -> None:\n    print(1)\n    break\n"
MATCH = (
    "\n\ndef more(x: int) -> int:\n    match x:\n        case 1:\n            return 1\n"
    "    return 0\n"
)
CASES: dict[str, tuple[Callable[[], Path], str, str, str | None]] = {
    "syntax-2.4": (mypy_env, "", BROKEN, None),  # None: a syntax error Python's parser rejects
    "syntax-1.13": (mypy_113, "", BROKEN, None),  # (its blocking error printed as text)
    "break-2.4": (mypy_env, "", BREAK, '"break" outside loop'),
    "break-1.13": (mypy_113, "", BREAK, '"break" outside loop'),
    "match-1.13": (
        mypy_113,
        'python_version = "3.9"\n',
        MATCH,
        "Pattern matching is only supported in Python 3.10 and greater",
    ),
}


def own_stop(root: Path) -> list[str]:
    """The project's own mypy on the disk's state, asserted stopped at a blocking error:
    the errors it said (a semantic analysis' blocker: those of the modules it analysed
    before too)."""
    status, said = mypy_exit(root)
    assert status == 2 and "errors prevented further checking" in said
    return [line for line in said.splitlines() if ": error: " in line]


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_dmypy_s_blocked_update_is_a_stop(tmp_path: Path, case: str) -> None:
    """No unused ignore: dmypy answers. Its update blocked answers status 1 with that
    file's errors alone (mypy's own run: exit 2), so a stop not seen read as the only
    errors in a plain check and listed app/helpers.py's error fixed in a preview (a `break`
    or a `match` for 3.9 did until the rule read more than Python's parser)."""
    env, target, added, said = CASES[case]
    config = f'[tool.mypy]\nfiles = ["app/main.py"]\nstrict = true\n{target}'
    root = committed(project(tmp_path / "p", {"pyproject.toml": config, **FILES}, env()))
    main = root / "app/main.py"
    broken = FILES["app/main.py"] + added
    main.write_text(broken)
    errors = [e for e in own_stop(root) if e.startswith("app/main.py:")]
    messages = [e.split(": error: ")[1] for e in errors]
    if said is None:
        assert messages and all(m.endswith("  [syntax]") for m in messages)
    else:
        assert [m.split("  [")[0] for m in messages] == [said]
    at = [f"app/main.py:{line}" for line in sorted({int(e.split(":")[1]) for e in errors})]
    main.write_text(FILES["app/main.py"])
    changes = [
        {"path": "app/main.py", "content": broken},
        {"path": "app/helpers.py", "content": FILES["app/helpers.py"] + "# touched\n"},
    ]

    async def ask(ws: Workspace) -> tuple[Any, Any, Any, list[bool]]:
        clean = await workspace_diagnostics(ws)  # dmypy's first build: the disk's
        previewed = await preview(ws, changes)  # its update: the proposal, blocked
        once = [daemon.once for daemon in ws.pool.mypy.values()]
        main.write_text(broken)
        return clean, previewed, await workspace_diagnostics(ws), once

    clean, previewed, check, once = answer(root, ask)
    assert clean.stopped == [] and once == [False]  # dmypy answered, not mypy run once
    changes_ = previewed.changes
    assert (changes_.fixed, changes_.fixed_total) == ([], 0)
    [stopped] = changes_.stopped
    assert stopped.at == at
    assert (stopped.files, stopped.not_checked) == (["app/helpers.py"], 1)
    [stop] = check.stopped
    assert stop.startswith(f"mypy stopped at {', '.join(at)} (errors prevented further checking)")


@dataclass(frozen=True)
class Said:
    """A mypy error as the rule reads it."""

    code: str | None
    message: str


def test_a_syntax_error_of_a_text_that_parses_is_no_blocker(tmp_path: Path) -> None:
    """mypy 2.4.1's own run exits 1 at these (tried on its CLI): each is reported and the
    check goes on."""
    text = b"x = 1  # type: ignore[\n"
    path = tmp_path / "a.py"
    for said in [
        Said("syntax", 'Invalid "type: ignore" comment'),
        Said("syntax", 'Syntax error in type comment "int int"'),
        Said("syntax", "Exception groups: requires Python 3.11 or newer (current target: 3.10)"),
        Said(None, '"return" outside function'),
    ]:
        assert not asyncio.run(blocked({path: [said]}, {"a.py": text}, tmp_path, PYTHON)), said
    broken = {path: [Said("syntax", "Invalid syntax")]}
    assert asyncio.run(blocked(broken, {"a.py": b"def (:\n"}, tmp_path, PYTHON))


def python_312() -> str | None:
    """A Python 3.12 beside lspd's (on PATH, or pyenv's), or None."""
    found = [
        shutil.which("python3.12"),
        *glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")),
    ]
    for python in filter(None, found):
        done = subprocess.run(
            [python, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode == 0 and done.stdout.strip() == "(3, 12)":
            return python
    return None


PEP_695 = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\npython_version = "3.11"\n',
    "app/__init__.py": "",
    "app/main.py": "def first[T](items: list[T]) -> T:\n    return items[0]\n",
    "app/helpers.py": FILES["app/helpers.py"],
}


def test_what_the_project_s_python_parses_is_no_stop(tmp_path: Path) -> None:
    """A project on Python 3.12 targeting 3.11 writes PEP 695: its mypy reports that it
    requires 3.12 (a syntax error, not blocking: exit 1, every other error said). lspd's
    Python 3.11 refuses the text, so the answer read as stopped and hid the rest; the
    project's own parser is asked now."""
    base = python_312()
    if base is None:
        pytest.skip("no Python 3.12 to run the project's mypy on")
    env = environment(f"mypy-{MYPY_PINNED}-py3.12", f"mypy=={MYPY_PINNED}", base=base)
    root = committed(project(tmp_path / "p", PEP_695, env))
    own = sorted(cli_errors(root))
    assert [(f, line, code) for f, line, _, code, _ in own] == [
        ("app/helpers.py", 5, "assignment"),
        ("app/main.py", 1, "syntax"),
    ]
    checked = answer(root, check_all)
    assert checked.stopped == []
    said = [
        (r.path, d.line, d.column, d.code, d.message)
        for r in checked.results
        for d in r.diagnostics
    ]
    assert sorted(said) == own


def test_a_semantic_stop_is_at_its_blocker_not_at_the_errors_before_it(tmp_path: Path) -> None:
    """mypy's own run stopped at a `break` outside a loop says app/helpers.py's type error
    too (analysed before it); the stop is at the `break` alone: the check said 'mypy
    stopped at app/helpers.py:5, app/main.py:10', a type error named where it stopped."""
    config = '[tool.mypy]\nfiles = ["app/main.py"]\nstrict = true\n'
    files = {"pyproject.toml": config, **FILES, "app/main.py": FILES["app/main.py"] + BREAK}
    root = committed(project(tmp_path / "p", files))
    said = own_stop(root)
    assert [e.split(": error: ")[0] for e in said] == ["app/helpers.py:5", "app/main.py:10"]
    checked = answer(root, check_all)  # dmypy's first build: exit 2
    [stop] = checked.stopped
    assert stop.at == (("app/main.py", 10),)


def test_the_project_s_parser_is_asked_once_per_text(tmp_path: Path) -> None:
    """A standing syntax error mypy does not stop at (an invalid `# type: ignore`) is in
    every answer: the interpreter is started for its text once, not at each answer."""
    started = tmp_path / "started"
    interpreter = tmp_path / "python"
    interpreter.write_text(f'#!/bin/sh\necho >> {started}\nexec {sys.executable} "$@"\n')
    interpreter.chmod(0o755)
    ignore, refused = b"x = 1  # type: ignore[\n", b"def first[T](x: T) -> T: ...\n"

    async def ask() -> list[bool]:
        return [await parses_in(interpreter, text) for text in (ignore, refused, ignore)]

    assert asyncio.run(ask()) == [True, False, True]  # lspd's Python: 3.11
    assert started.read_text().count("\n") == 2
