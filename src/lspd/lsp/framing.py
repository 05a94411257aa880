"""LSP base protocol framing: `Content-Length` headers counting bytes, then a JSON body."""

from __future__ import annotations

import asyncio
import json
from typing import Any


class FramingError(Exception):
    """The peer wrote something that is not an LSP message."""


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """Read one message; None at end of stream."""
    length: int | None = None
    while True:
        line = await reader.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length is None:
                continue  # stray blank line between messages
            break
        name, sep, value = line.decode("ascii", "replace").partition(":")
        if not sep:
            raise FramingError(f"not an LSP header: {line[:80]!r}")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(f"bad Content-Length: {value.strip()[:40]!r}") from None
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
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
