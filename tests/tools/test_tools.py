"""The MCP tools over a real daemon, with the SDK's real client, on basedpyright."""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
import pytest
from mcp import Client

from lspd.surface.table import TOOL_NAMES, result_models
from lspd.tools.server import INSTRUCTIONS
from tests.daemon.support import ThreadDaemon, health
from tests.tools.calls import CALLS, text_of

pytestmark = pytest.mark.anyio

RESULT_MODELS = result_models()

MODES = ["auto", "legacy"]  # auto = protocol 2026-07-28 (no handshake); legacy = initialize

POSITION_TOOLS = {
    "hover",
    "definition",
    "type_definition",
    "implementation",
    "references",
    "call_hierarchy",
    "rename",
}


async def test_tools_are_read_only_with_output_schemas(served: ThreadDaemon) -> None:
    async with Client(served.url) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == set(TOOL_NAMES) == set(CALLS)
    for name, tool in tools.items():
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True, name
        assert tool.annotations.open_world_hint is False, name
        if name == "status":  # operational: its schema is not worth its place in every session
            assert tool.output_schema is None
            continue
        assert tool.output_schema is not None, name
        assert set(RESULT_MODELS[name].model_json_schema()["properties"]) == set(
            tool.output_schema["properties"]
        ), name
        assert tool.description and len(tool.description) > 40, name
        if name in POSITION_TOOLS:
            # The position rule is said once, in the server instructions.
            assert tool.description.endswith(" Position or `symbol`."), name
            assert {"path", "line", "column", "symbol"} <= set(tool.input_schema["properties"])


def test_the_instructions_say_the_position_rule_once() -> None:
    assert (
        "1-based" in INSTRUCTIONS and "`symbol`" in INSTRUCTIONS and "next_offset" in INSTRUCTIONS
    )


async def test_the_tool_list_is_small(served: ThreadDaemon) -> None:
    async with Client(served.url) as client:
        listed = await client.list_tools()
    read = [
        {"name": t.name, "description": t.description, "inputSchema": t.input_schema}
        for t in listed.tools
    ]
    # What a model reads of every tool, and the whole tools/list result, as compact JSON.
    assert len(json.dumps(read, separators=(",", ":"))) <= 5_000
    whole = listed.model_dump(mode="json", by_alias=True, exclude_none=True)
    # (16,000 since issue 32: `references` and `call_hierarchy` say what is `unresolved`;
    # 17,500 since issues 24 and 27 added `scope`, `skipped` and `environment` to the check's
    # output schema; 21,000 since issue 31 added `rename` and `fixes`, whose output schemas
    # carry the diagnostics and changes their checks list; 21,500 since issue 29 had the
    # answers about a file say which TypeScript or Python answered (`toolchain`, 5 results);
    # 22,100 since issue 27 paged what a change introduced: `fixed_total` in the `Changes` of
    # 5 output schemas, preview's `total` and `truncated`; 25,700 since issue 30 added
    # `unchecked` (imports not checked through) to those `Changes` (+3,240)
    # and issue 31 paged the files of a rename and the fixes (`total`, `truncated`,
    # `next_offset`; `limit` and `offset` in: +280); 26,650 since issue 44 gave a diagnostic
    # mypy's `notes` (5 output schemas) and a file's result its `checker` (+945); 27,200
    # since issue 43 had references, implementation and call_hierarchy list the uses
    # `outside` the gate's files (+510); 27,650 since issue 43 had a rename's page say when
    # its diff is part of the rename (`partial`: +163) and hover say its range (the spec's
    # hover row: +263); 30,700 since issue 40 had a comparison say which checker stopped at a
    # syntax error and the baseline errors it did not check, no longer called fixed
    # (`stopped`, in the `Changes` of 5 output schemas: +3,036); 30,850 since issue 40 had a
    # check without a baseline say where tsc or mypy stopped (`stopped`: +144); 31,100 since
    # issue 40 had a comparison say which files a change renamed (`renamed`, in the `Changes`
    # of 5 output schemas: +405); 31,750 since issue 40 had a comparison say that the
    # baseline's checker stopped and what it did not check there, not introduced
    # (`baseline_stopped`, 5 output schemas: +610); 31,950 since issue 40 had preview paged
    # as every list over the answer budget (`limit`, `offset` in, `files_total`,
    # `next_offset` out: +150 of the 31,750; +50 room); 33,000 since issue 40 had a
    # comparison say that a part of a mixed gate was not compared at the baseline and why
    # (`Stopped.why`, 5 output schemas), the first page of `fixed` where the rest is, and a
    # skipped file's reason mypy's `files` (+975, +75 room). What a model reads, above,
    # keeps its 5,000.)
    assert len(json.dumps(whole, separators=(",", ":"))) <= 33_000


@pytest.mark.parametrize("mode", MODES)
async def test_every_tool_answers_in_both_protocol_modes(served: ThreadDaemon, mode: str) -> None:
    async with Client(served.url, mode=mode) as client:
        if mode == "legacy":
            assert client.protocol_version.startswith("2025-")
        else:
            assert client.protocol_version == "2026-07-28"
        answers = {}
        for name, arguments in CALLS.items():
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, text_of(result))
            assert result.structured_content is not None, name
            answers[name] = RESULT_MODELS[name].model_validate(result.structured_content)
        calls = await client.call_tool("references", {**CALLS["references"], "kind": "calls"})
    assert "class Greeter" in answers["hover"].contents
    # Call sites only: no import, declaration or annotation.
    assert {f["path"]: f["count"] for f in (calls.structured_content or {})["files"]} == {
        "pkg/app.py": 1,
        "pkg/extra.py": 1,
        "pkg/greeting.py": 1,
        "pkg/unicode_names.py": 1,
    }
    assert [loc.path for loc in answers["definition"].locations] == ["pkg/greeting.py"]
    by_file = {f.path: f.count for f in answers["references"].files}
    assert by_file == {
        "pkg/app.py": 2,
        "pkg/extra.py": 3,
        "pkg/greeting.py": 4,
        "pkg/unicode_names.py": 2,
    }
    assert answers["workspace_symbols"].symbols[0].name_path == "Greeter"
    assert [c.symbol for c in answers["call_hierarchy"].calls] == ["main"]
    assert answers["diagnostics"].errors >= 1 and answers["diagnostics"].fresh


async def test_answers_are_right(served: ThreadDaemon) -> None:
    async with Client(served.url) as client:
        definition = (await client.call_tool("definition", CALLS["definition"])).structured_content
        assert definition is not None
        assert definition["locations"][0]["path"] == "pkg/greeting.py"
        assert "def make_greeter" in definition["locations"][0]["text"]
        broken = (await client.call_tool("diagnostics", CALLS["diagnostics"])).structured_content
        # Compact: `fresh` holds its default (true), so it is left out.
        assert broken is not None and "fresh" not in broken and broken["errors"] >= 1
        by_symbol = await client.call_tool("hover", {"symbol": "Greeter.greet"})
        assert by_symbol.structured_content is not None
        assert "greet" in by_symbol.structured_content["contents"]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"path": "pkg/missing.py", "line": 1, "column": 1}, "missing.py"),
        ({"path": "pkg/app.py", "line": 999, "column": 1}, "999"),
        ({"path": "../outside.py", "line": 1, "column": 1}, "outside"),
        ({"path": "pkg", "line": 1, "column": 1}, "director"),
        ({"path": "pkg/app.py", "line": "one", "column": 1}, "line"),
        ({"symbol": "NoSuchThingAnywhere"}, "NoSuchThingAnywhere"),
        ({}, "symbol"),
    ],
)
@pytest.mark.parametrize("mode", MODES)
async def test_bad_input_is_a_tool_error_and_the_daemon_keeps_serving(
    served: ThreadDaemon, mode: str, arguments: dict[str, Any], expected: str
) -> None:
    async with Client(served.url, mode=mode) as client:
        result = await client.call_tool("hover", arguments)
        assert result.is_error
        assert expected in text_of(result)
        again = await client.call_tool("hover", CALLS["hover"])
        assert not again.is_error
    assert health(served.daemon.port or 0)["status"] == "ok"


async def test_eight_concurrent_clients_times_100_calls(served: ThreadDaemon) -> None:
    calls = [("hover", CALLS["hover"]), ("definition", CALLS["definition"]), ("status", {})]
    failures: list[str] = []
    done = 0

    async def one_client(index: int) -> None:
        nonlocal done
        mode = MODES[index % 2]
        async with Client(served.url, mode=mode) as client:
            for i in range(100):
                name, arguments = calls[(index + i) % len(calls)]
                result = await client.call_tool(name, arguments)
                if result.is_error or result.structured_content is None:
                    failures.append(f"{name}: {text_of(result)}")
                done += 1

    started = time.monotonic()
    async with anyio.create_task_group() as group:
        for index in range(8):
            group.start_soon(one_client, index)
    elapsed = time.monotonic() - started
    assert failures == []
    assert done == 800
    assert elapsed < 60, f"800 calls took {elapsed:.1f} s"
