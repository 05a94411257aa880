"""What mypy's walk of its targets keeps (`workspace/mypy_walk.py`): a lint script's
`--exclude` leaves out what it finds (a folder's path ending in `/`), with the
configuration's; of a module written both ways, the stub alone. mypy's own listing of
its sources (`-v`) is the truth, and its errors the gate's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_scope import mypy_scopes
from lspd.workspace.mypy_scripts import unexcluded
from lspd.workspace.mypy_walk import excludes
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, mypy_ran, project

ERROR = 'count: int = "three"\n'


def _sources(root: Path, *args: str) -> list[str]:
    """The files mypy's walk kept, as its `-v` log lists them."""
    listed = mypy_ran(root, "-v", *args).stderr
    found = re.findall(r"Found source:\s+BuildSource\(path='([^']*)'", listed)
    return sorted(path.removeprefix("./") for path in found)


def test_a_scripts_exclude_leaves_out_what_mypys_walk_does(tmp_path: Path) -> None:
    """`mypy --exclude '^app/gen/' --exclude '^build/$' .`: lspd's scope held app/gen/ and
    build/, and gave mypy `.` without the option, which checked them (two errors its
    script never says)."""
    command = "mypy --exclude '^app/gen/' --exclude=^build/$ .\n"
    files = {
        "pyproject.toml": '[tool.mypy]\nexclude = "^docs/"\n',
        "Makefile": f"types:\n\t{command}",
        "app/__init__.py": "",
        "app/main.py": ERROR,
        "app/gen/out.py": ERROR,
        "build/lib.py": ERROR,
        "docs/conf.py": ERROR,
    }
    root = project(tmp_path / "p", files)
    args = ["--exclude", "^app/gen/", "--exclude=^build/$", "."]
    truth = _sources(root, *args)
    assert truth == ["app/__init__.py", "app/main.py"]
    walked = [root / name for name in files if name.endswith(".py")]
    (scope,) = mypy_scopes([root], walked, "project", False)
    assert [p.relative_to(root).as_posix() for p in scope.files] == truth
    said = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *args))
    assert said == [("app/main.py", 1, "assignment")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == said


def test_a_module_with_a_stub_beside_it_is_its_stub_alone(tmp_path: Path) -> None:
    """alembic's `op.pyi` beside `op.py`: its scope said 54 files where its mypy checks 52."""
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n',
        "app/__init__.py": "",
        "app/op.py": "def run(x):\n    return x\n",
        "app/op.pyi": "def run(x: int) -> int: ...\n",
        "app/stub_only.pyi": "",
    }
    root = project(tmp_path / "p", files)
    walked = [root / name for name in files if name.endswith((".py", ".pyi"))]
    (scope,) = mypy_scopes([root], walked, "project", False)
    truth = _sources(root)
    assert truth == ["app/__init__.py", "app/op.pyi", "app/stub_only.pyi"]
    assert [p.relative_to(root).as_posix() for p in scope.files] == truth


def test_the_excludes_a_command_gives() -> None:
    given = ("--strict", "--exclude", "^a/", "--exclude=b$", "--exclude")
    assert excludes(given) == ["^a/", "b$"]
    assert unexcluded(given) == ("--strict",)  # a lone `--exclude`: no run, nothing kept


@pytest.mark.parametrize(
    ("files", "args"),
    [
        # a script naming a file below a folder its `--exclude` finds
        (
            {"mypy.ini": "[mypy]\n", "Makefile": "types:\n\tmypy --exclude '^b/' b/m2.py c\n"},
            ["--exclude", "^b/", "b/m2.py", "c"],
        ),
        # the configuration's `files`, a file named and a glob mypy expands to files
        ({"mypy.ini": "[mypy]\nexclude = ^b/\nfiles = b/m2.py, c\n"}, []),
        ({"mypy.ini": "[mypy]\nexclude = ^b/\nfiles = b/*.py, c\n"}, []),
    ],
    ids=["script", "files", "glob"],
)
def test_a_file_named_itself_is_never_excluded(
    tmp_path: Path, files: dict[str, str], args: list[str]
) -> None:
    """mypy leaves out only what its walk of a folder finds; lspd left out b/m2.py, whose
    error its gate says."""
    sources = {"b/m2.py": ERROR, "b/m3.py": "", "c/__init__.py": "", "c/x.py": ""}
    root = project(tmp_path / "p", {**files, **sources})
    truth = _sources(root, *args)
    expected = ["b/m2.py", "c/__init__.py", "c/x.py"]
    assert truth == (["b/m2.py", "b/m3.py", *expected[1:]] if "*" in str(files) else expected)
    (scope,) = mypy_scopes([root], [root / name for name in sources], "project", False)
    assert [p.relative_to(root).as_posix() for p in scope.files] == truth
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == [("b/m2.py", 1, "assignment")]


def test_a_hook_passing_a_file_the_configuration_excludes_checks_it(tmp_path: Path) -> None:
    """pre-commit passes mypy every file its `files` take: the configuration's `exclude`
    does not leave one out."""
    hook = "repos:\n- repo: local\n  hooks:\n    - {id: mypy, entry: mypy, types: [python]}\n"
    files = {"mypy.ini": "[mypy]\nexclude = ^b/\n", ".pre-commit-config.yaml": hook}
    sources = {"b/m2.py": ERROR, "c/__init__.py": ""}
    root = project(tmp_path / "p", {**files, **sources})
    truth = _sources(root, *sources)
    assert truth == ["b/m2.py", "c/__init__.py"]
    (scope,) = mypy_scopes([root], [root / name for name in sources], "project", False)
    assert [p.relative_to(root).as_posix() for p in scope.files] == truth


def test_a_folder_of_sources_hides_the_module_of_its_name(tmp_path: Path) -> None:
    """mypy's walk lists `foo/` before `foo.pyi` and `foo.py`, and skips a name it has
    seen; bar/ holds no source, so bar.py stays."""
    files = {
        "mypy.ini": "[mypy]\n",
        "foo/__init__.py": "",
        "foo.py": ERROR,
        "foo.pyi": ERROR,
        "bar/README": "",
        "bar.py": ERROR,
    }
    root = project(tmp_path / "p", files)
    truth = _sources(root, ".")
    assert truth == ["bar.py", "foo/__init__.py"]
    walked = [root / name for name in files if name.endswith((".py", ".pyi"))]
    (scope,) = mypy_scopes([root], walked, "project", False)
    assert sorted(p.relative_to(root).as_posix() for p in scope.files) == truth
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == [("bar.py", 1, "assignment")]


def test_a_configuration_beside_no_python_file_is_no_project(tmp_path: Path) -> None:
    """pip's tests/typing/pyproject.toml holds a `[tool.mypy]` its nox session names with
    `--config-file`; its folder holds no Python file. The scope said a project of 0 files."""
    files = {
        "mypy.ini": "[mypy]\n",
        "app/__init__.py": "",
        "tests/typing/pyproject.toml": '[tool.mypy]\nexclude = "_vendor"\n',
    }
    root = project(tmp_path / "p", files)
    walked = [root / "app/__init__.py"]
    scopes = mypy_scopes([root, root / "tests/typing"], walked, "project", False)
    assert [(s.directory, len(s.files)) for s in scopes] == [(root, 1)]


def test_a_glob_names_what_it_expands_to_from_the_configurations_folder(tmp_path: Path) -> None:
    """`files = *.py, src`: `*.py` is the top's noxfile.py alone, as glob expands it; read
    from the right it named every .py file, src/gen/bad.py too, past `exclude`."""
    files = {
        "mypy.ini": "[mypy]\nfiles = *.py, src\nexclude = src/gen/\n",
        "noxfile.py": "",
        "src/ok.py": "",
        "src/gen/bad.py": ERROR,
        "other/b/m.py": ERROR,
    }
    root = project(tmp_path / "p", files)
    truth = _sources(root)
    assert truth == ["noxfile.py", "src/ok.py"]
    walked = [root / name for name in files if name.endswith(".py")]
    (scope,) = mypy_scopes([root], walked, "project", False)
    assert sorted(p.relative_to(root).as_posix() for p in scope.files) == truth
