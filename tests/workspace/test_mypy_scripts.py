"""A mypy project whose configuration names no `files` and no pre-commit hook is gated on the
paths its own lint script runs mypy on (`workspace/mypy_scripts.py`): fastapi 0.115's
`scripts/lint.sh` runs `mypy fastapi`, where `mypy .` stops at "Duplicate module named"
among its docs' examples and lspd said only "mypy failed". Its errors are the pinned mypy's
run on those paths; the ways scripts say it (a variable, a Makefile recipe, a tox command,
options and their values) each read."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.errors import InvalidInput, ServerError
from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_scripts import (
    ScriptMypy,
    script_configured,
    script_runs,
    script_targets,
)
from tests.conftest import answer
from tests.ops.test_mypy_held_files import mypy_113
from tests.workspace.mypy_env import cli_errors, mypy_ran, project

ERROR = 'count: int = "three"\n'
FASTAPI = {
    "pyproject.toml": "[tool.mypy]\nstrict = true\n",
    "scripts/lint.sh": "#!/usr/bin/env bash\n\nset -e\n\nmypy app\nruff check app docs_src\n",
    "app/__init__.py": "",
    "app/main.py": ERROR,
    "docs_src/first/tutorial001.py": ERROR,
    "docs_src/second/tutorial001.py": ERROR,
}


def test_the_gate_is_what_the_lint_script_runs_mypy_on(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FASTAPI)
    whole = mypy_ran(root, ".", exits=(2,))  # mypy . stops before checking anything
    assert 'Duplicate module named \\"tutorial001\\"' in whole.stdout  # JSON's quotes
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "app"))
    assert truth == [("app/main.py", 1, "assignment")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth
    [scope] = checked.scope
    assert (scope.files, scope.note) == (2, "no `files`: what scripts/lint.sh runs mypy on: app")

    (root / "scripts/lint.sh").unlink()  # without it, `mypy .`: its stop said, and what to do
    with pytest.raises(InvalidInput, match=r"at docs_src/\w+/tutorial001.py: Duplicate module"):
        answer(root, workspace_diagnostics)


def test_the_gate_is_what_hatchs_types_script_runs_mypy_on(tmp_path: Path) -> None:
    """hatch's own gate (`hatch run types:check`: its hatch.toml's `mypy ... {args:DEFAULT}`)
    beside two release scripts of one name: lspd gave mypy every file and refused."""
    files = {k: v for k, v in FASTAPI.items() if k != "scripts/lint.sh"}
    script = 'check = "mypy --install-types --non-interactive {args:app}"'
    root = project(tmp_path / "p", {**files, "hatch.toml": f"[envs.types.scripts]\n{script}\n"})
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == [
        ("app/main.py", 1, "assignment")
    ]
    [scope] = checked.scope
    assert (scope.files, scope.note) == (2, "no `files`: what hatch.toml runs mypy on: app")


def test_mypy_1_s_stop_without_a_line_is_said_by_its_first_error(tmp_path: Path) -> None:
    """mypy 1.13 through dmypy says the duplicate as text with no line: lspd said "mypy
    failed in ...: Found 1 error in 1 file (errors prevented further checking)", its last
    line, and not which file or why."""
    files = {k: v for k, v in FASTAPI.items() if k != "scripts/lint.sh"}
    root = project(tmp_path / "p", files, mypy_113())
    with pytest.raises(ServerError, match=r'tutorial001.py: error: Duplicate module named "tut'):
        answer(root, workspace_diagnostics)


STARLETTE = """\
#!/bin/sh -e

export PREFIX=""
if [ -d 'venv' ] ; then
    export PREFIX="venv/bin/"
fi
export SOURCE_FILES="app tests"

${PREFIX}ruff format --check --diff $SOURCE_FILES
${PREFIX}mypy $SOURCE_FILES
"""


APP_TESTS = ("app", "tests")
NOX = """\
import nox

SOURCE_FILES: list[str] = ["app", "tests"]


@nox.session
def lint(session: nox.Session) -> None:
    session.install("mypy")
    session.run("mypy", "--version")
    session.run("python", "-m", "mypy", *SOURCE_FILES)
"""


# structlog's: each environment's factor runs its own command
TOX = """\
[testenv]
commands =
    tests: pytest {posargs}
    mypy: mypy tests

[testenv:typing-{pyright,mypy}]
commands =
    mypy: mypy app
    pyright: pyright tests
"""

HATCH = """\
[tool.hatch.envs.types.scripts]
check = ["mypy --install-types --non-interactive {args:app tests}"]
"""
TOX_TOML = """\
[tool.tox.env.types]
commands = [["mypy", { replace = "posargs", default = ["app", "tests"], extend = true }]]
"""


WORKFLOW = """\
on: [push]
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install mypy  # not a run of it
      - name: mypy
        run: |
          python -m pip install -e .
          mypy app
"""


def test_a_workflow_step_s_mypy_is_the_gate_with_its_options(tmp_path: Path) -> None:
    """returns' gate: a workflow's `mypy --enable-error-code=unused-awaitable returns`, no
    other script: lspd checked every file, without the option (an unused Future unsaid)."""
    step = "mypy --enable-error-code=unused-awaitable app"
    files = {
        "pyproject.toml": "[tool.mypy]\nstrict = true\n",
        ".github/workflows/ci.yml": WORKFLOW.replace("mypy app", step),
        "app/__init__.py": "",
        "app/run.py": "import asyncio\n\n\nasync def go() -> None:\n"
        "    asyncio.ensure_future(asyncio.sleep(1))\n",
        "tests/test_run.py": "def test(x):\n    return x\n",  # untyped: not the gate's
    }
    root = project(tmp_path / "p", files)
    truth = cli_errors(root, "--enable-error-code=unused-awaitable", "app")
    assert [(f, line, code) for f, line, _, code, _ in truth] == [
        ("app/run.py", 5, "unused-awaitable")
    ]
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == [
        ("app/run.py", 5, "unused-awaitable")
    ]


VENV_SH = "run := 'dev/venv.sh dev/venv-cpy'\n\n"


@pytest.mark.parametrize(
    ("name", "text", "targets"),
    [
        ("scripts/check", STARLETTE, APP_TESTS),
        (
            "Makefile",
            "install:\n\tpip install mypy\n\nlint:\n\tmypy app/ tests  # types\n",
            ("app", "tests"),
        ),
        ("tox.ini", "[testenv:types]\ndeps = mypy\ncommands = mypy ./app {posargs}\n", ("app",)),
        (
            "scripts/lint.sh",
            "python -m mypy --config-file tests/mypy.ini -m tests app && x\n",
            ("tests", "app"),
        ),
        ("scripts/lint.sh", 'uv run mypy "app" > out.txt; mypy tests\n', APP_TESTS),
        ("scripts/lint", "uv run --locked --all-extras mypy app tests\n", APP_TESTS),
        ("scripts/check", "#!/bin/sh -e\nuvx mypy app\n", ("app",)),  # mangum's
        ("tox.ini", TOX, ("tests", "app")),
        # textual's: a Make variable of two words before the command
        (
            "Makefile",
            "run := poetry run\nSRC = app tests\n\ncheck:\n\t$(run) mypy ${SRC}\n",
            APP_TESTS,
        ),
        ("tox.ini", "[testenv]\ncommands = mypy {posargs:app tests}\n", APP_TESTS),
        ("tox.ini", "[testenv]\ncommands = py312,!pypy: mypy {toxinidir}/tests\n", ("tests",)),
        ("scripts/lint.sh", "mypy --version\nmypy -p nowhere\npip install 'mypy\n", None),
        ("scripts/lint.sh", "mypy --version\nmypy -p app -m tests\n", APP_TESTS),
        ("scripts/lint.sh", "echo use mypy app\ncommand -v mypy && mypy tests\n", ("tests",)),
        ("scripts/lint.py", "mypy app\n", None),  # a Python script: not read
        ("makefile", "lint:\n\tmypy app\n", ("app",)),  # aiosqlite's: GNU make reads it
        ("ci.sh", "set -ex\nif ! mypy app tests ; then\n  exit 1\nfi\n", APP_TESTS),  # outcome's
        (".github/workflows/ci.yml", WORKFLOW, ("app",)),  # dacite's: a step's `run`
        ("noxfile.py", NOX, APP_TESTS),
        # the task runners' (`task_runners`): hatch's default words, tox's default posargs
        ("pyproject.toml", HATCH, APP_TESTS),
        ("hatch.toml", '[envs.types.scripts]\ncheck = "mypy {args:app}"\n', ("app",)),
        ("pyproject.toml", TOX_TOML, APP_TESTS),
        ("pyproject.toml", '[tool.poe.tasks.types]\ncmd = "mypy tests"\n', ("tests",)),
        ("pyproject.toml", '[tool.pdm.scripts]\nlint = {cmd = ["mypy", "app"]}\n', ("app",)),
        ("justfile", 'src := "app tests"\n\ntypes:\n    @uv run mypy {{ src }}\n', APP_TESTS),
        ("justfile", 'types dirs="app tests":\n    mypy {{dirs}}\n', APP_TESTS),
        # pathspec's: a shell script running its arguments in a virtual environment
        (
            "justfile",
            f"{VENV_SH}t:\n\t{{{{run}}}} pip install -U mypy\n\t{{{{run}}}} mypy app\n",
            ("app",),
        ),
        ("Makefile", "t:\n\t.venv/bin/pip install mypy\n\tscripts/a.sh b c mypy app\n", None),
        # variables set for the command alone (its own, not the script's)
        ("scripts/lint.sh", "MYPYPATH=app A='b c' mypy app\nmypy $MYPYPATH tests\n", APP_TESTS),
        ("Makefile", "lint:\n\tMYPYPATH=app uv run env A=1 mypy tests\n", ("tests",)),
        ("scripts/lint.sh", "X=$(mypy app)\nexport Y=mypy\n$Y tests\n", ("tests",)),
        ("scripts/lint.sh", 'NOTES="a\nb"\nmypy app\n', ("app",)),  # a quote closed later
        (
            "noxfile.py",
            'import nox\n@nox.session\ndef t(session):\n    session.run("mypy", x)\n',
            None,
        ),
    ],
)
def test_the_ways_a_script_says_it(
    tmp_path: Path, name: str, text: str, targets: tuple[str, ...] | None
) -> None:
    for folder in ("app", "tests"):
        (tmp_path / folder).mkdir()
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    found = script_targets(tmp_path)
    assert (None if found is None else found[:3]) == (
        None if targets is None else (name, targets, ())
    )


@pytest.mark.parametrize(
    ("line", "options", "config"),
    [
        ("mypy --strict app", ("--strict",), None),
        ("mypy --python-version 3.9 --pretty app", ("--python-version", "3.9"), None),
        (
            "mypy app --disable-error-code=import-untyped --cache-dir .c",
            ("--disable-error-code=import-untyped",),
            None,
        ),
        (
            "mypy --no-warn-no-return --junit-xml out.xml app; mypy --strict x",
            ("--no-warn-no-return",),
            None,
        ),
        ("mypy --config-file tests/mypy.ini --no-incremental app", (), "tests/mypy.ini"),
        # the file mypy finds by itself is no other configuration (here: none, its defaults)
        ("mypy --config-file=./setup.cfg app", (), None),
        # argparse: the last given wins; what follows the command's end is another's
        ("mypy --config-file a.ini --config-file=b.ini app && x --config-file c", (), "b.ini"),
    ],
)
def test_a_scripts_options_changing_what_mypy_says_are_read(
    tmp_path: Path, line: str, options: tuple[str, ...], config: str | None
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "Makefile").write_text(f"lint:\n\t{line}\n")
    assert script_targets(tmp_path) == ScriptMypy("Makefile", ("app",), options, config)


def test_a_commands_exclude_leaves_it_the_same_run(tmp_path: Path) -> None:
    """`mypy --exclude src/gen src` beside `mypy tests`: one gate of both (tests/ dropped
    out when the exclude was compared as an option)."""
    for folder in ("src", "tests"):
        (tmp_path / folder).mkdir()
    (tmp_path / "Makefile").write_text("lint:\n\tmypy --exclude src/gen src\n\tmypy tests\n")
    found = script_targets(tmp_path)
    assert found is not None and found.paths == ("src", "tests")


def test_a_command_naming_another_configuration_is_another_run(tmp_path: Path) -> None:
    """`mypy --config-file strict.ini tests` beside `mypy app` is not the first's run."""
    for folder in ("app", "tests"):
        (tmp_path / folder).mkdir()
    (tmp_path / "Makefile").write_text("lint:\n\tmypy app\n\tmypy --config-file strict.ini tests\n")
    assert script_targets(tmp_path) == ScriptMypy("Makefile", ("app",), ())


def test_the_commands_giving_the_first_ones_options_are_its_run(tmp_path: Path) -> None:
    """`mypy docs` beside `mypy --strict app` is not checked with --strict: another run."""
    for folder in ("app", "tests", "docs"):
        (tmp_path / folder).mkdir()
    (tmp_path / "Makefile").write_text(
        "lint:\n\tmypy --strict app\n\tmypy docs\n\tmypy --strict tests\n"
    )
    assert script_targets(tmp_path) == ScriptMypy("Makefile", APP_TESTS, ("--strict",))
    docs = ScriptMypy("Makefile", ("docs",), ())
    assert script_runs(tmp_path) == [ScriptMypy("Makefile", APP_TESTS, ("--strict",)), docs]


STRICT = {
    "pyproject.toml": "[tool.mypy]\nwarn_unused_configs = true\n",
    "Makefile": "lint:\n\tmypy --strict app\n",
    "app/__init__.py": "",
    "app/main.py": "def double(x):\n    return x * 2\n",
}


def test_the_scripts_strict_is_the_gates(tmp_path: Path) -> None:
    """`mypy --strict app` fails an untyped def the configuration alone lets pass: lspd said
    it clean."""
    root = project(tmp_path / "p", STRICT)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "--strict", "app"))
    assert truth == [("app/main.py", 1, "no-untyped-def")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth
    [scope] = checked.scope
    assert scope.note == "no `files`: what Makefile runs mypy on: app (with --strict)"
    (root / "Makefile").write_text("lint:\n\tmypy app\n")  # read again: clean
    assert answer(root, workspace_diagnostics).diagnostics == []


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("mypy --python-version 3.11", ("--python-version", "3.11")),
        ("uv run mypy --strict --cache-dir .c && pytest", ("--strict",)),
        ("mypy --install-types --non-interactive", ()),
        ("mypy app", None),  # a target: `script_targets`'
        ("mypy nowhere", None),  # a target, though none the project has
        ("mypy -p app", None),
        ("mypy --version", None),
    ],
)
def test_a_command_running_mypy_as_configured_and_its_options(
    tmp_path: Path, line: str, found: tuple[str, ...] | None
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "Makefile").write_text(f"types:\n\t{line}\n")
    configured = script_configured(tmp_path)
    assert (None if configured is None else configured.options) == found


def test_a_scripts_options_over_files_are_the_gates(tmp_path: Path) -> None:
    """`files = app` and `make types: mypy --strict`: the gate is `files` checked strict;
    the command was not read (it names no path), and an untyped def was said clean."""
    files = {**STRICT, "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n'}
    files["Makefile"] = "types:\n\tmypy --strict\n"
    root = project(tmp_path / "p", files)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "--strict"))
    assert truth == [("app/main.py", 1, "no-untyped-def")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth
    assert [s.note for s in checked.scope] == ["files = app (with --strict)"]


@pytest.mark.parametrize(
    ("named", "note"),
    [("pyproject.toml", "files = app (with --strict)"), ("setup.cfg", "files = app")],
)
def test_a_script_naming_a_configuration_mypy_would_not_read_gives_no_options(
    tmp_path: Path, named: str, note: str
) -> None:
    """`mypy --config-file setup.cfg --strict` where setup.cfg has no `[mypy]`: mypy's
    defaults, not the `[tool.mypy]` lspd reads, so its options are no run lspd makes. It
    was judged by the file's name and given `--strict`."""
    files = {**STRICT, "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n', "setup.cfg": "[x]\n"}
    files["Makefile"] = f"types:\n\tmypy --config-file {named} --strict\n"
    root = project(tmp_path / "p", files)
    checked = answer(root, workspace_diagnostics)
    assert [s.note for s in checked.scope] == [note]


def test_a_noxfile_s_paths_from_its_own_and_an_abbreviated_config_are_read(
    tmp_path: Path,
) -> None:
    """jsonschema's typing session: `mypy --config pyproject.toml PACKAGE`, PACKAGE built
    from `Path(__file__).parent`, then `--warn-unused-ignores` on its typing tests. Its runs
    had not been read: mypy was given every file, and a script's error nothing checks was
    said where the typing tests' unused ignore was not."""
    noxfile = (
        "from pathlib import Path\n\nimport nox\n\nROOT = Path(__file__).parent\n"
        'PACKAGE = ROOT / "pkg"\nTYPING = PACKAGE / "typing_tests"\n\n\n@nox.session\n'
        "def typing(session):\n"
        '    session.run("mypy", "--config", ROOT / "pyproject.toml", PACKAGE)\n'
        '    session.run("mypy", "--warn-unused-ignores", TYPING)\n'
    )
    files = {
        "pyproject.toml": "[tool.mypy]\nignore_missing_imports = true\n",
        "noxfile.py": noxfile,
        "tools/helper.py": ERROR,
        "pkg/__init__.py": "",
        "pkg/typing_tests/__init__.py": "",
        "pkg/typing_tests/t.py": "count: int = 3  # type: ignore[assignment]\n",
    }
    root = project(tmp_path / "p", files)
    first = cli_errors(root, "--config-file", "pyproject.toml", "pkg")
    second = cli_errors(root, "--warn-unused-ignores", "pkg/typing_tests")
    assert (first, [(f, line, code) for f, line, _, code, _ in second]) == (
        [],
        [("pkg/typing_tests/t.py", 1, "unused-ignore")],
    )
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == [
        ("pkg/typing_tests/t.py", 1, "unused-ignore")
    ]
    [scope] = checked.scope
    note = "no `files`: what noxfile.py runs mypy on: pkg"
    note += "; mypy run again on pkg/typing_tests with --warn-unused-ignores, as the gate runs it"
    assert (scope.files, scope.note) == (3, note)
