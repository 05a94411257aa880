"""The streamable-HTTP side of `lspd mcp`: which headers a message travels with, and the
messages in what the daemon answers (a JSON body, or an event stream).

Plain functions on JSON-RPC dicts and bytes: the bridge never builds the MCP SDK's types,
so a message crosses it as the text it came in.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import AsyncIterator
from typing import Any

PROTOCOL_META = "io.modelcontextprotocol/protocolVersion"
# The body param a 2026-07-28 request repeats as its `Mcp-Name` header (the SDK's
# NAME_BEARING_METHODS): the daemon refuses a request whose headers and body disagree.
NAME_PARAMS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
SESSION_HEADER = "mcp-session-id"
ACCEPT = "application/json, text/event-stream"
_HEADER_SAFE = re.compile(r"[\x20-\x7e]*")
# JSON-RPC's "internal error": what the client hears when the daemon cannot answer at all.
INTERNAL_ERROR = -32603
PARSE_ERROR = -32700


def modern_version(message: Any) -> str | None:
    """The protocol version a 2026-07-28-era request carries in its `_meta` (it travels
    stateless, without a session), or None for a handshake-era message."""
    if not isinstance(message, dict) or "method" not in message:
        return None
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(PROTOCOL_META) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def modern_headers(message: dict[str, Any], version: str) -> dict[str, str]:
    """The routing headers of a stateless request, copied from its body."""
    method = str(message.get("method"))
    headers = {"mcp-protocol-version": version, "mcp-method": method}
    key = NAME_PARAMS.get(method)
    params = message.get("params")
    if key is not None and isinstance(params, dict) and isinstance(params.get(key), str):
        headers["mcp-name"] = _header_value(params[key])
    return headers


def _header_value(value: str) -> str:
    """A value as an HTTP header carries it: verbatim when printable ASCII, else in the
    protocol's `=?base64?…?=` form (the SDK's `encode_header_value`)."""
    if _HEADER_SAFE.fullmatch(value) and value == value.strip() and not value.startswith("=?"):
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


def session_headers(session_id: str | None, version: str | None) -> dict[str, str]:
    """The headers of a message inside a handshake-era session."""
    headers = {}
    if session_id:
        headers[SESSION_HEADER] = session_id
    if version:
        headers["mcp-protocol-version"] = version
    return headers


async def events(lines: AsyncIterator[str]) -> AsyncIterator[bytes]:
    """The data of each message event of an event stream (pings and comments skipped)."""
    data: list[str] = []
    kind = "message"
    async for line in lines:
        if not line:
            if data and kind == "message":
                yield "\n".join(data).encode("utf-8")
            data, kind = [], "message"
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            kind = line[6:].strip()
    if data and kind == "message":
        yield "\n".join(data).encode("utf-8")


def one_line(data: bytes) -> bytes:
    """A message as one line of stdio (the SDK writes compact JSON; a pretty one is redone)."""
    data = data.strip()
    if b"\n" in data or b"\r" in data:
        data = json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")).encode()
    return data + b"\n"


def error(request_id: Any, message: str, code: int = INTERNAL_ERROR) -> bytes:
    """A JSON-RPC error response to `request_id`, as one line."""
    body = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def refusal(request_id: Any, status: int, body: bytes) -> bytes:
    """What a request refused at the HTTP level (a session the daemon does not know, 401,
    400) answers its client: the daemon's JSON-RPC error when it sent one, for the request's
    own id (the SDK answers such errors with another id or none), else its text."""
    try:
        message = json.loads(body)
    except ValueError:
        message = None
    if isinstance(message, dict) and isinstance(message.get("error"), dict):
        message["id"] = request_id
        return one_line(json.dumps(message, ensure_ascii=False).encode())
    text = body.decode("utf-8", "replace").strip()[:300]
    return error(request_id, f"the lspd daemon answered HTTP {status}: {text}")


def result_of(data: bytes, request_id: Any) -> dict[str, Any] | None:
    """The result in `data` when it is the response to `request_id`."""
    try:
        message = json.loads(data)
    except ValueError:
        return None
    if isinstance(message, dict) and message.get("id") == request_id:
        result = message.get("result")
        return result if isinstance(result, dict) else None
    return None
