"""JSON-RPC over in-memory streams: answers, errors, server requests, EOF and timeouts."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from lspd.lsp.framing import encode_message, read_message
from lspd.lsp.rpc import ConnectionClosed, JsonRpcConnection, RequestTimeout, RpcError


class Pipe:
    """The writer half the client writes to; the fake peer reads it as `self.sent`."""

    def __init__(self) -> None:
        self.sent = asyncio.StreamReader()

    def write(self, data: bytes) -> None:
        self.sent.feed_data(data)

    def close(self) -> None:
        self.sent.feed_eof()


class Peer:
    """The server side of a `JsonRpcConnection`, driven by the test."""

    def __init__(self, **handlers: Any) -> None:
        self.to_client = asyncio.StreamReader()
        self.pipe = Pipe()
        self.notifications: list[tuple[str, Any]] = []
        self.connection = JsonRpcConnection(
            self.to_client,
            cast(asyncio.StreamWriter, self.pipe),
            handlers.get("on_request", self._no_requests),
            lambda method, params: self.notifications.append((method, params)),
        )
        self.connection.start()

    @staticmethod
    async def _no_requests(method: str, params: Any) -> Any:
        raise AssertionError(f"unexpected request {method}")

    def send(self, message: dict[str, Any]) -> None:
        self.to_client.feed_data(encode_message(message))

    async def receive(self) -> dict[str, Any]:
        message = await asyncio.wait_for(read_message(self.pipe.sent), 1.0)
        assert message is not None
        return message


def test_a_request_gets_its_result() -> None:
    async def scenario() -> None:
        peer = Peer()
        answer = asyncio.create_task(peer.connection.request("textDocument/hover", {"x": 1}))
        request = await peer.receive()
        assert request["method"] == "textDocument/hover"
        assert request["params"] == {"x": 1}
        peer.send({"jsonrpc": "2.0", "id": request["id"], "result": {"contents": "hi"}})
        assert await answer == {"contents": "hi"}

    asyncio.run(scenario())


def test_an_error_reply_raises_rpc_error() -> None:
    async def scenario() -> None:
        peer = Peer()
        answer = asyncio.create_task(peer.connection.request("textDocument/hover"))
        request = await peer.receive()
        assert "params" not in request  # omitted, not null (typescript-go rejects null)
        peer.send(
            {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "no"}}
        )
        with pytest.raises(RpcError) as caught:
            await answer
        assert caught.value.code == -32601

    asyncio.run(scenario())


def test_server_requests_are_answered_with_a_result_even_when_it_is_null() -> None:
    async def on_request(method: str, params: Any) -> Any:
        return None

    async def scenario() -> None:
        peer = Peer(on_request=on_request)
        peer.send({"jsonrpc": "2.0", "id": 7, "method": "workspace/diagnostic/refresh"})
        assert await peer.receive() == {"jsonrpc": "2.0", "id": 7, "result": None}

    asyncio.run(scenario())


def test_a_failing_request_handler_answers_with_an_error() -> None:
    async def on_request(method: str, params: Any) -> Any:
        raise RuntimeError("broken handler")

    async def scenario() -> None:
        peer = Peer(on_request=on_request)
        peer.send({"jsonrpc": "2.0", "id": "a", "method": "custom/thing", "params": {}})
        reply = await peer.receive()
        assert reply["id"] == "a"
        assert reply["error"]["message"] == "broken handler"

    asyncio.run(scenario())


def test_notifications_reach_the_handler() -> None:
    async def scenario() -> None:
        peer = Peer()
        peer.send({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"message": "hi"}})
        peer.send({"jsonrpc": "2.0", "id": 99, "result": "nobody asked"})  # ignored
        await asyncio.sleep(0.01)
        assert peer.notifications == [("window/logMessage", {"message": "hi"})]

    asyncio.run(scenario())


def test_end_of_stream_fails_pending_requests_at_once() -> None:
    async def scenario() -> None:
        peer = Peer()
        answer = asyncio.create_task(peer.connection.request("textDocument/hover", timeout=30))
        await peer.receive()
        peer.to_client.feed_eof()
        with pytest.raises(ConnectionClosed, match="closed its output"):
            await asyncio.wait_for(answer, 1.0)
        with pytest.raises(ConnectionClosed):
            await peer.connection.request("textDocument/hover")

    asyncio.run(scenario())


def test_garbage_closes_the_connection_with_the_reason() -> None:
    async def scenario() -> None:
        peer = Peer()
        answer = asyncio.create_task(peer.connection.request("textDocument/hover"))
        await peer.receive()
        peer.to_client.feed_data(b"Traceback (most recent call last):\n")
        with pytest.raises(ConnectionClosed, match="garbage"):
            await asyncio.wait_for(answer, 1.0)
        assert peer.connection.closed.is_set()

    asyncio.run(scenario())


def test_a_timeout_raises_and_cancels_the_request_on_the_server() -> None:
    async def scenario() -> None:
        peer = Peer()
        with pytest.raises(RequestTimeout, match=r"within 0\.1 s"):
            await peer.connection.request("textDocument/hover", timeout=0.1)
        request = await peer.receive()
        cancel = await peer.receive()
        assert cancel == {
            "jsonrpc": "2.0",
            "method": "$/cancelRequest",
            "params": {"id": request["id"]},
        }
        # A late answer to the cancelled request is ignored; the connection still works.
        peer.send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32800, "message": ""}})
        answer = asyncio.create_task(peer.connection.request("shutdown"))
        following = await peer.receive()
        peer.send({"jsonrpc": "2.0", "id": following["id"], "result": None})
        assert await answer is None

    asyncio.run(scenario())


def test_a_malformed_reply_closes_the_connection_instead_of_leaving_it_hanging() -> None:
    async def scenario() -> None:
        peer = Peer()
        answer = asyncio.create_task(peer.connection.request("textDocument/hover"))
        request = await peer.receive()
        peer.send({"jsonrpc": "2.0", "id": request["id"], "error": "not an error object"})
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(answer, 1.0)
        assert peer.connection.protocol_error is not None

    asyncio.run(scenario())


def test_told_counts_what_may_change_what_the_server_holds() -> None:
    async def on_request(method: str, params: Any) -> Any:
        return [{}] if method == "workspace/configuration" else None

    async def scenario() -> None:
        peer = Peer(on_request=on_request)
        asked = asyncio.create_task(peer.connection.request("textDocument/definition", {}))
        request = await peer.receive()
        peer.send({"jsonrpc": "2.0", "id": request["id"], "result": None})
        await asked
        assert peer.connection.told == 0  # a question of ours tells nothing
        peer.connection.notify("textDocument/didOpen", {"textDocument": {}})
        assert (await peer.receive())["method"] == "textDocument/didOpen"
        assert peer.connection.told == 1
        for number, method in enumerate(
            ["workspace/diagnostic/refresh", "client/registerCapability"]
        ):
            peer.send({"jsonrpc": "2.0", "id": number, "method": method})
            assert (await peer.receive())["id"] == number
        assert peer.connection.told == 1  # it asked to pull again, registered a watch
        peer.send({"jsonrpc": "2.0", "id": 5, "method": "workspace/configuration", "params": {}})
        assert await peer.receive() == {"jsonrpc": "2.0", "id": 5, "result": [{}]}
        assert peer.connection.told == 2  # its settings

    asyncio.run(scenario())
