"""What the copy of a mypy project holds: every Python file its mypy can see (gitignored
and hidden ones too; environments, version control and caches aside), and its
configuration with the paths leaving the project made absolute."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config import mypy_config_in
from lspd.workspace.mypy_mirror import config_text, mypy_sees


def test_every_python_file_mypy_can_see_and_no_other(tmp_path: Path) -> None:
    for name in (
        "pkg/__init__.py",
        "pkg/_version.py",  # gitignored, generated
        "pkg/stubs.pyi",
        ".tools/helper.py",
        "build/lib/pkg/__init__.py",
        "env/pyvenv.cfg",
        "env/lib/site.py",
        ".git/hooks/x.py",
        "pkg/__pycache__/x.py",
        ".mypy_cache/x.py",
        "node_modules/x.py",
        "README.md",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / ".gitignore").write_text("pkg/_version.py\nbuild/\n")
    seen = [p.relative_to(tmp_path).as_posix() for p in mypy_sees(tmp_path)]
    assert seen == [
        ".tools/helper.py",
        "build/lib/pkg/__init__.py",
        "pkg/__init__.py",
        "pkg/_version.py",
        "pkg/stubs.pyi",
    ]


def test_paths_leaving_the_project_are_written_absolute(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    text = "[mypy]\nmypy_path = src:../shared:$MYPY_CONFIG_FILE_DIR/../more\nfiles = app, ../lib\n"
    (root / "mypy.ini").write_text(text)
    config = mypy_config_in(root)
    assert config is not None
    copied = config_text(config, root, text.encode()).decode()
    assert copied == (
        f"[mypy]\nmypy_path = src:{tmp_path}/shared:{tmp_path}/more\nfiles = app, {tmp_path}/lib\n"
    )
    toml = '[tool.mypy]\nmypy_path = ["../shared"]\n'
    (root / "mypy.ini").unlink()
    (root / "pyproject.toml").write_text(toml)
    config = mypy_config_in(root)
    assert config is not None
    assert config_text(config, root, toml.encode()).decode() == (
        f'[tool.mypy]\nmypy_path = ["{tmp_path}/shared"]\n'
    )
    # Written so that it cannot be found again (a TOML escape): said, with what to write.
    escaped = '[tool.mypy]\nmypy_path = ["..\\u002fshared"]\n'
    with pytest.raises(InvalidInput, match=r"leaves the project.*write it as an absolute path"):
        config_text(config, root, escaped.encode())
