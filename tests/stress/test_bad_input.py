"""Malformed tool calls through the real MCP SDK client against a real daemon.

Each one is a tool error (`isError`) whose message says what was wrong (the keyword checked
here); after all of them the daemon is healthy and the well-formed calls answer exactly as
they did before. (Single-operation checks are in tests/ops/test_bad_input.py; this is the
whole path an agent takes: JSON arguments, the SDK's validation, the tools, the server.)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp import Client

from lspd.daemon.client import stateless_post
from tests.daemon.support import ThreadDaemon, health, wait_for_servers
from tests.tools.calls import CALLS, text_of
from tests.tools.conftest import served

__all__ = ["served"]

pytestmark = pytest.mark.anyio

APP = "pkg/app.py"
AT = {"path": APP, "line": 5, "column": 15}  # a well-formed position, to spoil one part of
HUGE = 9 * 1024 * 1024

# (tool, arguments, a word the error must hold)
BAD: list[tuple[str, dict[str, Any], str]] = [
    # wrong types and missing or unknown arguments
    ("hover", {**AT, "line": "five"}, "`line` must be an integer"),
    ("hover", {**AT, "line": 1.5}, "`line` must be an integer"),
    ("hover", {**AT, "column": True}, "`column` must be an integer, not true"),
    ("hover", {**AT, "path": 5}, "`path` must be a string"),
    ("definition", {**AT, "path": ["pkg/app.py"]}, "`path` must be a string"),
    ("hover", {**AT, "col": 3}, "no argument `col`"),
    ("references", {**AT, "include_declarations": False}, "no argument `include_declarations`"),
    ("references", {**AT, "include_declaration": "maybe"}, "must be a boolean"),
    ("diagnostics", {}, "`path` is required"),
    ("diagnostics", {"path": None}, "`path` must be a string"),
    ("diagnostics", {"path": APP, "content": 42}, "`content` must be a string"),
    ("diagnostics", {"path": APP, "limit": "ten"}, "`limit` must be an integer"),
    ("workspace_symbols", {}, "`query` is required"),
    ("workspace_symbols", {"query": ["Greeter"]}, "`query` must be a string"),
    ("workspace_diagnostics", {"paths": "pkg/*.py"}, "`paths` must be a list"),
    ("workspace_diagnostics", {"paths": [7]}, "`paths[0]` must be a string"),
    ("document_symbols", {"path": APP, "depth": "all"}, "`depth` must be an integer"),
    ("call_hierarchy", {**AT, "direction": "sideways"}, "'incoming' or 'outgoing'"),
    ("type_definition", {}, "symbol"),
    ("no_such_tool", {}, "Unknown tool"),
    # ranges
    ("hover", {**AT, "line": 0}, "lines start at 1"),
    ("definition", {**AT, "line": -3}, "lines start at 1"),
    ("hover", {**AT, "column": 0}, "columns start at 1"),
    ("hover", {**AT, "line": 2**70}, "past the end"),
    ("implementation", {**AT, "column": 300}, "past the end of line 5"),
    ("references", {**AT, "limit": 0}, "`limit` must be a positive integer"),
    ("references", {**AT, "limit": -1}, "`limit` must be a positive integer"),
    ("document_symbols", {"path": APP, "depth": 0}, "`depth` must be a positive integer"),
    ("hover", {"path": APP, "line": 5}, "send both `line` and `column`"),
    ("hover", {**AT, "symbol": "Greeter"}, "not both"),
    # paths
    ("hover", {**AT, "path": ""}, "`path` is empty"),
    ("hover", {**AT, "path": "pkg/app.py\x00.txt"}, "NUL byte"),
    ("diagnostics", {"path": "x" * 5000}, "File name too long"),
    ("diagnostics", {"path": "/etc/hostname"}, "outside the workspace"),
    ("diagnostics", {"path": "../../../etc/passwd"}, "outside the workspace"),
    ("diagnostics", {"path": "pkg/escape.py"}, "outside the workspace"),  # a symlink
    ("diagnostics", {"path": "pkg"}, "is a directory"),
    ("definition", {**AT, "path": "pkg/ñandú.py"}, "pkg/ñandú.py does not exist"),
    ("diagnostics", {"path": "pkg/blob.py"}, "binary"),
    ("diagnostics", {"path": "pkg/latin1.py"}, "not UTF-8"),
    ("diagnostics", {"path": "pkg/pipe.py"}, "not a regular file"),  # a FIFO: never read it
    ("diagnostics", {"path": ".big/huge.py"}, "over the"),
    ("hover", {**AT, "path": "notes.txt"}, "no language server handles notes.txt"),
    # contents, encodings and sizes
    ("diagnostics", {"path": APP, "content": "x = 1\x00\n"}, "NUL byte"),
    ("diagnostics", {"path": APP, "content": "x" * HUGE}, "over the"),
    ("workspace_diagnostics", {"paths": ["../*"]}, "stay inside it"),
    ("workspace_diagnostics", {"paths": ["/etc/*.py"]}, "stay inside it"),
    # symbols
    ("definition", {"symbol": ""}, "`symbol` is empty"),
    ("definition", {"symbol": "NoSuchThing.anywhere"}, "NoSuchThing"),
    ("references", {"symbol": "x" * 10_000}, "10000 characters long"),
    ("call_hierarchy", {"symbol": "nothing_is_called_this"}, "nothing_is_called_this"),
    ("workspace_symbols", {"query": "  "}, "`query` is empty"),
    ("workspace_symbols", {"query": "Greeter", "kind": "spaceship"}, "not a symbol kind"),
]

# Lone surrogates: JSON allows "\ud800" (JavaScript's JSON.stringify writes it), but the SDK
# client cannot encode it, so these go as raw JSON-RPC POSTs.
BAD_UNICODE: list[tuple[str, dict[str, Any], str]] = [
    ("hover", {**AT, "path": "pkg/\ud800.py"}, "`path` is not valid Unicode"),
    ("definition", {"symbol": "Greeter\udfff"}, "`symbol` is not valid Unicode"),
    ("workspace_symbols", {"query": "Gre\ud800eter"}, "`query` is not valid Unicode"),
    ("diagnostics", {"path": APP, "content": "x = '\udc80'\n"}, "`content` is not valid Unicode"),
]


@pytest.fixture(scope="module")
def daemon(served: ThreadDaemon, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The served fixture project, plus every kind of file that is not a source file."""
    root = served.daemon.root
    (root / "pkg/blob.py").write_bytes(b"\x7fELF\x00\x01\x02")
    (root / "pkg/latin1.py").write_bytes("été = 1\n".encode("latin-1"))
    os.mkfifo(root / "pkg/pipe.py")
    outside = tmp_path_factory.mktemp("outside") / "secret.py"
    outside.write_text("password = 'hunter2'\n")
    (root / "pkg/escape.py").symlink_to(outside)
    (root / ".big").mkdir()
    (root / ".big/huge.py").write_bytes(b"x = 1\n" * (HUGE // 6))
    (root / "notes.txt").write_text("not code\n")
    yield served


def raw_call(url: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A stateless `tools/call` POST, its JSON escaped as ASCII (lone surrogates survive)."""
    body, headers = stateless_post("tools/call", {"name": tool, "arguments": arguments}, tool)
    response = httpx.post(url, content=body, headers=headers, timeout=60)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()["result"]
    return result


async def well_formed_answers(client: Client) -> dict[str, Any]:
    answers = {}
    for name, arguments in CALLS.items():
        result = await client.call_tool(name, arguments)
        assert not result.is_error, (name, text_of(result))
        answers[name] = result.structured_content
    # A server may be re-indexing after the fixture's new files (basedpyright reports work
    # progress again): the state is compared once it settles, at the end of the test.
    status = {k: v for k, v in answers["status"].items() if k != "uptime_s"}
    moving = ("state", "rss_mb")  # its memory moves too
    status["servers"] = [{k: v for k, v in s.items() if k not in moving} for s in status["servers"]]
    answers["status"] = status
    return answers


async def test_malformed_calls_get_useful_errors_and_change_nothing(daemon: ThreadDaemon) -> None:
    assert len(BAD) + len(BAD_UNICODE) >= 40
    async with Client(daemon.url) as client:
        before = await well_formed_answers(client)
        wrong: list[str] = []
        for tool, arguments, expected in BAD:
            result = await client.call_tool(tool, arguments)
            message = text_of(result)
            if not result.is_error or expected not in message:
                wrong.append(f"{tool} {str(arguments)[:80]}: {message[:300]}")
            elif len(message) > 1000 or "validation error" in message:
                wrong.append(f"{tool} {str(arguments)[:80]}: too wordy: {message[:300]}")
        for tool, arguments, expected in BAD_UNICODE:
            answer = raw_call(daemon.url, tool, arguments)
            message = "\n".join(c.get("text", "") for c in answer["content"])
            if not answer.get("isError") or expected not in message:
                wrong.append(f"{tool} (raw) {arguments!r:.80}: {message[:300]}")
        assert wrong == []
        after = await well_formed_answers(client)
    assert after == before
    assert health(daemon.daemon.port or 0)["status"] == "ok"
    servers = wait_for_servers(daemon.daemon.port or 0, states=("ready",))
    assert [s["state"] for s in servers] == ["ready"]
