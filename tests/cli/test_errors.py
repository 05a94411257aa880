"""No traceback reaches a user: every subcommand, given hostile input, fails in one line.

The cases are made from the parser itself (every subcommand, every argument naming a file
or a directory), so a new command or flag is covered without touching this file: missing
files, files that cannot be read as text, directories where files are expected, files
where directories are expected, and empty stdin for every `-`.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from lspd.cli import build_parser, main
from lspd.cli.errors import describe, for_cli
from lspd.errors import ServerTimeout
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon

# Positionals that name a file or directory (by dest), and options that name a file.
PATHS = {"path", "paths", "targets", "root"}
FILE_FLAG_SUFFIXES = ("-file", "--changes", "--patch")


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    [action] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _positionals(parser: argparse.ArgumentParser, value: str) -> list[str] | None:
    """Every positional filled: `value` where a path goes (None when the command has no
    such place); a choice or a word elsewhere."""
    out: list[str] = []
    placed = False
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.dest == "position":
            out.append(f"{value}:1:1")
            placed = True
        elif action.dest in PATHS:
            out.append(value)
            placed = True
        elif action.choices:
            out.append(str(next(iter(action.choices))))
        else:
            out.append("name")
    return out if placed else None


def _good(parser: argparse.ArgumentParser, ok: str) -> list[str]:
    """Positionals that are fine, to put a bad file in an option beside them."""
    out: list[str] = []
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.dest == "position":
            out.append(f"{ok}:1:1")
        elif action.dest in ("path",):
            out.append(ok)
        elif action.choices:
            out.append(str(next(iter(action.choices))))
        elif action.nargs not in ("?", "*"):
            out.append("name")
    return out


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


def _file_flags(parser: argparse.ArgumentParser) -> list[str]:
    return sorted(f for f in _flags(parser) if f.endswith(FILE_FLAG_SUFFIXES))


def _cases(where: Path) -> list[tuple[str, list[str], str]]:
    """(id, argv, stdin) for every subcommand and every way of naming a bad file."""
    (where / "a directory").mkdir()
    (where / "binary.py").write_bytes(b"\xff\xfe\x00\x81 not text")
    (where / "ok.py").write_text("x = 1\n")
    bad = {
        "missing": str(where / "missing.py"),
        "directory": str(where / "a directory"),
        "not text": str(where / "binary.py"),
        "under a file": str(where / "ok.py" / "inside.py"),
    }
    cases: list[tuple[str, list[str], str]] = []
    for name, parser in _subcommands().items():
        flags = _flags(parser)
        json_flag = ["--json"] if "--json" in flags else []
        made = 0
        for kind, value in bad.items():
            if kind == "directory" and name == "serve":
                continue  # a directory is what serve takes: it would serve it
            filled = _positionals(parser, value)
            if filled is not None:
                cases.append((f"{name} {kind}", [name, *filled, *json_flag], ""))
                made += 1
            if "--root" in flags and kind != "directory":
                argv = [name, *_good(parser, "ok.py"), "--root", value, *json_flag]
                cases.append((f"{name} --root {kind}", argv, ""))
                made += 1
            for flag in _file_flags(parser):
                argv = [name, *_good(parser, "ok.py"), flag, value, *json_flag]
                cases.append((f"{name} {flag} {kind}", argv, ""))
                made += 1
        for flag in _file_flags(parser):
            argv = [name, *_good(parser, "ok.py"), flag, "-", *json_flag]
            cases.append((f"{name} {flag} empty stdin", argv, ""))
            made += 1
        if name == "hook":  # stdin is its input
            cases.append((f"{name} empty stdin", [name, *_good(parser, "ok.py")], ""))
            made += 1
        assert made or name == "schema", f"no hostile case for `lspd {name}`"  # takes nothing
    return cases


def test_every_subcommand_fails_in_one_line_on_bad_files(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    where = tmp_path_factory.mktemp("hostile")
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))  # `sync` and `servers` may look there
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.chdir(where)
    seen: dict[str, int] = {}
    for case, argv, stdin in _cases(where):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(argv)
        out, err = capsys.readouterr()
        seen[case] = code
        assert "Traceback" not in out + err, case
        said = [line for line in err.splitlines() if not line.startswith("lspd: checking")]
        assert len(said) <= 1, (case, err)
        if code == 2 and "--json" in argv:
            [line] = out.splitlines()
            assert set(json.loads(line)) == {"error", "kind"}, case
            assert err == "", case
        elif code == 2:
            assert err.startswith("lspd: "), (case, err)
    commands = {case.split()[0] for case in seen}
    assert commands == set(_subcommands()) - {"schema"}
    # A file the command line names that is missing or not a file is bad input: exit 2.
    for case, code in seen.items():
        if any(f" {flag} " in case for flag in FILE_FLAG_SUFFIXES) and "stdin" not in case:
            assert code == 2, case
    for case, code in seen.items():  # a root that is no directory, too
        if " --root " in case:
            assert code == 2, case
    assert seen["diagnostics missing"] == 2
    assert seen["hover directory"] == 2
    assert seen["preview --changes empty stdin"] == 2


def test_a_missing_content_file_is_one_json_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("x = 1\n")
    assert main(["diagnostics", "a.py", "--content-file", "NOFILE", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "--content-file NOFILE: no such file; send an existing file (or - for stdin)",
        "kind": "invalid_input",
    }
    assert main(["preview", "--changes", str(tmp_path), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == (
        f"--changes {tmp_path} is a directory; send a file (or - for stdin)"
    )


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hover", "--limit", "x"]) == 2
    assert capsys.readouterr().err == ("lspd: unrecognized arguments: --limit; see `lspd --help`\n")
    assert main(["references", "--limit", "x", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "references: argument --limit: invalid int value: 'x'; "
        "see `lspd references --help`",
        "kind": "invalid_input",
    }


def test_an_unexpected_failure_is_one_line_naming_it() -> None:
    assert describe(RuntimeError("boom"), "check") == (
        "lspd failed in `lspd check` (RuntimeError: boom); LSPD_DEBUG=1 shows where",
        "internal",
    )
    assert describe(ServerTimeout("basedpyright", "basedpyright timed out"))[1] == (
        "server_timeout"
    )


def test_errors_are_worded_for_the_command_line() -> None:
    # The operations word their advice for MCP; the CLI says what to type instead.
    assert for_cli("Use `workspace_symbols` to search, or send `path`, `line` and `column`") == (
        "Use `lspd workspace-symbols` to search, or send PATH:LINE:COL"
    )
    assert for_cli(
        "x is not in a git repository, so there is no 'HEAD'; send "
        '`baseline: "session"` (the files as lspd first read them since the daemon started)'
    ) == (
        "x is not in a git repository, so there is no 'HEAD'; send "
        "`--baseline session` (the files as lspd first read them since the daemon started)"
    )
    assert for_cli("send `path` with `line` and `column` (1-based), or `symbol`") == (
        "send PATH:LINE:COL (1-based), or `--symbol`"
    )
    assert for_cli("`offset` 9 is past the end; `limit` must be positive") == (
        "`--offset` 9 is past the end; `--limit` must be positive"
    )
    assert for_cli("`content` contains a NUL byte") == "`--content-file` contains a NUL byte"
    assert for_cli("`query` is empty; try `document_symbols`") == (
        "QUERY is empty; try `lspd document-symbols`"
    )
    assert for_cli("no such name `Greeter`") == "no such name `Greeter`"


def test_an_error_through_main_is_worded_for_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("x = 1\n")
    assert main(["diagnostics", "a.py", "--baseline", "HEAD"]) == 2
    assert capsys.readouterr().err == (
        f"lspd: {tmp_path} is not in a git repository, so there is no 'HEAD'; send "
        "`--baseline session` (the files as lspd first read them since the daemon started)\n"
    )


def test_an_error_through_the_daemon_is_the_error_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same line and the same kind, warm or cold: the tool error carries the operation's
    # kind (it said `refused` for every error, a timeout too).
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    monkeypatch.chdir(root)
    asks = [
        ["hover", "--symbol", "Nope.nothing", "--json"],
        ["hover", "pkg/greeting.py:12:2", "--json"],
        ["diagnostics", "pkg/nothing.py", "--json"],
    ]
    cold = []
    for argv in asks:
        assert main(argv) == 2
        cold.append(json.loads(capsys.readouterr().out))
    with thread_daemon(root, prewarm=False):
        for argv, answer in zip(asks, cold, strict=True):
            assert main(argv) == 2
            assert json.loads(capsys.readouterr().out) == answer
    assert [a["kind"] for a in cold] == ["invalid_input"] * 3
    assert "send PATH:LINE:COL" in cold[0]["error"]
    assert cold[1]["error"] == (
        "pkg/greeting.py:12:2 is on the keyword `class`, not on a name; the nearest name on "
        "line 12 is `Greeter` at column 7"
    )
