"""What a refused call leaves in the daemon's log (tools/arguments.py): the answer quotes
what the caller sent, cut short; the log line holds at most an excerpt of it. A real
`lspd serve` process writes its real log file; the calls go both ways a daemon answers
them (beside the SDK, and through it with a progress token)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.tools.arguments import BOUNDED, LOGGED_CHARS, excerpt
from tests.conftest import copy_fixture
from tests.daemon.support import kill, spawn, wait_for_port
from tests.daemon.test_mcp_direct import _post

BIG = 20_000  # characters of what a caller sends
# A log line: its time, pid, level and logger, `Tool %r failed: %r`, each argument at most
# LOGGED_CHARS and the length said after it.
MOST = 120 + 2 * (LOGGED_CHARS + len("… (20000 characters)") + 2)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`lspd serve` on a copy of the Python fixture (no server prewarmed: refusals start
    none), its URL and its log file."""
    base = tmp_path_factory.mktemp("arguments")
    root, state = copy_fixture("py", base), base / "state"
    process = spawn(root, state, "--no-prewarm")
    try:
        port = wait_for_port(root)
        (directory,) = os.listdir(state)
        yield f"http://127.0.0.1:{port}/mcp", state / directory / "daemon.log"
    finally:
        kill(process)


def _both(url: str, name: str, arguments: dict[str, Any]) -> str:
    """The answer's text, the same beside the SDK and through it."""
    beside, through = (
        _post(url, name, arguments).json()["result"],
        _post(url, name, arguments, progressToken="p").json()["result"],
    )
    assert beside == through
    assert beside["isError"] is True
    text: str = beside["content"][0]["text"]
    return text


def _logged(log: Path, marker: str) -> list[str]:
    return [line for line in log.read_text(encoding="utf-8").splitlines() if marker in line]


def test_an_unknown_tool_name_is_logged_as_an_excerpt(daemon: tuple[str, Path]) -> None:
    url, log = daemon
    name = "x" * BIG
    assert _both(url, name, {}) == f"Unknown tool: {name}"  # the caller is told all of it
    lines = _logged(log, "Tool 'xxxx")
    assert len(lines) == 2  # once per call
    for line in lines:
        assert len(line) <= MOST, len(line)
        assert f"'{'x' * LOGGED_CHARS}… ({BIG} characters)' failed: " in line
        assert f"'Unknown tool: {'x' * (LOGGED_CHARS - 14)}… ({BIG + 14} characters)'" in line


def test_many_wrong_arguments_are_named_five_at_a_time(daemon: tuple[str, Path]) -> None:
    url, log = daemon
    unknown = {f"{index}{'k' * BIG}": 1 for index in range(40)}
    text = _both(url, "hover", unknown)
    assert text.startswith(
        "hover has no argument "
        + ", ".join(f"`{index}{'k' * 59}`" for index in range(5))
        + " (and 35 more). hover takes path (string)"
    )
    paths = _both(url, "workspace_diagnostics", {"paths": [1] * 50})
    assert paths.startswith(
        "; ".join(f"`paths[{index}]` must be a string, not 1" for index in range(5))
        + " (and 45 more). workspace_diagnostics takes paths"
    )
    for marker in ("Tool 'hover' failed", "Tool 'workspace_diagnostics' failed"):
        lines = _logged(log, marker)
        assert len(lines) == 2
        assert all(len(line) <= MOST for line in lines), [len(line) for line in lines]
        assert all(line.endswith(" characters)'") for line in lines)  # cut: an excerpt
    assert "k" * (LOGGED_CHARS + 1) not in log.read_text(encoding="utf-8")


def test_a_record_s_arguments_are_cut_not_its_numbers() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%r %r %s %r", None, None)
    record.args = ("a" * 300, 7, None, ["b"] * 100)
    assert BOUNDED.filter(record)
    cut: tuple[object, ...] = record.args
    listed = repr(["b"] * 100)
    assert cut == (
        f"{'a' * LOGGED_CHARS}… (300 characters)",
        7,
        None,
        f"{listed[:LOGGED_CHARS]}… ({len(listed)} characters)",
    )
    assert excerpt("short") == "short"
