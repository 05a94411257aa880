"""A noxfile's commands read from its syntax tree, never run (`workspace/mypy_nox.py`): each
`.run(...)` call's words where every argument is a string or a top-level name bound to
strings, in the order they stand."""

from __future__ import annotations

from lspd.workspace.mypy_nox import nox_commands

NOXFILE = """\
import os

import nox

TYPED = ("src/urllib3", "test")
CONFIG = "mypy.ini"
LATER = os.environ.get("X", "y")


@nox.session
def lint(session: nox.Session) -> None:
    session.run("pre-commit", "run", "--all-files")
    session.run("mypy", "--config-file", CONFIG, *TYPED, "noxfile.py")
    session.run("mypy", LATER)  # not known without running it
    session.run("mypy", *[p for p in TYPED])


def typecheck(session):
    session.run("python", "-m", "mypy", "dummyserver")

    def inner(session):
        args = ["inner"]
        session.run(*args)

    args = session.posargs or TYPED
    session.run("mypy", *args)
    session.run("pyright", *session.posargs, "src")
"""


def test_each_run_call_s_words_as_the_file_says_them() -> None:
    assert nox_commands(NOXFILE) == [
        ["pre-commit", "run", "--all-files"],
        ["mypy", "--config-file", "mypy.ini", "src/urllib3", "test", "noxfile.py"],
        ["python", "-m", "mypy", "dummyserver"],
        ["inner"],
        ["mypy", "src/urllib3", "test"],
        ["pyright", "src"],  # referencing's: its arguments given, none here
    ]


def test_a_noxfile_that_is_not_python_has_none() -> None:
    assert nox_commands("def lint(session:\n") == []


def test_a_path_built_from_the_noxfile_s_own_is_its_path_from_there() -> None:
    """jsonschema's typing session: `ROOT = Path(__file__).parent`, `PACKAGE = ROOT /
    "jsonschema"`; its runs had not been read at all (mypy then said to check every file)."""
    text = (
        "from pathlib import Path\nimport nox\n\n"
        "ROOT = Path(__file__).resolve().parent\nPACKAGE = ROOT / 'jsonschema'\n"
        "TYPING = PACKAGE / 'tests' / 'typing'\nUP = ROOT.parent / 'other'\n\n\n"
        "@nox.session\ndef typing(session):\n"
        "    session.run('mypy', '--config', ROOT / 'pyproject.toml', PACKAGE)\n"
        "    session.run('mypy', '--warn-unused-ignores', str(TYPING))\n"
        "    session.run('mypy', UP, Path('src'))\n"
        "    session.run('mypy', PACKAGE.with_name('x'))  # not read: another method\n"
    )
    assert nox_commands(text) == [
        ["mypy", "--config", "pyproject.toml", "jsonschema"],
        ["mypy", "--warn-unused-ignores", "jsonschema/tests/typing"],
        ["mypy", "../other", "src"],
    ]
