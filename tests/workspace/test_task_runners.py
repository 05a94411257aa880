"""The commands a project's task runners run (`workspace/task_runners.py`): hatch's, poe's,
pdm's and tox's tables of pyproject.toml, hatch.toml, and a justfile's recipes."""

from __future__ import annotations

from lspd.workspace.task_runners import Commands, just_text, toml_commands

PYPROJECT = """\
[tool.hatch.envs.types.scripts]
check = "mypy --install-types {args:src/x tests}"
all = ["check", "pyright {root}/src"]

[tool.poe.tasks]
lint = "ruff check"
types = { shell = "mypy src\\npyright" }
check.sequence = ["lint", { cmd = "mypy tests" }]
docs = { script = "docs:build" }

[tool.pdm.scripts]
mypy = { cmd = ["mypy", "src dir"] }
both = { composite = ["mypy {args}", "lint"] }
serve = "uvicorn app:app {args:--reload}"

[tool.tox]
legacy_tox_ini = "[testenv]\\ncommands = mypy src"

[tool.tox.env.types]
commands_pre = [["pip", "list"]]
commands = [["mypy", { replace = "posargs", default = ["src", "tests"] }]]
"""


def test_each_runners_commands_as_a_shell_would_run_them() -> None:
    assert toml_commands(PYPROJECT, "pyproject.toml") == Commands(
        shell=[
            "mypy --install-types src/x tests",
            "check",
            "pyright ./src",
            "ruff check",
            "mypy src\npyright",
            "lint",
            "mypy tests",
            "mypy 'src dir'",
            "mypy ",
            "lint",
            "uvicorn app:app --reload",
        ],
        tox=["[testenv]\ncommands = mypy src", "pip list", "mypy src tests"],
    )


def test_hatch_toml_is_hatchs_table_without_its_prefix() -> None:
    text = '[envs.types.scripts]\ncheck = "mypy {args:src}"\n[tool.poe.tasks]\nx = "mypy"\n'
    assert toml_commands(text, "hatch.toml") == Commands(["mypy src"], [])


def test_tox_toml_is_tox_s_table_at_its_top() -> None:
    text = '[env.type]\ncommands = [["mypy", {replace = "posargs", default = ["src"]}]]\n'
    assert toml_commands(text, "tox.toml") == Commands([], ["mypy src"])


def test_what_is_no_toml_or_no_table_runs_nothing() -> None:
    assert toml_commands("[tool\nx = ", "pyproject.toml") == Commands([], [])
    assert toml_commands('tool = "x"\n[project]\nname = "x"\n', "pyproject.toml") == Commands(
        [], []
    )
    assert toml_commands('[tool.hatch]\nenvs = 1\n[tool.pdm]\nscripts = "x"\n', "x") == (
        Commands([], [])
    )


def test_a_justfile_is_a_shell_script_of_its_recipes() -> None:
    text = (
        'src := "src tests"\n'
        "export py := 'uv run'\n"
        "\n"
        "types *args:\n"
        "    @{{ py }} mypy {{src}} {{args}}\n"
        "    -pyright\n"
    )
    assert just_text(text) == "\ntypes *args:\n    uv run mypy src tests \n    pyright"


def test_a_justfile_recipes_parameters_are_their_defaults_in_its_lines_alone() -> None:
    text = (
        'src := "app"\n'
        "[private]\n"
        "@types target=\"app tests\" *args='-v' third=src +none: install\n"
        "    mypy {{target}} {{ args }} {{third}} {{none}}\n"
        "other:\n"
        "    mypy {{target}}\n"
        'set shell := ["bash", "-c"]\n'
    )
    assert just_text(text).splitlines()[2:5] == [
        "    mypy app tests -v app ",
        "other:",
        "    mypy ",
    ]
