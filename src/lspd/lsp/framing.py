"""LSP base protocol framing: `Content-Length` headers counting bytes, then a JSON body."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

# A header name is an HTTP token; this tells `Content-Length: 12` from stray output such as
# `Traceback (most recent call last):`, which would otherwise be skipped as an unknown header.
_HEADER_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class FramingError(Exception):
    """The peer wrote something that is not an LSP message."""


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """Read one message; None at end of stream."""
    length: int | None = None
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # a line longer than the reader's limit
            raise FramingError("header line too long") from None
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length is None:
                continue  # stray blank line between messages
            break
        name, sep, value = line.partition(b":")
        name = name.strip()
        if not sep or not _HEADER_NAME.fullmatch(name):
            raise FramingError(f"not an LSP header: {line[:80]!r}")
        if name.lower() == b"content-length":
            text = value.strip().decode("ascii", "replace")
            if not text.isdigit():
                raise FramingError(f"bad Content-Length: {text[:40]!r}")
            length = int(text)
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        return None
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FramingError(f"body is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise FramingError("body is not a JSON object")
    return message


def encode_message(message: dict[str, Any]) -> bytes:
    """One JSON-RPC message with its `Content-Length` header, as LSP frames it."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
