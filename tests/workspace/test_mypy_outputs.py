"""A project's mypy configuration naming reports, a JUnit file, a cache directory or stub
installs: lspd's copy of it leaves them out, so lspd's mypy and dmypy write nothing beyond
lspd's own cache and answer as the project's own mypy does. On a real mypy, against the
project's own run."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from lspd.dirs import state_dir
from lspd.engine.mypy_check import MypyRun, run_mypy
from lspd.engine.mypy_errors import parse
from lspd.engine.mypy_project import project_of
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.mypy_outputs import users_config, without_outputs
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown

INI = (
    "[mypy]\n"
    "strict = True\n"
    "html_report = /tmp/x\n"
    "JUnit-XML = ../out.xml\n"
    "cache_dir =\n"
    "    /tmp/cache\n"
    "install_types = True\n"
    "\n"
    "[mypy-app.*]\n"
    "txt_report: r\n"
    "\n"
    "[tool:pytest]\n"
    "junit_xml = kept.xml\n"
)
TOML = (
    "[tool.mypy]\n"
    "strict = true\n"
    '"xml_report" = "/tmp/x"\n'
    "junit-format = 'per_file'\n"
    'any_exprs_report = """\n'
    '/tmp/y"""\n'
    "\n"
    "[[tool.mypy.overrides]]\n"
    'module = "app"\n'
    'linecount_report = "r"\n'
    "\n"
    "[tool.other]\n"
    'html_report = "kept"\n'
)


def test_ini_options_that_write_are_emptied_in_mypy_sections_alone() -> None:
    assert without_outputs("setup.cfg", INI) == (
        "[mypy]\nstrict = True\n\n\n\n\n\n\n[mypy-app.*]\n\n\n[tool:pytest]\njunit_xml = kept.xml\n"
    )


def test_toml_options_that_write_are_emptied_in_mypy_tables_alone() -> None:
    assert without_outputs("pyproject.toml", TOML) == (
        "[tool.mypy]\nstrict = true\n\n\n\n\n\n"
        '[[tool.mypy.overrides]]\nmodule = "app"\n\n\n'
        '[tool.other]\nhtml_report = "kept"\n'
    )


# Forms no line of [tool.mypy] holds: an inline table (several lines, a comment after it),
# dotted keys in [tool] (a multi-line string among them) and at the top, an inline table
# in an inline table; each as lspd's copy holds it. Another table's `cache_dir` stays, and
# an override's inline `junit_xml` too: mypy takes none from a per-module section.
INLINE = (
    (
        "[tool]\n"
        "mypy = { strict = true, files = [\n"
        '  "app",\n'
        '], linecount_report = "/x" }  # mypy\'s\n'
        "black = { line-length = 99 }\n",
        '[tool]\nmypy = {"strict" = true, "files" = ["app"]}\n\n\nblack = { line-length = 99 }\n',
    ),
    (
        "[tool]\n"
        "mypy.strict = true\n"
        'mypy.junit_xml = """\n'
        '/tmp/out.xml"""\n'
        'mypy . "html-report" = "h"\n'
        'pytest.cache_dir = "kept"\n',
        '[tool]\nmypy.strict = true\n\n\n\npytest.cache_dir = "kept"\n',
    ),
    (
        'tool.mypy.strict = true\ntool.mypy.cache_dir = "/c"\ntool.other.cache_dir = "k"\n',
        'tool.mypy.strict = true\n\ntool.other.cache_dir = "k"\n',
    ),
    (
        'tool = { mypy = { strict = true, "junit-xml" = "o.xml" }, black = { a = 1 } }\n',
        'tool = {"mypy" = {"strict" = true}, "black" = {"a" = 1}}\n',
    ),
    (
        '[tool.mypy]\nstrict = true\noverrides = [{ module = "a", junit_xml = "x" }]\n',
        '[tool.mypy]\nstrict = true\noverrides = [{ module = "a", junit_xml = "x" }]\n',
    ),
)


INLINE_IDS = ["inline", "dotted", "top", "nested", "override"]


@pytest.mark.parametrize(("text", "held"), INLINE, ids=INLINE_IDS)
def test_toml_options_in_inline_tables_and_dotted_keys_are_left_out(text: str, held: str) -> None:
    assert without_outputs("pyproject.toml", text) == held


def test_an_option_no_rewrite_leaves_out_is_refused() -> None:
    """mypy's option written as a table of its own (mypy refuses its value too): said."""
    text = '[tool.mypy]\nstrict = true\n\n[tool.mypy.junit_xml]\npath = "/tmp/out.xml"\n'
    with pytest.raises(InvalidInput) as refused:
        without_outputs("pyproject.toml", text)
    assert str(refused.value) == (
        "pyproject.toml: lspd cannot leave mypy's 'junit_xml' out of its copy of the "
        "configuration (mypy writes or installs by it): write it as a plain key of its mypy "
        "section"
    )


Error = tuple[Path, int, int, str | None, str]
REPORTS = ("linecount.txt", "lineprecision.txt", "any-exprs.txt", "out.xml", "index.txt")
IGNORED = "unused: int = 1  # type: ignore[assignment]\n"  # an unused ignore: mypy run once


def written(directory: Path) -> set[Path]:
    """Every file and directory under `directory`."""
    return {Path(top) / name for top, dirs, files in os.walk(directory) for name in dirs + files}


def configured(form: str, outside: Path) -> tuple[str, str]:
    """A configuration naming reports at an absolute path, at `..` and inside the project,
    a JUnit file and a cache directory, written in `form`: mypy.ini, an inline table of
    pyproject's [tool] (its `files` on several lines), dotted keys there."""
    options = {
        "files": "app",
        "warn_unused_ignores": True,
        "linecount_report": str(outside),
        "junit_xml": "../out.xml",
        "lineprecision_report": "../precision",
        "any_exprs_report": "inside",
        "cache_dir": "../cache",
    }
    if form == "mypy.ini":
        return form, "[mypy]\n" + "".join(f"{key} = {value}\n" for key, value in options.items())
    toml = {key: json.dumps(value) for key, value in options.items()}
    toml["files"] = '[\n  "app",\n]'
    if form == "inline":
        pairs = ", ".join(f"{key} = {value}" for key, value in toml.items())
        return "pyproject.toml", f"[tool]\nmypy = {{ {pairs} }}\n"
    return "pyproject.toml", "[tool]\n" + "".join(f"mypy.{k} = {v}\n" for k, v in toml.items())


@pytest.mark.parametrize(
    ("form", "extra"),
    [("mypy.ini", ""), ("mypy.ini", IGNORED), ("inline", ""), ("dotted", IGNORED)],
    ids=["dmypy", "mypy-once", "inline-table-dmypy", "dotted-keys-mypy-once"],
)
def test_reports_are_written_by_the_projects_mypy_alone(
    tmp_path: Path, form: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The configuration names reports at an absolute path, at `..` (leaving the copy)
    and inside the project: lspd's check, and its check of a preview's text, write none of
    them (mypy 2.4.1 run once wrote abs/linecount.txt beside the project and out.xml into
    lspd's state directory; dmypy restarted at every run, "configuration changed", and gave
    no answer; written in pyproject's inline table or dotted keys, they were refused); the
    project's own mypy writes them all, and its errors are lspd's. Nor does the user's
    MYPY_CACHE_DIR take mypy's cache out of lspd's state directory."""
    monkeypatch.setenv("MYPY_CACHE_DIR", str(tmp_path / "env-cache"))
    outside = tmp_path / "abs"
    name, config = configured(form, outside)
    root = project(
        tmp_path / "repo",
        {
            name: config,
            "app/__init__.py": "",
            "app/main.py": f'count: int = "three"\n{extra}',
        },
    )
    before = written(tmp_path)
    main = root / "app/main.py"

    async def ask(ws: Workspace) -> tuple[MypyRun, MypyRun]:
        judged = project_of(ws, main)
        assert judged is not None
        disk = await run_mypy(ws, judged)
        held = await run_mypy(ws, judged, {main: f"count: str = 3\n{extra}"})
        return disk, held

    disk, held = answer(root, ask)
    assert disk.once == held.once == bool(extra)
    new = written(tmp_path) - before
    assert {p for p in new if tmp_path / "logs" not in [p, *p.parents]} == set()
    state = written(state_dir(root))
    assert [p for p in state if p.name in REPORTS or p.name in ("precision", "inside")] == []

    def errors(run: MypyRun) -> set[Error]:
        return {
            (e.path.relative_to(root), e.line, e.column, e.code, e.message)
            for errors in run.errors.values()
            for e in errors
        }

    expected = {(Path(f), *rest) for f, *rest in cli_errors(root)}
    assert errors(disk) == expected
    assert {(p.name, line, code) for p, line, _, code, _ in expected} == {
        ("main.py", 1, "assignment"),
        *([("main.py", 2, "unused-ignore")] if extra else []),
    }
    assert {(p.name, line, code) for p, line, _, code, _ in errors(held)} == {
        ("main.py", 1, "assignment"),
        *([("main.py", 2, "unused-ignore")] if extra else []),
    }
    # The project's own run writes them: the configuration is mypy's.
    assert (outside / "linecount.txt").is_file() and (tmp_path / "out.xml").is_file()
    assert (tmp_path / "precision/lineprecision.txt").is_file()
    assert (root / "inside/any-exprs.txt").is_file()


PLUGIN = (
    "from mypy.plugin import Plugin\n\n\n"
    "def plugin(version: str) -> type[Plugin]:\n    return Plugin\n"
)
USERS_CONFIG = "[mypy]\nwarn_unused_ignores = True\nlinecount_report = {abs}\njunit_xml = {xml}\n"


@pytest.mark.parametrize(
    ("where", "extra"),
    [("xdg", ""), ("home", IGNORED)],
    ids=["xdg-config-dmypy", "home-mypy-ini-mypy-once"],
)
def test_the_user_s_configuration_writes_no_report_either(
    tmp_path: Path, where: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project has no mypy configuration (its pyproject.toml another tool's), so mypy
    reads the user's: $XDG_CONFIG_HOME/mypy/config (with a plugin file beside it, named
    relative), or ~/.mypy.ini, naming a report and a JUnit file at absolute paths and a
    cache directory. lspd's check, and its check of a
    held text, write none of them (mypy 2.4.1 run once wrote abs/linecount.txt and out.xml;
    dmypy restarted at every run, "configuration changed", and gave no answer); the user's
    own mypy writes them, and its errors, by that configuration, are lspd's."""
    env = mypy_env()  # under lspd's cache, before the user's directories move
    home, xdg, outside = tmp_path / "home", tmp_path / "xdg", tmp_path / "abs"
    monkeypatch.setenv("HOME", str(home))
    if where == "xdg":
        monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
        users = xdg / "mypy" / "config"
    else:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
        users = home / ".mypy.ini"
    users.parent.mkdir(parents=True, exist_ok=True)
    config = USERS_CONFIG.format(abs=outside, xml=tmp_path / "out.xml")
    if where == "xdg":  # a plugin file beside it, named relative: found from its directory
        (users.parent / "plug.py").write_text(PLUGIN)
        config += "plugins = plug.py\n"
    users.write_text(config + f"cache_dir = {tmp_path / 'cache'}\n")
    files = {
        "pyproject.toml": "[tool.black]\nline-length = 99\n",  # not mypy's
        "app/__init__.py": "",
        "app/main.py": f'count: int = "three"\n{extra}',
    }
    root = project(tmp_path / "repo", files, env)
    daemon = daemon_of(root, tmp_path)
    main = root / "app" / "main.py"
    before = written(tmp_path)

    async def run() -> list[tuple[bool, list[tuple[str, int, int, str | None, str]]]]:
        answers = []
        try:
            for texts in (None, {main: f"count: str = 3\n{extra}"}, None):
                if len(answers) == 2:  # the user's configuration edited: asked again
                    users.write_text(users.read_text() + "[mypy-app.*]\nignore_errors = True\n")
                output = await daemon.check(["app"], held(root, texts))
                errors = parse(output, root, daemon.mirror.directory)
                answers.append((output.once, shown(root, errors)))
        finally:
            await daemon.stop()
        return answers

    (disk_once, disk), (held_once, held_errors), (_, ignored) = asyncio.run(run())
    assert disk_once == held_once == bool(extra)
    new = written(tmp_path) - before
    assert {p for p in new if tmp_path / "state" not in [p, *p.parents]} == set()
    assert [p for p in new if p.name in REPORTS] == []
    assert ignored == cli_errors(root, "app") == []  # not the answer kept for the same texts
    users.write_text(users.read_text().replace("[mypy-app.*]\nignore_errors = True\n", ""))
    assert sorted(disk) == sorted(cli_errors(root, "app"))
    unused = [("app/main.py", 2, "unused-ignore")] if extra else []
    assert sorted((f, line, code) for f, line, _, code, _ in disk) == [
        ("app/main.py", 1, "assignment"),
        *unused,
    ]
    assert sorted((f, line, code) for f, line, _, code, _ in held_errors) == [
        ("app/main.py", 1, "assignment"),
        *unused,
    ]
    # The user's own run writes them: the configuration is mypy's.
    assert (outside / "linecount.txt").is_file() and (tmp_path / "out.xml").is_file()


def test_the_user_s_configuration_names_its_own_directory_still(tmp_path: Path) -> None:
    """lspd's mypy reads the user's configuration from a directory of lspd's: what named
    the user's directory still does (`$MYPY_CONFIG_FILE_DIR`, a plugin file given
    relative in `[mypy]`), the rest as written, the outputs left out."""
    directory = tmp_path / "xdg" / "mypy"
    directory.mkdir(parents=True)
    (directory / "config").write_text(
        "[mypy]\n"
        "mypy_path = $MYPY_CONFIG_FILE_DIR/stubs:${MYPY_CONFIG_FILE_DIR}/more\n"
        "plugins = pydantic.mypy, plug.py,\n"
        "    ../other.py:entry, /abs/p.py\n"
        "html_report = /tmp/x\n"
        "\n"
        "[mypy-app.*]\n"
        "plugins = kept.py\n"
    )
    home = tmp_path / "state" / "users"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
        patch.setenv("HOME", str(tmp_path / "home"))
        text = users_config(home)
        assert (
            (home / "mypy" / "config").read_text()
            == text
            == (
                "[mypy]\n"
                f"mypy_path = {directory}/stubs:{directory}/more\n"
                f"plugins = pydantic.mypy, {directory}/plug.py,\n"
                f"    {directory}/../other.py:entry, /abs/p.py\n"
                "\n"
                "\n"
                "[mypy-app.*]\n"
                "plugins = kept.py\n"
            )
        )
        (directory / "config").unlink()  # none of the user's: none of lspd's
        assert users_config(home) == ""
        assert not (home / "mypy" / "config").exists()
