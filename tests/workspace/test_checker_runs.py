"""Whether anything of a project runs a checker (`workspace/checker_runs.py`): the places a
project's gate runs pyright or mypy from, and the mentions that run nothing (a dependency
list, a comment, a `pyright:` key)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lspd.workspace.checker_runs import ran, run_paths, runs

PYRIGHT = ("pyright", "basedpyright")
RUN = [
    ("Makefile", "run := uv run\ntypes:\n\t$(run) basedpyright src\n"),
    ("tox.ini", "[testenv:typing]\ncommands =\n    pyright: pyright src/x\n"),
    ("noxfile.py", "import nox\n\n@nox.session\ndef t(session):\n    session.run('pyright')\n"),
    ("scripts/check", "#!/bin/sh -e\n${PREFIX}pyright $SOURCE_FILES\n"),
    ("pyproject.toml", '[tool.tox.env.typing]\ncommands = [["mypy"], ["pyright"]]\n'),
    ("package.json", '{"scripts": {"typecheck": "npm run lint && npx pyright@1.1.390"}}'),
    ("pyproject.toml", '[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ncommands = pyright\n"""\n'),
    (".pre-commit-config.yaml", "repos:\n  - repo: local\n    hooks:\n      - id: pyright\n"),
    (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: .venv/bin/pyright\n"),
    (".github/workflows/t.yaml", "steps:\n  - uses: jakebailey/pyright-action@v2\n"),
    ("pyproject.toml", '[tool.hatch.envs.types.scripts]\ncheck = "pyright {args}"\n'),
    ("hatch.toml", '[envs.lint.scripts]\ntyping = ["ruff check", "pyright"]\n'),
    ("pyproject.toml", '[tool.poe.tasks.check]\nsequence = [{cmd = "pyright src"}]\n'),
    ("pyproject.toml", '[tool.pdm.scripts]\ntypes = {shell = "pdm run pyright"}\n'),
    ("justfile", "check:\n    -basedpyright\n"),
    ("justfile", "run := 'dev/venv.sh dev/venv-cpy'\n\nt:\n\t{{run}} pyright src\n"),
    ("scripts/run-pyright", 'exec node scripts/utils/node-tooling.cjs pyright -p "$CONFIG"\n'),
    ("scripts/lint", "uv run --locked --all-extras pyright\n"),
    (".pre-commit-config.yaml", "repos:\n- hooks:\n  - {id: types, entry: npx --yes pyright}\n"),
]
NONE = [
    ("pyproject.toml", '[dependency-groups]\ntyping = ["mypy", "pyright"]\n[tool.pyright]\n'),
    (".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      # nodejs for pyright\n"),
    (".github/workflows/ci.yaml", "env:\n  pyright: 1\nsteps:\n  - run: tox -e typing\n"),
    ("tox.ini", "[testenv:typing]\ndeps = pyright\ncommands =\n    mypy src\n"),
    ("Makefile", ".PHONY: pyright lint\nlint:\n\tpip install pyright\n\techo pyright\n"),
    ("hatch.toml", '[envs.types]\ndependencies = ["pyright"]\n'),
    ("justfile", "pyright:\n    mypy src\n"),
    ("scripts/docs", "node docs/build.js --skip pyright\n"),
    ("scripts/typing", "mypy --strict pyright\n"),
]


@pytest.mark.parametrize(("name", "text"), RUN, ids=[name for name, _ in RUN])
def test_what_runs_pyright(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert runs(tmp_path, PYRIGHT)
    assert ran(tmp_path, PYRIGHT) == {"basedpyright" if "basedpyright" in text else "pyright"}


def test_what_runs_nothing(tmp_path: Path) -> None:
    for name, text in NONE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert not runs(tmp_path, PYRIGHT)
    assert runs(tmp_path, ("mypy", "dmypy"))  # tox.ini's


def test_a_repositorys_workflows_above_a_nested_project_count(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".github/workflows").mkdir(parents=True)
    (tmp_path / ".github/workflows/ci.yml").write_text("steps:\n  - run: npx pyright lib\n")
    nested = tmp_path / "lib"
    nested.mkdir()
    assert runs(nested, PYRIGHT)
    assert tmp_path / ".github/workflows/ci.yml" in run_paths(nested)


def test_a_repositorys_pre_commit_above_counts_and_nothing_above_a_repository(
    tmp_path: Path,
) -> None:
    """A monorepo's root pre-commit hook runs pyright for its packages; without a `.git`
    above, nothing above the project is read (a shared /tmp/.github holds no one's CI)."""
    (tmp_path / ".pre-commit-config.yaml").write_text("repos:\n  - hooks:\n    - id: pyright\n")
    nested = tmp_path / "pkg"
    nested.mkdir()
    assert not runs(nested, PYRIGHT)  # no repository: the project's own files alone
    assert run_paths(nested)[:3] == [
        nested / "package.json",
        nested / ".pre-commit-config.yaml",
        nested / ".github/workflows",
    ]
    assert all(nested in path.parents for path in run_paths(nested))
    (tmp_path / ".git").mkdir()
    assert runs(nested, PYRIGHT)


def test_a_pyproject_of_odd_types_runs_nothing(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('tool = "x"\n')
    assert not runs(tmp_path, PYRIGHT)
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.tox]\nx = '\xff'\n")
    assert not runs(tmp_path, PYRIGHT)


PYTEST = """\
repos:
-   repo: https://github.com/pre-commit/mirrors-mypy
    hooks:
    -   id: mypy
-   repo: https://github.com/RobertCraigie/pyright-python
    hooks:
    -   id: pyright
        # Manual because passing pyright is a work in progress.
        stages: [manual]
"""


def test_a_hook_of_the_manual_stage_alone_runs_where_the_ci_runs_that_stage(
    tmp_path: Path,
) -> None:
    """pytest's pyright hook is run by no commit and no `pre-commit run --all-files`: no
    gate of it, until a workflow runs the manual stage."""
    (tmp_path / ".pre-commit-config.yaml").write_text(PYTEST)
    assert (runs(tmp_path, PYRIGHT), runs(tmp_path, ("mypy",))) == (False, True)
    workflow = tmp_path / ".github/workflows/ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("steps:\n  - run: pre-commit run --all-files --hook-stage manual\n")
    assert runs(tmp_path, PYRIGHT)
    assert workflow in run_paths(tmp_path)


def test_a_fifo_where_a_workflow_is_runs_nothing(tmp_path: Path) -> None:
    """Reading it would block the daemon until something writes into it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".github/workflows").mkdir(parents=True)
    os.mkfifo(tmp_path / ".github/workflows/ci.yml")
    assert not runs(tmp_path, PYRIGHT)


def test_which_checkers_run_is_read_in_one_pass(tmp_path: Path) -> None:
    """pyright_gate asks for both at once: a hook running one and a workflow the other."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".pre-commit-config.yaml").write_text(
        "repos:\n- hooks:\n  - {id: t, entry: uv run basedpyright}\n"
    )
    assert ran(tmp_path, PYRIGHT) == {"basedpyright"}
    workflow = tmp_path / ".github/workflows/ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("steps:\n  - uses: jakebailey/pyright-action@v2\n")
    assert ran(tmp_path, PYRIGHT) == {"pyright", "basedpyright"}
    assert ran(tmp_path, ("mypy",)) == set()
    # a generated one (opentelemetry-python's 320 KB test.yml) is read: it runs pyright
    steps = "".join(f"  - name: test {i}\n    run: tox -e py{i}\n" for i in range(8_000))
    workflow.write_text(f"steps:\n{steps}  - run: pyright\n")
    assert workflow.stat().st_size > 300_000
    assert ran(tmp_path, CHECKERS) == {"pyright", "basedpyright"}  # (the hook's)
    workflow.write_text("# " + "x" * 4_000_001)  # too large to read: taken as running each
    assert ran(tmp_path, ("mypy",)) == {"mypy"}


CHECKERS = ("mypy", "ty", "pyright", "basedpyright")
# a step installing checkers and one running mypy, each named for them: only mypy runs
WORKFLOW_INSTALLS = """steps:
  - name: install ty and pyright
    run: pip install ty pyright
  - name: pyright
    run: |
      echo ty
      uv run --no-sync mypy src
"""
STRUCTLOG = """[testenv:typing-{pyright,ty,mypy}]
deps =
    pyright: pyright
    ty: ty
commands =
    mypy: mypy src
    ty: ty check
"""


@pytest.mark.parametrize(
    ("name", "text", "checkers"),
    [
        ("tox.ini", STRUCTLOG, {"mypy", "ty"}),  # `pyright: pyright` below `deps =`
        (
            "pyproject.toml",
            '[tool.tox.env.t]\ncommands = [["pyright", "--verifytypes", "c"]]\n',
            set(),
        ),
        ("Makefile", "typing:\n\tmypy && pyright --ignoreexternal --verifytypes click\n", {"mypy"}),
        ("Makefile", "version:\n\tuv run ty version\nv:\n\tpyright --version\n", set()),
        (".github/workflows/t.yml", "steps:\n  - run: pyright --verifytypes click\n", set()),
        (".github/workflows/t.yml", "steps:\n  - run: uv run ty check src\n", {"ty"}),
        (".github/workflows/t.yml", WORKFLOW_INSTALLS, {"mypy"}),
    ],
    ids=[
        *("tox-deps-lines", "verifytypes", "verifytypes-after-mypy", "versions", "workflow"),
        *("ty", "workflow-installs"),
    ],
)
def test_what_checks_nothing_is_no_run(
    tmp_path: Path, name: str, text: str, checkers: set[str]
) -> None:
    """click's gate runs `pyright --verifytypes click` (its public types' completeness, no
    type errors), and lspd judged it by pyright: 5 errors where its gate has 0. structlog's
    tox.ini names pyright below `deps =`, read as a command, which left out its ty."""
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert ran(tmp_path, CHECKERS) == checkers
