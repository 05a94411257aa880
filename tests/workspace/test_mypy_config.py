"""Which checker judges a Python project: its own configuration decides (mypy's four
places, pyright's), lspd.toml can choose, restricted mode runs no project mypy; a mypy
configuration that does not parse is named with its line and the fix; each read again only
when it changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_config import CheckerChoice, choose, mypy_config_in
from lspd.workspace.mypy_scope import mypy_scopes
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(
    ("files", "label"),
    [
        ({"mypy.ini": "[mypy]\nstrict = True\n"}, "mypy.ini"),
        ({".mypy.ini": "[mypy]\nfiles = a, b\n"}, ".mypy.ini"),
        ({"pyproject.toml": "[tool.mypy]\nstrict = true\n"}, "pyproject.toml [tool.mypy]"),
        ({"setup.cfg": "[metadata]\nname = x\n[mypy]\n"}, "setup.cfg [mypy]"),
    ],
)
def test_each_of_mypys_configurations_means_mypy(
    tmp_path: Path, files: dict[str, str], label: str
) -> None:
    write(tmp_path, files)
    assert choose(tmp_path) == CheckerChoice(("mypy",), label)


def test_mypy_reads_the_first_configuration_in_its_order(tmp_path: Path) -> None:
    write(tmp_path, {"mypy.ini": "[mypy]\nfiles = one\n", "setup.cfg": "[mypy]\nfiles = two\n"})
    config = mypy_config_in(tmp_path)
    assert config is not None and (config.label, config.files) == ("mypy.ini", ("one",))


def test_no_mypy_section_is_no_mypy_configuration(tmp_path: Path) -> None:
    write(tmp_path, {"setup.cfg": "[metadata]\nname = x\n", "pyproject.toml": "[tool.ruff]\n"})
    assert mypy_config_in(tmp_path) is None
    assert choose(tmp_path) == CheckerChoice(("basedpyright",), "no mypy configuration")


def test_both_configured_runs_both(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.mypy]\nstrict = true\n[tool.pyright]\n"})
    assert choose(tmp_path) == CheckerChoice(
        ("mypy", "basedpyright"), "pyproject.toml [tool.mypy] and pyproject.toml [tool.pyright]"
    )


def test_pyright_alone_means_basedpyright(tmp_path: Path) -> None:
    write(tmp_path, {"pyrightconfig.json": "{}"})
    assert choose(tmp_path) == CheckerChoice(("basedpyright",), "pyrightconfig.json")


def test_lspd_toml_chooses_and_restricted_runs_no_project_mypy(tmp_path: Path) -> None:
    write(tmp_path, {"mypy.ini": "[mypy]\n"})
    assert choose(tmp_path, "basedpyright").checkers == ("basedpyright",)
    assert choose(tmp_path, "both").reason == 'lspd.toml python_checker = "both"'
    assert choose(tmp_path, restricted=True) == CheckerChoice(
        ("basedpyright",), "restricted mode runs no project mypy"
    )
    with pytest.raises(InvalidInput, match="'mipy' is not a checker; choose one of project"):
        choose(tmp_path, "mipy")


def test_a_toml_configuration_that_does_not_parse_names_file_line_and_fix(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.mypy]\nstrict = tru\n"})
    with pytest.raises(InvalidInput) as raised:
        choose(tmp_path)
    assert str(raised.value) == (
        f"{tmp_path}/pyproject.toml:2: Invalid value: fix the TOML there (mypy cannot read "
        "this configuration either)"
    )
    write(tmp_path, {"pyproject.toml": '[tool.mypy]\nstrict = true\nfiles = ["a"\n'})
    with pytest.raises(InvalidInput, match=r"pyproject.toml:3: Unclosed array: fix the TOML"):
        choose(tmp_path)


def test_an_ini_configuration_that_does_not_parse_names_file_line_and_fix(tmp_path: Path) -> None:
    write(tmp_path, {"mypy.ini": "strict = True\n[mypy]\n"})
    with pytest.raises(InvalidInput) as raised:
        choose(tmp_path)
    assert str(raised.value).startswith(f"{tmp_path}/mypy.ini:1: ")
    assert "a `[section]` header first" in str(raised.value)


def test_the_scope_is_mypys_files_less_its_exclude(tmp_path: Path) -> None:
    names = ["app/a.py", "app/gen/b.py", "tests/test_a.py", "setup.py"]
    write(tmp_path, dict.fromkeys(names, ""))
    config = '[tool.mypy]\nfiles = ["app"]\nexclude = ["^app/gen/"]\n'
    write(tmp_path, {"pyproject.toml": config})
    files = [tmp_path / n for n in names]
    (scope,) = mypy_scopes([tmp_path], files, "project", False)
    assert (scope.label, scope.files, scope.note) == (
        "pyproject.toml [tool.mypy]",
        (tmp_path / "app/a.py",),
        "files = app",
    )
    write(tmp_path, {"pyproject.toml": "[tool.mypy]\n"})
    (scope,) = mypy_scopes([tmp_path], files, "project", False)
    assert scope.files == tuple(sorted(files))
    write(tmp_path, {"pyproject.toml": "[tool.mypy]\n[tool.pyright]\n"})
    assert mypy_scopes([tmp_path], files, "project", False) == []  # both: pyright's scope
    (scope,) = mypy_scopes([tmp_path], files, "project", False, alone=False)  # mypy's run
    assert scope.files == tuple(sorted(files))


@pytest.mark.parametrize(
    "config",
    [
        '[tool.mypy]\nfiles = ["other"]\npackages = ["app", "docs.examples"]\nmodules = "one"\n',
        "[tool.mypy]\npackages = 'app,docs.examples'\nmodules = ['one']\n",
    ],
)
def test_packages_and_modules_are_the_scope_instead_of_files(tmp_path: Path, config: str) -> None:
    """litestar's `packages = ["litestar", "tests", "docs.examples"]`: mypy checks those (not
    its `files`); lspd ran it on every file, docs/conf.py's blocking error stopped it there,
    and none of its errors was said. A package is its folder, a module its file."""
    names = ["app/a.py", "app/sub/b.py", "docs/conf.py", "docs/examples/e.py", "one.py"]
    names += ["other/o.py", "two.py"]
    write(tmp_path, {**dict.fromkeys(names, ""), "pyproject.toml": config})
    (scope,) = mypy_scopes([tmp_path], [tmp_path / n for n in names], "project", False)
    chosen = ["app/a.py", "app/sub/b.py", "docs/examples/e.py", "one.py"]
    assert scope.files == tuple(tmp_path / n for n in chosen)


@pytest.mark.parametrize(
    "config",
    [
        {
            "pyproject.toml": '[tool.mypy]\nmypy_path = "./lib/"\n[[tool.mypy.overrides]]\n'
            'module = ["pkg.*", "pygments.*"]\nstrict = true\n'
        },
        {"setup.cfg": "[mypy]\nmypy_path = ./lib/\n[mypy-pkg.*]\nstrict = True\n"},
    ],
)
def test_without_files_the_scope_is_the_packages_its_sections_name(
    tmp_path: Path, config: dict[str, str]
) -> None:
    names = ["lib/pkg/__init__.py", "lib/pkg/core.py", "test/test_core.py", "setup.py"]
    write(tmp_path, {**dict.fromkeys(names, ""), **config})
    (scope,) = mypy_scopes([tmp_path], [tmp_path / n for n in names], "project", False)
    assert scope.files == (tmp_path / "lib/pkg/__init__.py", tmp_path / "lib/pkg/core.py")
    assert scope.packages == ("lib/pkg",)  # what SQLAlchemy's CI runs: mypy ./lib/sqlalchemy
    assert scope.note == "no `files`: the project's packages its sections name: lib/pkg"


@pytest.mark.parametrize(
    "sections",
    [
        '[[tool.mypy.overrides]]\nmodule = "tests.*"\nignore_errors = true\n',  # structlog
        '[[tool.mypy.overrides]]\nmodule = ["tests.test_core"]\nstrict = true\n',
    ],
)
def test_a_section_naming_a_package_at_the_top_does_not_make_it_the_gate(
    tmp_path: Path, sections: str
) -> None:
    names = ["src/pkg/__init__.py", "src/pkg/core.py", "tests/__init__.py", "tests/test_core.py"]
    write(tmp_path, {**dict.fromkeys(names, ""), "pyproject.toml": "[tool.mypy]\n" + sections})
    (scope,) = mypy_scopes([tmp_path], [tmp_path / n for n in names], "project", False)
    assert scope.files == tuple(sorted(tmp_path / n for n in names))  # what `mypy .` checks
    assert (scope.packages, scope.note) == ((), "no `files`: every Python file of the project")


def test_a_section_naming_a_src_package_makes_it_the_gate(tmp_path: Path) -> None:
    names = ["src/pkg/__init__.py", "src/pkg/core.py", "tests/__init__.py", "tests/test_core.py"]
    config = '[tool.mypy]\n[[tool.mypy.overrides]]\nmodule = ["pkg.core", "tests.*"]\n'
    write(tmp_path, {**dict.fromkeys(names, ""), "pyproject.toml": config})
    (scope,) = mypy_scopes([tmp_path], [tmp_path / n for n in names], "project", False)
    assert scope.files == (tmp_path / "src/pkg/__init__.py", tmp_path / "src/pkg/core.py")
    assert scope.packages == ("src/pkg",)


def test_a_section_naming_only_a_file_the_walk_leaves_out_does_not_make_it_the_gate(
    tmp_path: Path,
) -> None:
    """black 24.10's layout: its one section under src/ names its generated, git-ignored
    `_black_version` (`ignore_missing_imports`); the gate was that file's imports, none:
    "0 files, 0 errors"."""
    names = ["src/pkg/__init__.py", "src/pkg/core.py", "tests/test_core.py"]
    config = '[tool.mypy]\nmypy_path = "src"\n[[tool.mypy.overrides]]\n'
    config += 'module = ["_pkg_version.*", "tests.data.*"]\nignore_missing_imports = true\n'
    files = dict.fromkeys([*names, "src/_pkg_version.py"], "")
    write(tmp_path, {**files, "pyproject.toml": config})
    walked = [tmp_path / n for n in names]  # src/_pkg_version.py: git ignores it
    (scope,) = mypy_scopes([tmp_path], walked, "project", False)
    assert scope.files == tuple(walked)
    assert (scope.packages, scope.note) == ((), "no `files`: every Python file of the project")


def test_a_configuration_is_read_again_only_when_it_changed(tmp_path: Path) -> None:
    ini = tmp_path / "mypy.ini"
    ini.write_text("[mypy]\nfiles = a\n")
    then = ini.stat().st_mtime_ns - 3_000_000_000  # past `RACY_NS` (2 s): trusted
    os.utime(ini, ns=(then, then))
    first = mypy_config_in(tmp_path)
    assert first is not None and mypy_config_in(tmp_path) is first
    assert choose(tmp_path) is choose(tmp_path)
    ini.write_text("[mypy]\nfiles = b\n")  # the same size
    assert (again := mypy_config_in(tmp_path)) is not None and again.files == ("b",)
    (tmp_path / "pyrightconfig.json").write_text("{}")
    assert choose(tmp_path) == CheckerChoice(
        ("mypy", "basedpyright"), "mypy.ini and pyrightconfig.json"
    )


# mypy's own documentation's verbose `exclude`; and lines without `(?x)`: one regex, its
# newlines in it, that excludes nothing (mypy: `[s.strip()]`, no split at lines).
VERBOSE = (
    "[mypy]\nexclude = (?x)(\n"
    '    ^one\\.py$    # files named "one.py"\n'
    '    | two\\.pyi$  # or files ending with "two.pyi"\n'
    '    | ^three\\.   # or files starting with "three."\n'
    "  )\n"
)
LINES = "[mypy]\nexclude =\n    ^gen/\n    ^docs/\n"


@pytest.mark.parametrize("config", [VERBOSE, LINES], ids=["verbose-regex", "lines"])
def test_an_exclude_of_several_lines_is_one_regex_as_mypy_reads_it(
    tmp_path: Path, config: str
) -> None:
    """The verbose regex was refused ("is not a regular expression ... mypy cannot use it
    either": its lines joined with `|`, its comments swallowing the rest); the lines
    excluded gen/ and docs/, which mypy checks. The gate's errors are mypy's own run's
    (`mypy .`, every Python file: no `files`). mypy 2.4.1."""
    error = 'count: int = "three"\n'
    files = {"mypy.ini": config, "one.py": error, "three.py": error, "app/__init__.py": ""}
    files |= {"app/main.py": error, "gen/gen.py": error, "docs/conf.py": error}
    root = project(tmp_path / "p", files)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "."))
    found = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in found.diagnostics) == truth
    checked = ["app/main.py", "docs/conf.py", "gen/gen.py"]
    checked += [] if config == VERBOSE else ["one.py", "three.py"]
    assert [f for f, _, _ in truth] == checked
