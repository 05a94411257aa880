"""`lspd hook claude-code` on a mypy-gated project, against a real daemon and a real mypy:
an edit that breaks a caller is answered with mypy's error (the project's own gate, not
basedpyright's), and the stop gate blocks on it until the caller is fixed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_hook import edit, hook, said, stop
from tests.daemon.support import ThreadDaemon, thread_daemon
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, mypy_cli, project

FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/shapes.py": "def area(width: int, height: int) -> int:\n    return width * height\n",
    "app/main.py": "from app.shapes import area\n\n\ndef run() -> int:\n    return area(2, 3)\n",
}


def mypy_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> Iterator[ThreadDaemon]:
    """The mypy project of `files` committed to git, its daemon running."""
    root = committed(project(tmp_path / "p", files))
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    with thread_daemon(root, prewarm=False) as daemon:
        yield daemon


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The strict project (clean under its mypy) committed to git, its daemon running."""
    yield from mypy_served(tmp_path, monkeypatch, FILES)


def test_an_edit_gets_mypys_error_and_the_stop_gate_blocks_on_it(served: ThreadDaemon) -> None:
    root = served.daemon.root
    assert cli_errors(root) == []
    shapes = root / "app" / "shapes.py"
    shapes.write_text(shapes.read_text().replace("height: int)", "height: int, depth: int)"))
    ((path, line, column, code, message),) = cli_errors(root)  # what the project's CI says
    found = f"1 new error(s) since HEAD:\n{path}:{line}:{column}: {message} [{code}]"
    assert (path, code) == ("app/main.py", "call-arg")
    blocked_on(root, shapes, found)
    main = root / "app" / "main.py"
    main.write_text(main.read_text().replace("area(2, 3)", "area(2, 3, 4)"))
    assert said(hook("claude-code", edit(main), root)) is None
    assert said(hook("claude-code", stop(root, active=True), root)) is None


def blocked_on(root: Path, edited: Path, found: str) -> None:
    """The hook of `edited` and the stop gate block on the errors `found` says."""
    assert said(hook("claude-code", edit(edited), root)) == {
        "decision": "block",
        "reason": f"lspd: this work introduced {found}",
    }
    assert said(hook("claude-code", stop(root), root)) == {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced "
        f"{found}\nFix them, or say why they stay.",
    }


# `scripts` is no package: a top-level `scripts/types.py` is module `types`, and mypy stops
# at it before checking any file (mypy 2.4.1: "errors prevented further checking").
SCRIPTS = {
    **FILES,
    "pyproject.toml": '[tool.mypy]\nfiles = ["app", "scripts"]\nstrict = true\n',
    "scripts/run.py": "count: int = 1\n",
}


FIX = (
    "fix what mypy stopped at (its own run stops there too: errors prevented further "
    "checking; a file it names may need another name or place), then the check proves"
)


def blocked_at_mypy_s_stop(root: Path, edited: Path, at: str, message: str) -> None:
    """The hook of `edited` and the stop gate block on mypy's blocking error at `at` (its
    column 1), new since HEAD: said in mypy's words (`message`) with what to do."""
    stopped = f"mypy stopped at {at} (its blocking error: {message})"
    found = f"1 new error(s) since HEAD:\n{at}:1: {message}"
    assert said(hook("claude-code", edit(edited), root)) == {
        "decision": "block",
        "reason": f"lspd: this work introduced {found}\nlspd: {stopped}: the rest is not "
        f"checked, so what this edit introduced is not known; {FIX} it.",
    }
    assert said(hook("claude-code", stop(root), root)) == {
        "decision": "block",
        "reason": "lspd: before you finish: this session's changes introduced "
        f"{found}\n({stopped}: the rest is not checked)\nFix them, or say why they stay.",
    }


@pytest.fixture
def scripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadDaemon]:
    """The project with its non-package `scripts` committed to git, its daemon running."""
    yield from mypy_served(tmp_path, monkeypatch, SCRIPTS)


def test_a_stop_past_the_parser_is_said_in_mypys_words_not_as_a_syntax_error(
    scripts: ThreadDaemon,
) -> None:
    """mypy's blocker that is no syntax error, a `break` outside a loop: the hook and the
    stop gate say what mypy stopped at, in its words, and what to do (they said "fix the
    syntax error")."""
    root = scripts.daemon.root
    main = root / "app" / "main.py"
    main.write_text(main.read_text() + "\nbreak\n")
    [error] = mypy_cli(root, exits=(2,))
    assert (error["file"], error["line"]) == ("app/main.py", 7)
    assert error["message"] == '"break" outside loop'
    blocked_at_mypy_s_stop(root, main, "app/main.py:7", '"break" outside loop')


def test_a_file_level_stop_is_at_line_1(scripts: ThreadDaemon) -> None:
    """A file shadowing a library module: mypy's error of the whole file (no line, -1 in
    its JSON) and its stop are at line 1 (the spec's 1-based positions), not -1."""
    root = scripts.daemon.root
    shadow = root / "scripts" / "types.py"
    shadow.write_text("version = 1\n")
    [error] = mypy_cli(root, exits=(2,))
    assert (error["file"], error["line"], error["column"]) == ("scripts/types.py", -1, -1)
    message = error["message"]
    assert message == 'This file shadows library module "types"'
    blocked_at_mypy_s_stop(root, shadow, "scripts/types.py:1", message)
