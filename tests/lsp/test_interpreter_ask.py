"""A `python3` shim asked which interpreter it runs (lsp/interpreter_ask.py): a question
asked ahead is answered to the same question without asking the shim again; any other is
asked anew, and what nobody took is handed back to be killed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lspd.lsp import interpreter_ask

VERSION = ".".join(map(str, sys.version_info[:3]))


def make_shim(folder: Path, body: str) -> Path:
    """A shim script in `folder` noting each run's directory in `folder`/ran, then `body`."""
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "python3"
    shim.write_text(f'#!/bin/sh\necho "$PWD" >> {folder / "ran"}\n{body}\n')
    shim.chmod(0o755)
    return shim


def runs(shim: Path) -> list[str]:
    ran = shim.parent / "ran"
    return ran.read_text().splitlines() if ran.exists() else []


@pytest.fixture(autouse=True)
def nothing_left() -> object:
    yield
    for left in interpreter_ask.unclaimed():
        left.kill()
        left.communicate()


def test_a_question_asked_ahead_is_the_answer_to_the_same_question(tmp_path: Path) -> None:
    shim = make_shim(tmp_path / "shims", f'exec {sys.executable} "$@"')
    project = tmp_path / "project"
    project.mkdir()
    interpreter_ask.ahead(interpreter_ask.asked(shim, project, dict(os.environ)))
    same = interpreter_ask.asked(shim, project, dict(os.environ))
    assert interpreter_ask.answer(same, 10) == (sys.executable, VERSION)
    assert runs(shim) == [str(project)]  # asked once, ahead
    assert interpreter_ask.unclaimed() == []


def test_another_question_is_asked_anew_and_the_one_ahead_is_left(tmp_path: Path) -> None:
    shim = make_shim(tmp_path / "shims", f'exec {sys.executable} "$@"')
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    interpreter_ask.ahead(interpreter_ask.asked(shim, tmp_path / "a", dict(os.environ)))
    other_env = {**os.environ, "LSPD_ASK": "1"}
    for ask in (
        interpreter_ask.asked(shim, tmp_path / "b", dict(os.environ)),  # another directory
        interpreter_ask.asked(shim, tmp_path / "a", other_env),  # another environment
    ):
        assert interpreter_ask.answer(ask, 10) == (sys.executable, VERSION)
    [left] = interpreter_ask.unclaimed()
    left.communicate(timeout=10)
    assert left.returncode == 0
    assert sorted(runs(shim)) == sorted([str(tmp_path / d) for d in ("a", "a", "b")])
    assert interpreter_ask.unclaimed() == []


def test_a_shim_that_cannot_say_raises(tmp_path: Path) -> None:
    for body, error in (
        ("exit 3", subprocess.CalledProcessError),
        ("echo one two three", ValueError),
    ):
        shim = make_shim(tmp_path / f"shims-{error.__name__}", body)
        ask = interpreter_ask.asked(shim, tmp_path, dict(os.environ))
        interpreter_ask.ahead(ask)
        with pytest.raises(error):
            interpreter_ask.answer(ask, 10)
        assert interpreter_ask.unclaimed() == []
