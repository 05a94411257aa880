"""The typing tests a pytest plugin runs, said not checked.

Some projects gate their types on cases a pytest plugin runs through mypy, not on their
source files: pytest-mypy-plugins' YAML cases (loguru's, beside `mypy --strict -c ...`),
pytest-typing's markdown snippets (cattrs' `typing_checkers = ["mypy"]`: its .py files
are checked by no mypy run), pytest-mypy-testing's marked tests. Each case holds code and
the messages mypy must say of it, which lspd does not run: a change breaking one was
answered with no word of them. The project's scope now has a line naming the plugin.
"""

from __future__ import annotations

import re
from pathlib import Path

from lspd.workspace.files import read_text
from lspd.workspace.project_scope import ProjectScope

# each plugin, and what its cases are
PLUGINS = {
    "pytest-mypy-plugins": "its YAML cases",
    "pytest-typing": "its markdown snippets",
    "pytest-mypy-testing": "its `mypy_testing` tests",
}
# where a project names its test dependencies
_DECLARING = ("pyproject.toml", "setup.cfg", "tox.ini", "noxfile.py", "requirements-dev.txt")
_NAMED = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, PLUGINS)) + r")(?![\w.-])")


def typing_tests_said(directory: Path, read: list[Path]) -> list[ProjectScope]:
    """A line of the scope per typing-test plugin the project at `directory` depends on;
    the files read added to `read`."""
    paths = [directory / name for name in _DECLARING]
    read += paths
    named = {m[1] for path in paths for m in _NAMED.finditer(read_text(path) or "")}
    return [
        ProjectScope("python", directory, None, (), _note(name), unrun=True)
        for name in sorted(named)
    ]


def _note(plugin: str) -> str:
    return (
        f"not checked: the typing tests {plugin} runs ({PLUGINS[plugin]}: code and the "
        "messages mypy must say of it), which lspd does not run"
    )
