"""The gate's pyright checks what its runs are given, in place of its configuration's
`include` (`workspace/pyright_given.py`): the files a pre-commit hook passes it
(polyfactory's local `uv run --all-groups pyright`, `exclude: tests`, where its `include`
names tests/ and not docs/: lspd said 56 errors where its gate says 2), the paths a
Makefile's `pyright pkg scripts` names. Its `exclude` still applies. Real pyright (the
project's, and pip's CLI given the same files: the truth), real mypy beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.test_toolchain_pyright import cli, pyright_env

ERROR = 'x: int = "s"\n'
FILES = {
    "pyproject.toml": '[tool.pyright]\ninclude = ["pkg", "tests"]\nexclude = ["pkg/skip"]\n',
    ".gitignore": ".venv\n",
    "pkg/__init__.py": "",
    "pkg/ok.py": ERROR,
    "pkg/skip/a.py": ERROR,  # excluded: left out though a hook passes it
    "tests/test_a.py": ERROR,
    "docs/conf.py": ERROR,
    "scripts/tool.py": ERROR,
}
HOOK = (
    "repos:\n- repo: local\n  hooks:\n  - id: pyright\n    name: pyright\n"
    "    entry: uv run --all-groups pyright\n    language: system\n    types: [python]\n"
    '    exclude: "tests"\n'
)
_NOX_POSARGS = (
    "import nox\n\n\n@nox.session\ndef typing(session):\n"
    '    session.run("pyright", *session.posargs, "pkg", "scripts")\n'
)
RUNS = {
    "hook": ({".pre-commit-config.yaml": HOOK}, ("docs/conf.py", "pkg/ok.py", "scripts/tool.py")),
    "makefile": ({"Makefile": "types:\n\tpyright pkg scripts\n"}, ("pkg/ok.py", "scripts/tool.py")),
    # referencing's nox session: its run was not read, as `*session.posargs` is no string
    "nox": ({"noxfile.py": _NOX_POSARGS}, ("pkg/ok.py", "scripts/tool.py")),
}


def _said(root: Path) -> list[tuple[str, int, str]]:
    checked = answer(root, check_all)
    return sorted((r.path, d.line, d.code or "") for r in checked.results for d in r.diagnostics)


@pytest.mark.parametrize("run", sorted(RUNS))
def test_pyright_checks_what_its_run_is_given(tmp_path: Path, run: str) -> None:
    files, given = RUNS[run]
    root = written(tmp_path / "p", {**FILES, **files})
    (root / ".venv").symlink_to(pyright_env())
    committed(root)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli(root, args=given))
    assert [f for f, _, _ in truth] == [f for f in given if f != "pkg/__init__.py"]
    assert _said(root) == truth


def test_beside_mypy_pyright_s_part_is_what_its_hook_passes(tmp_path: Path) -> None:
    """polyfactory's shape: `[tool.mypy] strict` too, a mypy hook passing every file."""
    mypy_hook = "  - id: mypy\n    entry: uv run --all-groups mypy\n    language: system\n"
    pyproject = FILES["pyproject.toml"] + "\n[tool.mypy]\nstrict = true\nexclude = ['pkg/skip']\n"
    files = {**FILES, "pyproject.toml": pyproject, ".pre-commit-config.yaml": HOOK + mypy_hook}
    root = committed(project(tmp_path / "p", files))
    passed = ("docs/conf.py", "pkg/ok.py", "scripts/tool.py")
    pyright = sorted(
        (f, line, code) for f, line, _, code, _ in cli(root, pyright_env() / "bin/pyright", passed)
    )
    every = sorted(p for p in files if p.endswith(".py"))  # the mypy hook's: excluded too
    mypy = sorted((f, line, code or "") for f, line, _, code, _ in cli_errors(root, *every))
    assert [f for f, _, _ in pyright] == list(passed)
    assert _said(root) == sorted(pyright + mypy)


UNBOUND = "def probe(c: bool) -> int:\n    if c:\n        v = 1\n    return v\n"
NOX = (
    "import nox\n\n\n@nox.session\ndef typing(session: nox.Session) -> None:\n"
    '    session.run("mypy", "src", "tests/typing")\n'
    '    session.run("pyright", "tests/typing")\n'
)
UNCONFIGURED = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
    ".gitignore": ".venv\n",
    "noxfile.py": NOX,
    "src/pkg/__init__.py": "",
    "src/pkg/bad.py": ERROR,  # pyright is not run on it
    "tests/typing/api.py": UNBOUND,
}


def test_beside_mypy_a_run_of_pyright_configuring_none_judges_with_its_defaults(
    tmp_path: Path,
) -> None:
    """stamina's shape: `[tool.mypy]`, no pyright configuration, its nox running `mypy src
    tests/typing` and `pyright tests/typing`: pyright's error there was not said."""
    pyproject = UNCONFIGURED["pyproject.toml"] + "\n[tool.mypy]\nstrict = true\n"
    root = committed(project(tmp_path / "p", {**UNCONFIGURED, "pyproject.toml": pyproject}))
    pyright = cli(root, pyright_env() / "bin/pyright", ("tests/typing",))
    assert [(f, line, code) for f, line, _, code, _ in pyright] == [
        ("tests/typing/api.py", 4, "reportPossiblyUnboundVariable")
    ]
    mypy = [
        (f, line, code or "") for f, line, _, code, _ in cli_errors(root, "src", "tests/typing")
    ]
    assert ("src/pkg/bad.py", 1, "assignment") in mypy
    assert _said(root) == sorted(
        [*mypy, ("tests/typing/api.py", 4, "reportPossiblyUnboundVariable")]
    )


def test_without_any_configuration_both_judge_what_their_runs_are_given(tmp_path: Path) -> None:
    """Every Python file was checked, by basedpyright's defaults: src/pkg/bad.py's error
    too, where the gate runs pyright on tests/typing alone. Its nox runs mypy too (`mypy
    src tests/typing`), which judged nothing: mypy's defaults judge what it names, beside
    pyright's on what its run names (`mypy_unconfigured`)."""
    root = committed(project(tmp_path / "p", UNCONFIGURED))
    pyright = cli(root, pyright_env() / "bin/pyright", ("tests/typing",))
    truth = sorted((f, line, code) for f, line, _, code, _ in pyright)
    assert truth == [("tests/typing/api.py", 4, "reportPossiblyUnboundVariable")]
    mypy = cli_errors(root, "src", "tests/typing")
    assert [(f, line, code) for f, line, _, code, _ in mypy] == [
        ("src/pkg/bad.py", 1, "assignment")
    ]
    assert _said(root) == sorted([*truth, ("src/pkg/bad.py", 1, "assignment")])


def test_a_hook_passes_pyright_no_file_git_ignores(tmp_path: Path) -> None:
    """cyclopts' shape: a hook repository's `id: pyright` passing file names, a generated
    module its .gitignore lists (`pkg/_gen.py`): pre-commit passes the tracked files alone,
    where lspd said that file's error. A run naming its folder (`pyright pkg`) walks it,
    ignored or not."""
    hook = "repos:\n- repo: https://github.com/RobertCraigie/pyright-python\n"
    hook += "  rev: v1.1.408\n  hooks:\n  - id: pyright\n"
    files = {
        "pyproject.toml": '[tool.pyright]\nvenvPath = "."\nvenv = ".venv"\n',
        ".gitignore": ".venv\npkg/_gen.py\n",
        ".pre-commit-config.yaml": hook,
        "pkg/__init__.py": "",
        "pkg/_gen.py": 'zz: int = "x"\n',
    }
    root = committed(written(tmp_path / "p", files))
    (root / ".venv").symlink_to(pyright_env())
    tracked = ("pkg/__init__.py",)  # `git ls-files '*.py'`: what pre-commit passes
    assert cli(root, args=tracked) == []
    assert _said(root) == []
    (root / "Makefile").write_text("types:\n\tpyright pkg\n")
    truth = sorted((f, line, code) for f, line, _, code, _ in cli(root, args=("pkg",)))
    assert truth == [("pkg/_gen.py", 1, "reportAssignmentType")]
    assert _said(root) == truth
