"""The status page's list of tool calls: bounded, numbered, and never holding a file's text."""

from __future__ import annotations

from lspd.daemon.live import latency
from lspd.tools.calls import MAX_CALLS, Calls, short


def test_texts_are_shown_by_their_length_only() -> None:
    secret = "password = 'hunter2'\n" * 50
    shown = short({"path": "a.py", "content": secret, "new_name": "x" * 80, "line": 3})
    assert shown == "path=a.py content=<1050 chars> new_name=<80 chars> line=3"


def test_preview_changes_are_shown_by_their_paths() -> None:
    changes = [{"path": f"pkg/m{i}.py", "content": "import os\n"} for i in range(5)]
    assert short({"changes": changes}) == "changes=[pkg/m0.py, pkg/m1.py, pkg/m2.py +2]"


def test_paths_under_the_root_are_relative_and_a_long_one_keeps_its_end() -> None:
    root = "/home/me/project"
    assert short({"path": f"{root}/src/app.py", "symbol": None}, root + "/") == "path=src/app.py"
    deep = "a/" * 40 + "file.py"
    assert short({"path": deep}) == "path=…" + deep[-59:]


def test_the_buffer_keeps_the_last_calls_numbered() -> None:
    calls = Calls("/root")
    for i in range(MAX_CALLS + 5):
        calls.record("hover", {"path": "/root/a.py", "line": i}, 0.001, 10, None)
    assert len(calls.recent) == MAX_CALLS and calls.count == MAX_CALLS + 5
    assert [c.seq for c in calls.recent][:2] == [6, 7]
    assert calls.recent[-1].arguments == f"path=a.py line={MAX_CALLS + 4}"


def test_latency_is_p50_and_p95_per_tool_by_nearest_rank() -> None:
    calls = Calls()
    for ms in range(1, 101):
        calls.record("hover", {}, ms / 1000, 10, None)
    calls.record("status", {}, 0.002, 10, "failed")
    [hover, status] = latency(calls.recent)
    assert (hover.tool, hover.count, hover.p50_ms, hover.p95_ms) == ("hover", 100, 50.0, 95.0)
    assert (status.count, status.errors, status.p50_ms, status.p95_ms) == (1, 1, 2.0, 2.0)
