"""What the copy of a mypy project holds: every Python file its mypy can see (gitignored
and hidden ones too; environments, version control and caches aside), walked again only
when a directory changed, and its configuration with the paths and plugin files leaving
the project made absolute; of a project inside a package, the package's directory mypy
names its modules from (`package_base`)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops.file_diagnostics import diagnostics
from lspd.workspace.mypy_config import mypy_config_in
from lspd.workspace.mypy_copy import VCS_MARK, Mirror
from lspd.workspace.mypy_mirror import Sees, config_text, mypy_sees, package_base
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project


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


def copied(root: Path, name: str, text: str) -> str:
    """The configuration `text`, written as the project's only one (`name`), as the copy
    holds it."""
    for other in ("mypy.ini", "pyproject.toml"):
        (root / other).unlink(missing_ok=True)
    (root / name).write_text(text)
    config = mypy_config_in(root)
    assert config is not None
    return config_text(config, root, text.encode()).decode()


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "mypy.ini",
            "[mypy]\nmypy_path = src:../shared:$MYPY_CONFIG_FILE_DIR/../more\n"
            "files = app, ../lib\n",
            "[mypy]\nmypy_path = src:{up}/shared:{up}/more\nfiles = app, {up}/lib\n",
        ),
        (
            "pyproject.toml",
            '[tool.mypy]\nmypy_path = ["../shared"]\n',
            '[tool.mypy]\nmypy_path = ["{up}/shared"]\n',
        ),
        (  # mypy finds a plugin file from the configuration's directory: the copy's
            "mypy.ini",
            "[mypy]\nplugins = ../x.py:entry, pydantic.mypy, tools/inside.py\n",
            "[mypy]\nplugins = {up}/x.py:entry, pydantic.mypy, tools/inside.py\n",
        ),
        (
            "pyproject.toml",
            '[tool.mypy]\nplugins = ["../plugins/x.py", "pydantic.mypy"]\n',
            '[tool.mypy]\nplugins = ["{up}/plugins/x.py", "pydantic.mypy"]\n',
        ),
    ],
)
def test_paths_leaving_the_project_are_written_absolute(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    root = tmp_path / "p"
    root.mkdir()
    assert copied(root, name, text) == expected.format(up=tmp_path)


def test_a_path_that_cannot_be_rewritten_is_said(tmp_path: Path) -> None:
    # Written so that it cannot be found again (a TOML escape): said, with what to write.
    escaped = '[tool.mypy]\nmypy_path = ["..\\u002fshared"]\n'
    with pytest.raises(InvalidInput, match=r"leaves the project.*write it as an absolute path"):
        copied(tmp_path, "pyproject.toml", escaped)


def test_plugins_are_read_as_written(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[mypy]\nplugins = ../x.py:entry, pydantic.mypy\n")
    config = mypy_config_in(tmp_path)
    assert config is not None and config.plugins == ("../x.py:entry", "pydantic.mypy")


def settle(root: Path) -> None:
    """Every directory's mtime 3 s back: stamps the walk can trust (past `RACY_NS`)."""
    for directory in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        then = directory.stat().st_mtime_ns - 3_000_000_000
        os.utime(directory, ns=(then, then))


def test_the_walk_is_made_again_only_when_a_directory_changed(tmp_path: Path) -> None:
    for name in ("pkg/__init__.py", "pkg/sub/a.py", "env/pyvenv.cfg", "env/lib/x.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    settle(tmp_path)
    sees = Sees(tmp_path)
    first = sees.files()
    assert first == mypy_sees(tmp_path) == [tmp_path / "pkg/__init__.py", tmp_path / "pkg/sub/a.py"]
    (tmp_path / "pkg/__init__.py").write_text("x = 1\n")  # a text changed, no entry
    assert (sees.files(), sees.walks) == (first, 1)
    (tmp_path / "pkg/sub/b.py").write_text("")  # an entry added deep down
    assert sees.files() == [*first, tmp_path / "pkg/sub/b.py"]
    (tmp_path / "env/pyvenv.cfg").unlink()  # no longer an environment: mypy sees its files
    settle(tmp_path)
    assert tmp_path / "env/lib/x.py" in sees.files()
    walks = sees.walks
    assert sees.files() == mypy_sees(tmp_path) and sees.walks == walks  # settled: kept


def test_each_write_of_a_file_lands_in_a_later_second(tmp_path: Path) -> None:
    """mypy's cache (run once: `mypy_once`) takes a file of its cached size and whole-second
    mtime as unchanged: a same-size edit written within the second must still differ, also
    by a copy made anew (the caches outlive it, its stamps may run ahead of the clock)."""
    mirror = Mirror(tmp_path / "copy")
    seconds = []
    for text in (b"x: int = 1\n", b"x: str = 1\n", b"x: int = 1\n"):
        assert mirror.hold({"a.py": text, "b.py": b"y = 2\n"})
        seconds.append(int((tmp_path / "copy" / "a.py").stat().st_mtime))
    again = Mirror(tmp_path / "copy")  # lspd started again: mypy's caches are still there
    assert again.hold({"a.py": b"x: str = 1\n"})
    seconds.append(int((tmp_path / "copy" / "a.py").stat().st_mtime))
    assert seconds[0] < seconds[1] < seconds[2] < seconds[3]


def test_a_copy_another_writer_touched_is_written_anew(tmp_path: Path) -> None:
    """Two lspd processes share a project's copy (one check at a time: `mypy_lock`): what
    one holds is trusted only while the stamp it left is the last one."""
    ours, theirs = Mirror(tmp_path / "tree"), Mirror(tmp_path / "tree")
    directory = tmp_path / "tree"

    def copy() -> dict[str, bytes]:
        assert (directory / VCS_MARK).is_dir()  # mypy's search for a configuration ends here
        return {p.name: p.read_bytes() for p in directory.iterdir() if p.name != VCS_MARK}

    ours.hold({"a.py": b"1", "b.py": b"2"})
    first = (directory / "a.py").stat().st_mtime_ns
    theirs.hold({"a.py": b"3"})  # written anew: the copy was not its own
    assert copy() == {"a.py": b"3"}
    ours.hold({"a.py": b"1", "b.py": b"2"})
    assert copy() == {"a.py": b"1", "b.py": b"2"}
    later = (directory / "a.py").stat().st_mtime_ns
    assert later >= first + 2_000_000_000  # after theirs, a second after ours
    theirs.forget()  # its stop removes the copy
    ours.hold({"a.py": b"1", "b.py": b"2"})
    assert copy() == {"a.py": b"1", "b.py": b"2"}
    assert (directory / "b.py").stat().st_mtime_ns > later


@pytest.mark.parametrize(
    ("inits", "config", "base"),
    [
        ((), "", "repo-1.0/tests/typing"),  # in no package: the project itself
        (("tests",), "", "repo-1.0"),  # namespace packages (mypy's default) reach tests/
        (("tests",), "namespace_packages = False\n", "repo-1.0/tests/typing"),
        (("tests", "tests/typing"), "namespace_packages = False\n", "repo-1.0"),
        (("tests", "tests/typing"), "explicit_package_bases = True\n", "repo-1.0/tests/typing"),
        (("tests", "repo-1.0"), "", None),  # not a name: mypy refuses the tree, so does lspd
        (("tests", "typing-stubs"), "", "."),  # a stub-only package's name, `-stubs` aside
    ],
)
def test_the_package_a_project_is_in_is_where_mypys_crawl_stops(
    tmp_path: Path, inits: tuple[str, ...], config: str, base: str | None
) -> None:
    """mypy's `crawl_up` (find_sources.py) from the project: up while a directory holds an
    `__init__.py`, through directories without one with namespace packages."""
    nested = tmp_path / "repo-1.0" / "tests" / "typing"
    if "typing-stubs" in inits:
        nested = tmp_path / "typing-stubs" / "tests" / "typing"
    nested.mkdir(parents=True)
    (nested / "mypy.ini").write_text("[mypy]\n" + config)
    for name in inits:
        place = nested.parent if name == "tests" else tmp_path / name
        if name == "tests/typing":
            place = nested
        place.mkdir(parents=True, exist_ok=True)
        (place / "__init__.py").write_text("")
    if base is None:
        with pytest.raises(InvalidInput, match=r"repo-1\.0 contains __init__\.py but"):
            package_base(nested, mypy_config_in(nested))
        return
    assert package_base(nested, mypy_config_in(nested)) == tmp_path / base


UNTYPED = "def f(x):\n    return x\n\n\ncount: int = 'three'\n"
# A file's own `warn-unused-ignores` with an ignore: mypy runs once (`mypy_once`), not dmypy.
ONCE = "# mypy: warn-unused-ignores\n" + UNTYPED + "right: int = 1  # type: ignore\n"


@pytest.mark.parametrize("text", [UNTYPED, ONCE], ids=["dmypy", "once"])
def test_a_configuration_above_the_copy_is_not_mypys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """A project in its repository without a mypy configuration (lspd.toml chooses mypy):
    its own mypy's search for one ends at its `.git`; the copy's, in lspd's state directory,
    went on up and took a `mypy.ini` found above it (`disallow_untyped_defs`: an error mypy
    never gives in the project, `no-untyped-def`). The copy's `.git` mark ends it there."""
    root = project(tmp_path / "p", {"lspd.toml": 'python_checker = "mypy"\n', "app/m.py": text})
    (root / "app/__init__.py").write_text("")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    outer = tmp_path / "outer"
    (outer / "state").mkdir(parents=True)
    (outer / "mypy.ini").write_text("[mypy]\ndisallow_untyped_defs = True\n")
    monkeypatch.setenv("LSPD_STATE_DIR", str(outer / "state"))
    result = answer(root, lambda ws: diagnostics(ws, "app/m.py"))
    own = {(line, code) for _, line, _, code, _ in cli_errors(root, "app")}
    assert {code for _, code in own} == {"assignment"} | (
        {"unused-ignore"} if text == ONCE else set()
    )
    assert {(d.line, d.code) for d in result.diagnostics} == own
    assert result.server == "mypy" and ("once" in (result.checker or "")) == (text == ONCE)
