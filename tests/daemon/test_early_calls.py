"""Which tool calls are answered before the MCP SDK is imported (daemon/early_calls.py): only
arguments the SDK's argument model passes on unchanged. (The bytes: tests/daemon/test_early.py.)"""

from __future__ import annotations

from lspd.daemon.early_calls import all_plain, plain
from lspd.surface.table import operation


def test_plain_arguments_only() -> None:
    hover = operation("hover")
    assert all_plain(hover, {"path": "a.py", "line": 1, "column": 2})
    assert all_plain(hover, {"symbol": "Context.invoke"})
    assert not all_plain(hover, {"path": "a.py", "line": 1.0, "column": 2})  # made an int
    assert not all_plain(hover, {"path": "a.py", "line": "1", "column": 2})  # made an int
    assert not all_plain(hover, {"path": "a.py", "line": True, "column": 2})
    assert not all_plain(hover, {"nothing": 1})
    assert plain(str | None, "[1]") is False  # the SDK reads it as JSON first
    assert plain(str | None, "null") is False
    assert plain(str | None, "12") is True  # a number stays the string
    assert plain(str, "[1]") is True
    assert plain(list[str] | None, ["a", "b"]) is True
    assert plain(list[str] | None, ["a", 1]) is False
