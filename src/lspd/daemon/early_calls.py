"""A stateless tool call answered before the MCP SDK is imported (`lspd.daemon.early`).

What the SDK would do with the call, without it: the tool is one whose input schema was
listed (`kept_wire`); its arguments pass lspd's own checks (`surface.arguments.check`, as
`tools.arguments.LspdServer` runs them) and are the plain JSON values the SDK's argument
model passes on unchanged (`plain`: a string for a string, an integer for an integer, one of
a literal's values, no string the SDK would read as JSON), with the defaults filled in as
its model fills them; the operation runs as the SDK's tool runs it (`tools.server`: in
flight for the idle timer, the answer's compact form, the environment hint once per agent,
the call recorded for the status page); the result is the SDK's kept one filled in. Any
call that does not fit is the SDK's (False); one that fails too, the SDK answering with the
error it met, not running it again (but for one failing after `PING_AFTER_S`: `_FAILED`). Not done
here: the SDK's check of the structured content against the output model (lspd's results
are made from that model).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union

from starlette.types import Receive, Send

from lspd.daemon.kept_wire import MARK
from lspd.daemon.mcp_stream import Stream
from lspd.errors import InvalidInput
from lspd.ops.budget import compact, compact_json
from lspd.surface.arguments import check
from lspd.surface.operation import Operation, call
from lspd.surface.table import OPERATIONS
from lspd.tools.calls import Activity, Calls, call_key
from lspd.tools.hints import Told
from lspd.workspace import Workspace

log = logging.getLogger(__name__)

_TOOLS = {op.name: op for op in OPERATIONS if op.tool}
_PARAMS = frozenset({"name", "arguments", "_meta"})
_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
# A call that failed after its event stream was committed (PING_AFTER_S) cannot go to the
# SDK any more: answered with JSON-RPC's internal error (the SDK would word it its way).
_FAILED = {"code": -32603, "message": "lspd failed before the MCP SDK was up: ask again"}


@dataclass
class EarlyCalls:
    """The tool calls answered before the SDK is up, with the SDK's tools' shared state."""

    ws: Workspace
    results: dict[str, Any]  # the kept copy's (`kept_wire`)
    schemas: dict[str, Any]
    activity: Activity
    calls: Calls
    told: Told

    async def answer(
        self,
        request_id: int,
        params: dict[str, Any],
        version: str,
        name_header: str | None,
        send: Send,
        receive: Receive,
    ) -> bool:
        """Run the call and send its answer; False (nothing sent) when the SDK must."""
        shaped = self.results.get(version)
        name, arguments = params.get("name"), params.get("arguments")
        if (
            shaped is None
            or not _PARAMS.issuperset(params)
            or not isinstance(name, str)
            or name != name_header
            or not isinstance(arguments, dict | None)
            or "progressToken" in params["_meta"]
        ):
            return False
        op, schema = _TOOLS.get(name), self.schemas.get(name)
        given = arguments or {}
        if op is None or schema is None or not all_plain(op, given):
            return False
        try:
            check(name, schema, given)
        except InvalidInput:
            return False  # the SDK words the refusal
        full = {p.name: given.get(p.name, p.default) for p in op.all_params}
        began = time.perf_counter()
        stream = Stream(send, receive)
        try:
            with stream.watching():
                data = await self._run(op, full, call_key(name, full))
        except asyncio.CancelledError:
            if stream.gone:  # the client went away: nobody to answer
                return True
            raise
        if data is None and stream.committed:  # its event stream is open: answered here
            self.activity.failed.pop(call_key(name, full), None)
            failed = {"jsonrpc": "2.0", "id": request_id, "error": _FAILED}
            await stream.finish(json.dumps(failed, separators=(",", ":")).encode())
            return True
        if data is None:
            return False
        data = self.told.shorten(_agent(params["_meta"]), data)
        text = compact_json(data)
        self.calls.record(op.name, full, time.perf_counter() - began, len(text), None)
        answer = {"jsonrpc": "2.0", "id": request_id, "result": fill(shaped, text, data)}
        await stream.finish(json.dumps(answer, separators=(",", ":")).encode())
        return True

    async def _run(
        self, op: Operation, arguments: dict[str, Any], key: str
    ) -> dict[str, Any] | None:
        """The operation's compact answer; None when it failed: the SDK answers with its
        error (`Activity.failed`), never running the call a second time (a server that
        crashed under it would answer the second: the error lost)."""
        self.activity.in_flight += 1
        try:
            return compact(await call(op, self.ws, arguments))
        except Exception as exc:
            log.info("%s failed before the SDK was up: answered through it", op.name)
            if len(self.activity.failed) >= 64:  # never taken (arguments the SDK made other)
                self.activity.failed.clear()
            self.activity.failed[key] = exc
            return None
        finally:
            self.activity.in_flight -= 1


def fill(shaped: Any, text: str, data: dict[str, Any]) -> Any:
    """The kept result with the marked text block's text and the marked structured content
    replaced by the call's."""
    if shaped == {MARK: MARK}:
        return data
    if shaped == MARK:
        return text
    if isinstance(shaped, dict):
        return {key: fill(value, text, data) for key, value in shaped.items()}
    if isinstance(shaped, list):
        return [fill(value, text, data) for value in shaped]
    return shaped


def all_plain(op: Operation, arguments: dict[str, Any]) -> bool:
    """Whether each argument is a value the SDK's argument model passes on unchanged, and
    each required one is given."""
    params = {p.name: p for p in op.all_params}
    if any(p.required and p.name not in arguments for p in params.values()):
        return False
    return all(
        key in params and plain(params[key].annotation, value) for key, value in arguments.items()
    )


def plain(annotation: Any, value: Any) -> bool:
    """Whether `value` is of `annotation` as JSON gives it, exactly (no conversion), and is
    not a string the SDK reads as JSON first (`pre_parse_json`: for a type other than str)."""
    if isinstance(value, str) and annotation is not str:
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            parsed = value
        if not isinstance(parsed, str | int | float):
            return False
    return _of(annotation, value)


def _of(annotation: Any, value: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        return any(_of(option, value) for option in typing.get_args(annotation))
    if annotation is None or annotation is type(None):
        return value is None
    if origin is Literal:
        return any(type(value) is type(v) and value == v for v in typing.get_args(annotation))
    if origin is list:
        (item,) = typing.get_args(annotation)
        return type(value) is list and all(_of(item, v) for v in value)
    if annotation in (str, int, bool, float):
        return type(value) is annotation
    return False


def _agent(meta: dict[str, Any]) -> str:
    """The agent session of a stateless call: its client's name (`mcp_direct._agent`)."""
    info = meta.get(_CLIENT_INFO)
    name = info.get("name") if isinstance(info, dict) else None
    return f"client {name}" if isinstance(name, str) else "-"
