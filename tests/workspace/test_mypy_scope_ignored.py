"""The gate's files of a mypy project holding modules git ignores: those mypy follows into
from the files lspd's walk keeps are the gate's (mypy reads no .gitignore), the others not
(a `build/` copy, a module nothing imports), whether `files` names part of the project or
there is none (every file lspd's walk keeps, lspd's targets). Each module holds an error,
so the files mypy says are the files it checks; asserted against the pinned mypy given
lspd's targets, in a real git repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.workspace.mypy_scope import mypy_scopes
from tests.ops.test_baseline import committed, git
from tests.workspace.mypy_env import cli_errors, project

BAD = 'bad: int = "x"\n'
LAYOUT = {
    ".gitignore": ".venv/\napp/_version.py\napp/gen/\napp/_scratch.py\nbuild/\n",
    "app/__init__.py": "from ._version import v as v\n" + BAD,  # relative, to an ignored one
    "app/main.py": "import app.gen.deep\n" + BAD,  # its packages too
    "app/_version.py": 'v = "1"\n' + BAD,
    "app/gen/__init__.py": BAD,
    "app/gen/deep.py": "from app.gen import other\n" + BAD,  # on from an ignored one
    "app/gen/other.py": BAD,
    "app/gen/unused.py": BAD,
    "app/_scratch.py": BAD,
    "build/lib/app/__init__.py": BAD,
    "build/lib/app/main.py": BAD,
}
# (`files = ["app"]` makes mypy check every file of app/ it walks, ignored ones too, unless
# `exclude_gitignore`: the gate's reading of `files` leaves them out still)
CONFIGS = {
    "files": '[tool.mypy]\nfiles = ["app/__init__.py", "app/main.py"]\n',
    "every": "[tool.mypy]\n",
}


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_the_ignored_modules_mypy_follows_into(tmp_path: Path, config: str) -> None:
    root = committed(project(tmp_path / "p", {**LAYOUT, "pyproject.toml": config}))
    walked = sorted(root / name for name in git(root, "ls-files").split() if name.endswith(".py"))
    assert [p.relative_to(root).as_posix() for p in walked] == ["app/__init__.py", "app/main.py"]
    [scope] = mypy_scopes([root], walked, "project", False)
    targets = [] if "files" in config else [p.relative_to(root).as_posix() for p in walked]
    said = {file for file, *_ in cli_errors(root, *targets)}
    assert said == {
        "app/__init__.py",
        "app/main.py",
        "app/_version.py",
        "app/gen/__init__.py",
        "app/gen/deep.py",
        "app/gen/other.py",
    }
    assert {p.relative_to(root).as_posix() for p in scope.files} == said
