"""Calling the daemon of a workspace (found by `finding`), for the CLI and scripts.

Light on purpose: a bare socket (`loopback`: not even `http.client`), no MCP SDK (importing it
costs about a second, more than a warm answer) and no httpx (40 ms of a hook's 150 ms). A tool
call is one stateless MCP request (protocol 2026-07-28: a single POST, no handshake), answered
with the same `structuredContent` an agent gets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from lspd.daemon import loopback
from lspd.daemon.binding import HOST
from lspd.daemon.finding import HEALTH_TIMEOUT_S, Probe, find_daemon
from lspd.errors import ERROR_KIND_META, DaemonError, LspdError

PROTOCOL_VERSION = "2026-07-28"
# A daemon answers before its MCP SDK is imported (`early`), but a request it has no kept
# answer for waits for the import: 0.8-1.1 s quiet, 3-5 s on a loaded machine.
LIST_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 120.0
ERRORS_HEADER = "x-lspd-errors"  # GET /check: the check's count of errors
UNANSWERED_HEADER = "x-lspd-unanswered"  # GET /check: files no server answered
JSON = {"Content-Type": "application/json"}


class Response:
    """An HTTP answer from the daemon, read whole."""

    # Plain classes here, not dataclasses: importing `dataclasses` (and `inspect` with it) is
    # ~5 ms of every CLI command's start.
    def __init__(self, status_code: int, headers: dict[str, str], text: str) -> None:
        self.status_code = status_code
        self.headers = headers
        self.text = text

    def json(self) -> Any:
        return json.loads(self.text)


def _http(
    found: Probe, method: str, path: str, timeout: float, body: bytes = b"", **more: str
) -> Response:
    """One loopback HTTP request to the daemon `found`, its token sent with the headers
    `more`: never through a proxy, never TLS. Raises `OSError` (the port refuses, the answer
    times out) or `loopback.NotHttp`: catch `_unanswered()`."""
    headers = {**found.headers, **more}
    answer = loopback.request(HOST, found.port or 0, method, path, headers, timeout, body)
    return Response(answer[0], answer[1], answer[2].decode("utf-8", errors="replace"))


def _unanswered() -> tuple[type[Exception], ...]:
    """What `_http` raises when nothing (or not HTTP) answers."""
    return (OSError, loopback.NotHttp)


class ToolFailed(LspdError):
    """The daemon's tool refused the request; the message and kind are the operation's own."""

    def __init__(self, message: str, kind: str = "refused") -> None:
        super().__init__(message)
        self.kind = kind


def call_tool(
    root: Path, tool: str, arguments: dict[str, Any], timeout: float = CALL_TIMEOUT_S
) -> dict[str, Any] | None:
    """Call an MCP tool on the daemon of `root`; its `structuredContent`, or None when no
    daemon runs (the caller then runs the operation in-process). A tool error raises
    `ToolFailed` with the operation's message, exactly as the operation would have."""
    found = find_daemon(root)
    if found is None:
        return None
    return call_on(found, tool, arguments, timeout)


def call_on(
    found: Probe, tool: str, arguments: dict[str, Any], timeout: float = CALL_TIMEOUT_S
) -> dict[str, Any]:
    """One stateless MCP `tools/call` POST to a daemon known to be up."""
    result = _request(found, "tools/call", {"name": tool, "arguments": arguments}, timeout, tool)
    if result.get("isError"):
        texts = [c.get("text", "") for c in result.get("content", []) if c.get("type") == "text"]
        text = "\n".join(texts) or f"{tool} failed"
        kind = (result.get("_meta") or {}).get(ERROR_KIND_META, "refused")
        raise ToolFailed(_strip_prefix(text, tool), str(kind))
    structured = result.get("structuredContent")
    if not isinstance(structured, dict):
        raise DaemonError(f"the daemon's {tool} answered without structuredContent")
    return structured


def check_everything(
    found: Probe, paths: list[str] | None, timeout: float, every: bool = False
) -> tuple[str, int, int]:
    """The daemon's whole check (GET /check): every diagnostic at once, for `lspd check`, as
    the JSON text it sent (`--json` prints it as it is: tens of MB for a large project), its
    count of errors and of files not answered (headers: the exit code needs no parse of the
    text). `every`: every source file, not only the gate's."""
    query = "&".join([f"path={quote(p)}" for p in paths or []] + (["all=1"] if every else []))
    try:
        response = _http(found, "GET", f"/check?{query}", timeout)
    except _unanswered() as exc:
        raise DaemonError(f"the daemon at {found.url} did not answer: {exc}") from None
    if response.status_code != 200:
        failed = response.json()
        raise ToolFailed(
            str(failed.get("error", response.text[:300])), failed.get("kind", "refused")
        )
    errors = response.headers.get(ERRORS_HEADER)
    unanswered = int(response.headers.get(UNANSWERED_HEADER) or 0)
    if errors is None:
        return response.text, int(response.json()["errors"]), unanswered
    return response.text, int(errors), unanswered


def check_progress(found: Probe, timeout: float = HEALTH_TIMEOUT_S) -> dict[str, Any]:
    """How far the daemon's running check is: `done`, `total`, `seconds` ({} when none runs
    or the daemon does not answer in time: progress is only ever a courtesy)."""
    try:
        response = _http(found, "GET", "/check/progress", timeout)
        answer = response.json() if response.status_code == 200 else {}
    except Exception:
        return {}
    return answer if isinstance(answer, dict) else {}


def hook(found: Probe, request: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The daemon's answer to an agent's hook (POST /hook, `lspd.daemon.feedback`)."""
    body = json.dumps(request).encode()
    try:
        response = _http(found, "POST", "/hook", timeout, body, **JSON)
    except _unanswered() as exc:
        raise DaemonError(f"the daemon at {found.url} did not answer: {exc}") from None
    if response.status_code != 200:
        raise DaemonError(f"the daemon answered /hook with HTTP {response.status_code}")
    answer: dict[str, Any] = response.json()
    return answer


def list_tools(found: Probe, timeout: float = LIST_TIMEOUT_S) -> list[str]:
    """The names of the daemon's MCP tools (an MCP `tools/list`, as an agent would ask)."""
    result = _request(found, "tools/list", {}, timeout)
    return [str(tool.get("name")) for tool in result.get("tools", [])]


def stateless_post(
    method: str, params: dict[str, Any], name: str | None = None
) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one stateless MCP request (`name`: the tool's, if any), as
    the CLI posts it to /mcp."""
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": method,
        "params": {
            **params,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientInfo": {"name": "lspd-cli", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    headers = {
        **JSON,
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL_VERSION,
        "Mcp-Method": method,
        **({"Mcp-Name": name} if name else {}),
    }
    return json.dumps(request).encode(), headers


def _request(
    found: Probe, method: str, params: dict[str, Any], timeout: float, name: str | None = None
) -> dict[str, Any]:
    body, headers = stateless_post(method, params, name)
    try:
        assert found.port is not None
        response = _http(found, "POST", "/mcp", timeout, body, **headers)
    except _unanswered() as exc:
        raise DaemonError(f"the daemon at {found.url} did not answer: {exc}") from None
    message = _json_rpc_message(response)
    if "error" in message:
        error = message["error"]
        raise DaemonError(f"the daemon refused {name or method}: {error.get('message', error)}")
    result: dict[str, Any] = message.get("result") or {}
    return result


def _strip_prefix(text: str, tool: str) -> str:
    prefix = f"Error executing tool {tool}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def _json_rpc_message(response: Response) -> dict[str, Any]:
    """The JSON-RPC response in a JSON body or in an SSE stream (after any notifications)."""
    if response.status_code >= 400 and "json" not in response.headers.get("content-type", ""):
        raise DaemonError(f"the daemon answered HTTP {response.status_code}: {response.text[:200]}")
    content_type = response.headers.get("content-type", "")
    if content_type.startswith("text/event-stream"):
        for block in response.text.split("\n\n"):
            data = "\n".join(
                line[5:].lstrip() for line in block.splitlines() if line.startswith("data:")
            )
            if not data:
                continue
            message = json.loads(data)
            if isinstance(message, dict) and ("result" in message or "error" in message):
                return message
        raise DaemonError("the daemon's answer held no JSON-RPC response")
    try:
        message = response.json()
    except ValueError:
        raise DaemonError(f"the daemon's answer is not JSON: {response.text[:200]}") from None
    if not isinstance(message, dict):
        raise DaemonError("the daemon's answer is not a JSON-RPC message")
    return message
