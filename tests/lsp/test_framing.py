"""LSP framing: `Content-Length` counts bytes of UTF-8, headers are checked, EOF ends the stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from lspd.lsp.framing import FramingError, encode_message, read_message


def read_all(data: bytes) -> list[dict[str, Any] | None]:
    """Feed `data` to a stream reader, then read messages until the end of the stream."""

    async def scenario() -> list[dict[str, Any] | None]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        messages: list[dict[str, Any] | None] = []
        while True:
            message = await read_message(reader)
            messages.append(message)
            if message is None:
                return messages

    return asyncio.run(scenario())


def test_content_length_counts_bytes_not_characters() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "result": "café ☕ 🎉"}
    encoded = encode_message(message)
    header, body = encoded.split(b"\r\n\r\n", 1)
    assert header == b"Content-Length: %d" % len(body)
    assert len(body) > len(body.decode("utf-8"))  # more bytes than characters
    assert read_all(encoded) == [message, None]


def test_non_ascii_is_sent_as_utf8_not_escaped() -> None:
    encoded = encode_message({"value": "naïve"})
    assert "naïve".encode() in encoded


def test_a_length_counted_in_characters_is_not_read_as_a_message() -> None:
    body = json.dumps({"value": "Grüße 🎉"}, ensure_ascii=False)
    wrong = b"Content-Length: %d\r\n\r\n%s" % (len(body), body.encode("utf-8"))
    with pytest.raises(FramingError, match="not JSON"):
        read_all(wrong)


def test_several_messages_and_extra_headers() -> None:
    first, second = {"id": 1, "result": None}, {"method": "exit"}
    data = (
        encode_message(first)
        + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
        + encode_message(second)
    )
    assert read_all(data) == [first, second, None]


@pytest.mark.parametrize(
    "garbage",
    [b"hello from the server\n", b"Traceback (most recent call last):\n", b"\x00\xff: x\r\n"],
)
def test_garbage_header_is_a_framing_error(garbage: bytes) -> None:
    with pytest.raises(FramingError, match="not an LSP header"):
        read_all(garbage)


@pytest.mark.parametrize("value", [b"ten", b"-1"])
def test_bad_content_length_is_a_framing_error(value: bytes) -> None:
    with pytest.raises(FramingError, match="Content-Length"):
        read_all(b"Content-Length: " + value + b"\r\n\r\n{}")


def test_body_that_is_not_an_object_is_a_framing_error() -> None:
    with pytest.raises(FramingError, match="not a JSON object"):
        read_all(b"Content-Length: 2\r\n\r\n[]")


def test_end_of_stream_gives_none() -> None:
    assert read_all(b"") == [None]
    assert read_all(b"Content-Length: 10\r\n") == [None]  # EOF inside the headers
    assert read_all(b'Content-Length: 10\r\n\r\n{"id"') == [None]  # EOF inside the body


def test_a_line_longer_than_the_reader_limit_is_a_framing_error() -> None:
    async def scenario() -> None:
        reader = asyncio.StreamReader(limit=64)
        reader.feed_data(b"x" * 200 + b"\n")
        reader.feed_eof()
        await read_message(reader)

    with pytest.raises(FramingError, match="too long"):
        asyncio.run(scenario())
