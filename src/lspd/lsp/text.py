"""Text as LSP sees it: lines split on \\n, \\r\\n and \\r only, and file URIs."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them (`\n`, `\r\n` and `\r` all end one)."""
    return _LINE_BREAK.split(text)


# Both once per path (both immutable): a warm answer converts the same few paths several
# times, and pathlib's quoting and parsing cost more than the rest of naming a location.
@functools.lru_cache(maxsize=8192)
def path_to_uri(path: Path) -> str:
    """A `file://` URI of an absolute path."""
    return path.as_uri()


@functools.lru_cache(maxsize=8192)
def uri_to_path(uri: str) -> Path | None:
    """The path of a `file://` URI; None for another scheme."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))
