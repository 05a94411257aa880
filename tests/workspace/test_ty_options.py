"""The options of the command running ty (`workspace/ty_options.py`): a Makefile's `ty check
--python-version 3.13 src tests` checks for that Python whatever the interpreter, and lspd's
ty checked for the interpreter's. Real ty (lspd's) against its CLI run as the Makefile runs
it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.ty_options import TyOptions, parsed
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import diagnostic_rows
from tests.workspace.ty_cli import ty_rows

MATCH = "def f(x: int) -> int:\n    match x:\n        case 1:\n            return 1\n    return 0\n"
DEPRECATED = (
    "from collections.abc import Iterator\nfrom contextlib import contextmanager\n\n\n"
    "@contextmanager\ndef opened() -> Iterator[int]:\n    yield 1\n"
)
FILES = {
    ".gitignore": ".venv\n",
    "pyproject.toml": '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n',
    "app/__init__.py": "",
    "app/m.py": MATCH,  # invalid syntax for Python 3.9
    "app/opened.py": DEPRECATED,  # a `deprecated` warning of ty 1.0.0's
}


@pytest.mark.parametrize(
    "options",
    [
        ("--python-version", "3.9", "--error", "deprecated"),
        ("--python-version=3.9", "--error-on-warning"),
        (),
    ],
    ids=["version-and-rule", "equals-and-error-on-warning", "none"],
)
def test_the_commands_options_are_the_servers(tmp_path: Path, options: tuple[str, ...]) -> None:
    makefile = f"version:\n\tuv run ty version\ncheck:\n\tuv run ty check {' '.join(options)} app\n"
    root = written(tmp_path / "p", {**FILES, "Makefile": makefile})
    (root / ".venv").symlink_to(environment("no-mypy"))
    expected = ty_rows(root, *options, "app")
    said = "error" if "--error" in options else "warning"  # the CLI's
    severity = "error" if options else "warning"  # --error deprecated, --error-on-warning
    assert [row[3:] for row in expected if row[0] == "app/opened.py"] == [("deprecated", said)]
    rows = diagnostic_rows(answer(root, workspace_diagnostics))
    assert [row[3:] for row in rows if row[0] == "app/opened.py"] == [("deprecated", severity)]
    if "--error-on-warning" not in options:  # the CLI says "warning", and exits 1 for it
        assert rows == expected
    assert ("app/m.py" in {row[0] for row in rows}) == bool(options)


def test_what_a_command_says(tmp_path: Path) -> None:
    words = [
        "check", "--warn", "unused-ignore-comment", "--ignore=unused-ignore-comment",
        "--python-platform", "linux", "--extra-search-path", "stubs", "--config-file",
        "ci/ty.toml", "src", "--error-on-warning", "&&", "--python-version", "3.8",
    ]  # fmt: skip
    assert parsed(tmp_path, words) == TyOptions(
        {
            "ty": {
                "configuration": {
                    "rules": {"unused-ignore-comment": "ignore"},
                    "environment": {
                        "python-platform": "linux",
                        "extra-paths": [str(tmp_path / "stubs")],
                    },
                },
                "configurationFile": str(tmp_path / "ci/ty.toml"),
            }
        },
        error_on_warning=True,
    )
    assert parsed(tmp_path, ["check", "src"]) == TyOptions()


def test_the_environment_the_command_names_resolves_the_imports(tmp_path: Path) -> None:
    """`ty check --python ci-env`: the packages are ci-env's, not the project's .venv's (its
    server resolved against .venv: `import-not-found` of what ci-env alone holds)."""
    makefile = "check:\n\tty check --python ci-env app\n"
    code = 'import only_in_ci\n\ncount: int = "three"\n'
    root = written(tmp_path / "p", {**FILES, "Makefile": makefile, "app/m.py": code})
    (root / ".venv").symlink_to(environment("no-mypy"))
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / "ci-env")], check=True
    )
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (root / "ci-env" / "lib" / version / "site-packages" / "only_in_ci.py").write_text("x = 1\n")
    expected = ty_rows(root, "--python", "ci-env", "app")
    assert "import-not-found" in {row[3] for row in ty_rows(root, "app")}  # .venv's
    assert "import-not-found" not in {row[3] for row in expected}
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == expected
