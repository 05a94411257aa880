"""The query commands (`lspd hover`, `lspd references`, ...): derived from the table of
operations, the same answers and the same argument checks in-process and through a daemon."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest

from lspd.cli import COMMAND_MODULES, build_parser, main
from lspd.cli.query import arguments, run_tool
from lspd.errors import InvalidInput
from lspd.surface.table import OPERATIONS, operation
from tests.conftest import copy_fixture
from tests.daemon.support import cli_through_daemon, thread_daemon


def _subcommands(command: str | None = None) -> dict[str, argparse.ArgumentParser]:
    parser = build_parser(command)
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_each_command_module_defines_the_commands_it_is_listed_with() -> None:
    # build_parser("serve") imports only the module listed with serve; the query commands
    # are the table's, and no listed command is one of them.
    listed = [command for commands in COMMAND_MODULES.values() for command in commands]
    queries = [op.command for op in OPERATIONS if op.command is not None]
    queries += [alias for op in OPERATIONS for alias in op.aliases]  # `symbols`
    assert sorted(_subcommands()) == sorted(listed + queries)
    for commands in COMMAND_MODULES.values():
        for command in commands:
            assert sorted(_subcommands(command)) == sorted(commands)


def test_every_operation_with_a_command_is_a_subcommand_with_its_parameters() -> None:
    commands = _subcommands()
    for op in OPERATIONS:
        if op.command is None:
            continue
        parser = commands[op.command]
        dests = {a.dest for a in parser._actions}
        assert {p.name for p in op.params} <= dests, op.name
        assert ("position" in dests and "symbol" in dests) == op.position, op.name


def test_command_line_to_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "new.py").write_text("x = 1\n")
    parse = build_parser().parse_args
    refs = parse(["references", "pkg/app.py:5:15", "--no-declaration", "--limit", "3"])
    assert arguments(refs, operation("references")) == {
        "path": str(tmp_path / "pkg/app.py"),
        "line": 5,
        "column": 15,
        "include_declaration": False,
        "limit": 3,
    }
    calls = parse(["call-hierarchy", "--symbol", "make_greeter", "--direction", "outgoing"])
    assert arguments(calls, operation("call_hierarchy")) == {
        "symbol": "make_greeter",
        "direction": "outgoing",
    }
    check = parse(["diagnostics", "pkg/app.py", "--content-file", "new.py"])
    assert arguments(check, operation("diagnostics")) == {
        "path": str(tmp_path / "pkg/app.py"),
        "content": "x = 1\n",
    }
    unsaved = parse(["hover", "pkg/app.py", "--symbol", "Fresh", "--content-file", "new.py"])
    assert arguments(unsaved, operation("hover")) == {
        "path": str(tmp_path / "pkg/app.py"),
        "symbol": "Fresh",
        "content": "x = 1\n",
    }
    scan = parse(["workspace-diagnostics", "pkg/*.py", "--limit", "5"])
    assert arguments(scan, operation("workspace_diagnostics")) == {
        "paths": ["pkg/*.py"],
        "limit": 5,
    }
    assert arguments(parse(["workspace-diagnostics"]), operation("workspace_diagnostics")) == {}


@pytest.mark.parametrize(
    ("tool", "given", "message"),
    [
        ("hover", {"col": 3}, "hover has no argument `col`. hover takes path (string)"),
        ("references", {"symbol": "Greeter", "limit": True}, "`limit` must be an integer"),
        ("workspace_symbols", {}, "`query` is required"),
        ("call_hierarchy", {"symbol": "main", "direction": "up"}, "`direction` must be 'incoming'"),
    ],
)
def test_in_process_calls_check_arguments_as_mcp_does(
    tmp_path: Path, tool: str, given: dict[str, object], message: str
) -> None:
    root = copy_fixture("py", tmp_path)
    with pytest.raises(InvalidInput) as error:
        run_tool(root, tool, given)
    assert message in str(error.value)


def test_json_is_the_same_in_process_and_through_the_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    command = ["definition", str(root / "pkg/app.py:5:15"), "--root", str(root), "--json"]
    assert main(command) == 0
    cold = capsys.readouterr().out
    with thread_daemon(root, prewarm=False):
        assert main(command) == 0
        warm = capsys.readouterr().out
        assert main(command[:-1]) == 0
        text = capsys.readouterr().out
    assert cold == warm
    [location] = json.loads(warm)["locations"]
    assert (location["path"], location["line"]) == ("pkg/greeting.py", 28)
    assert text == "pkg/greeting.py:28:5: def make_greeter(name: str) -> Greeter:  [make_greeter]\n"


def test_a_bad_position_is_exit_2_with_what_to_send(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hover", "pkg/app.py:five", "--root", str(tmp_path)]) == 2
    assert "is not PATH:LINE:COLUMN" in capsys.readouterr().err


# What a query through a running daemon must not import: the CLI is what agents' hooks run
# on every edit, and each of these costs tens of milliseconds of start-up.
HEAVY = ("pydantic", "httpx", "mcp", "lspd.workspace", "lspd.lsp.session", "lspd.ops.navigation")


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "text"])
def test_a_query_through_the_daemon_imports_nothing_heavy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: list[str]
) -> None:
    # The text form is rendered from the wire form (lspd.cli.render), not from the models.
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    argv = ["diagnostics", str(root / "pkg/broken.py"), *form]
    answer, last, stderr = cli_through_daemon(root, argv, HEAVY, timeout=60)
    assert last == "0 []", stderr
    if form:
        assert json.loads(answer[0])["errors"] == 1
    else:
        assert answer[0].startswith("pkg/broken.py:2:12: error: Type ")
        assert answer[-1] == "1 error(s), 0 warning(s) (basedpyright)"


def test_text_through_the_daemon_is_the_text_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    greeting = str(root / "pkg/greeting.py")
    commands = {
        ("references", f"{greeting}:12:7", "--limit", "2"): [
            "pkg/app.py:1:26: from pkg.greeting import Greeter, make_greeter",
            'pkg/app.py:10:12: return Greeter("you").greet("!!")  [shout]',
            "pkg/extra.py: 3 reference(s)",
            "pkg/greeting.py: 4 reference(s)",
            "pkg/unicode_names.py: 2 reference(s)",
            "11 references in 4 files; no other use of `Greeter` in the checked files "
            "(no `unresolved`)",
            "… 2 of 11 shown; `--offset 2` for the rest",
        ],
        ("symbols", greeting, "--limit", "3"): [
            "pkg/greeting.py",
            "  class Speaker  :8:7",
            "    method Speaker.speak  :9:9",
            "  class Greeter  :12:7",
            "… 3 of 13 shown; `--offset 3` for the rest",
        ],
        ("call-hierarchy", "--symbol", "main", "--direction", "outgoing"): [
            "function main (pkg/app.py:4) calls:",
            "  function make_greeter (defined pkg/greeting.py:28) at pkg/app.py:5:15: "
            'greeter = make_greeter("world")',
            "  method Greeter.greet (defined pkg/greeting.py:18) at pkg/app.py:6:20: "
            "return greeter.greet()",
            "2 calls in 1 file",
        ],
        ("hover", str(root / "pkg/app.py:5:15")): [
            "```python",
            "(function) def make_greeter(name: str) -> Greeter",
            "```",
        ],
        ("workspace-symbols", "zzzzqqq"): ["no symbol matches"],
        ("diagnostics", str(root / "pkg/app.py")): [
            "pkg/app.py: no errors or warnings (basedpyright)"
        ],
    }
    cold = {}
    for command in commands:
        assert main([*command, "--root", str(root)]) == 0
        cold[command] = capsys.readouterr().out.splitlines()
    with thread_daemon(root, prewarm=False):
        for command, expected in commands.items():
            assert main([*command, "--root", str(root)]) == 0
            assert capsys.readouterr().out.splitlines() == expected == cold[command], command


def test_references_print_the_unresolved_uses_and_the_one_line_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_fixture("dynamic_py", tmp_path)
    assert main(["references", "--symbol", "Store.fetch", "--root", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3:] == [
        'dyn/store.py:24:18: return store.fetch("b")  [untyped]  (unresolved)',
        'dyn/store.py:28:18: return store.fetch("c")  [anything]  (unresolved)',
        'dyn/store.py:32:28: return getattr(store, "fetch")("d")  [dynamic]  (unresolved)',
        'dyn/use.py:5:28: return hasattr(thing, "fetch") and thing.fetch("f") == '
        'Store().fetch("g")  [handed]  (unresolved)',
        'dyn/use.py:5:46: return hasattr(thing, "fetch") and thing.fetch("f") == '
        'Store().fetch("g")  [handed]  (unresolved)',
        'scripts/outside.py:5:18: return store.fetch("outside the files the gate checks")  '
        "[run]  (outside)",
        "3 references in 2 files; 5 more uses of `.fetch` whose receiver the checker cannot "
        "type, 2 by name in getattr/setattr/hasattr (`unresolved`); 1 more use of `.fetch` in "
        "1 file the gate does not check, not asked (`outside`; `all` asks about them)",
    ]
    assert main(["references", "--symbol", "Store.fetch", "--json", "--root", str(root)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert list(answer) == [
        "total",
        "summary",
        "files",
        "unresolved",
        "unresolved_total",
        "candidates",
        "outside",
        "outside_total",
        "toolchain",
    ]
    assert answer["toolchain"] is not None and answer["toolchain"].startswith("python ")
    assert answer["unresolved"][0] == {
        "path": "dyn/store.py",
        "count": 3,
        "references": [
            {"line": 24, "column": 18, "text": 'return store.fetch("b")', "symbol": "untyped"},
            {"line": 28, "column": 18, "text": 'return store.fetch("c")', "symbol": "anything"},
            {
                "line": 32,
                "column": 28,
                "text": 'return getattr(store, "fetch")("d")',
                "symbol": "dynamic",
            },
        ],
    }
    off = ["references", "--symbol", "Store.fetch", "--no-unresolved", "--root", str(root)]
    assert main(off) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "3 references in 2 files; uses the checker cannot resolve not looked for: "
        "`unresolved: false` was sent"
    )


def test_with_a_baseline_the_answer_is_what_is_new_in_text_and_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # diagnostics and workspace-diagnostics against HEAD: exit code, counts and list are the
    # introduced ones (pkg/broken.py's old error is unchanged: counted, never listed).
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *command], check=True)
    monkeypatch.chdir(root)
    broken = root / "pkg/broken.py"
    broken.write_text(broken.read_text() + "x: int = 'new'\n")
    asks = {
        "diagnostics": ["diagnostics", "pkg/broken.py", "--baseline", "HEAD"],
        "workspace": ["workspace-diagnostics", "--baseline", "HEAD"],
    }
    with thread_daemon(root, prewarm=False):
        for name, argv in asks.items():
            assert main([*argv, "--json"]) == 1, name
            answer = json.loads(capsys.readouterr().out)
            assert main(argv) == 1, name
            text = capsys.readouterr().out.splitlines()
            [new] = answer["changes"]["introduced"]
            assert (new["path"], new["line"], new["code"]) == (
                "pkg/broken.py",
                3,
                "reportAssignmentType",
            )
            assert (answer["errors"], answer["total"]) == (1, 1), name
            assert "diagnostics" not in answer and answer["changes"]["fixed"] == []
            assert text[0].startswith("pkg/broken.py:3:10: error: Type ")
            unchanged = {"diagnostics": 1, "workspace": 3}[name]  # the gate's every file (95788f7)
            assert text[-1].startswith(
                f"1 new since HEAD (1 error(s), 0 warning(s)), 0 fixed, {unchanged} "
            )
            assert sum(": error: " in line for line in text) == 1, name
        broken.write_text(broken.read_text().replace("x: int = 'new'\n", ""))
        for name, argv in asks.items():
            assert main([*argv, "--json"]) == 0, name
            answer = json.loads(capsys.readouterr().out)
            assert answer["changes"]["introduced"] == [] and answer["errors"] == 0
            assert main(argv) == 0
            assert capsys.readouterr().out.startswith("0 new since HEAD (0 error(s), ")
