"""What `lspd mcp` sends the daemon with a message, and reads out of its answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from mcp.shared.inbound import decode_header_value

from lspd.daemon import wire

pytestmark = pytest.mark.anyio

MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "x": 1}


def test_a_request_carrying_its_version_goes_stateless_with_its_routing_headers() -> None:
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "hover", "arguments": {}, "_meta": MODERN}}  # fmt: skip
    assert wire.modern_version(call) == "2026-07-28"
    assert wire.modern_headers(call, "2026-07-28") == {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "hover",
    }
    listed = {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": MODERN}}
    assert "mcp-name" not in wire.modern_headers(listed, "2026-07-28")


def test_a_handshake_era_message_carries_no_version() -> None:
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}
    assert wire.modern_version(init) is None
    assert wire.modern_version({"jsonrpc": "2.0", "id": 0, "result": {}}) is None
    assert wire.session_headers("abc", "2025-06-18") == {
        "mcp-session-id": "abc",
        "mcp-protocol-version": "2025-06-18",
    }


@pytest.mark.parametrize("name", ["hover", "naïve", " padded", "=?base64?x?="])
def test_a_name_header_reads_back_as_the_sdk_decodes_it(name: str) -> None:
    call = {"method": "tools/call", "params": {"name": name}}
    assert decode_header_value(wire.modern_headers(call, "v")["mcp-name"]) == name


async def test_the_events_of_a_stream_are_its_message_data() -> None:
    async def lines() -> AsyncIterator[str]:
        for line in [": ping", "", "event: message", 'data: {"a":', "data: 1}", "",
                     "event: other", "data: {}", "", 'data: {"b":2}']:  # fmt: skip
            yield line

    found = [json.loads(data) async for data in wire.events(lines())]
    assert found == [{"a": 1}, {"b": 2}]


def test_each_message_is_one_line() -> None:
    assert wire.one_line(b'{"a":\n 1}') == b'{"a":1}\n'
    assert wire.one_line(b'{"a":1}\r\n') == b'{"a":1}\n'


def test_an_http_refusal_answers_the_request_by_its_own_id() -> None:
    body = b'{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"No session"}}'
    assert json.loads(wire.refusal(7, 404, body)) == {
        "jsonrpc": "2.0", "id": 7, "error": {"code": -32600, "message": "No session"},
    }  # fmt: skip
    said = json.loads(wire.refusal(7, 401, b"Unauthorized: send the token"))
    assert said["id"] == 7 and said["error"]["message"] == (
        "the lspd daemon answered HTTP 401: Unauthorized: send the token"
    )
