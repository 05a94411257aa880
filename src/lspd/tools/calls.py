"""The last tool calls, for the daemon's status page: a ring buffer of `MAX_CALLS`.

Recording must cost a call nothing worth measuring: a call's arguments are cut down to a
short form at once (a path, a position, a query; an unsaved `content` only as its length,
never its text), so the buffer holds no file contents and stays small whatever was sent.
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

MAX_CALLS = 200
SHORT_CHARS = 60  # a string argument longer than this is cut
_LONG = frozenset({"content", "new_name"})  # texts shown by their length only


@dataclass(frozen=True, slots=True)
class Call:
    """One finished tool call."""

    seq: int  # its number: the daemon's calls are numbered from 1
    tool: str
    arguments: str  # the short form (`short`)
    at: float  # wall-clock time it ended (s since the epoch)
    seconds: float
    size: int  # characters of the answer's text block
    error: str | None


class Activity:
    """Tool calls in flight: the daemon stops no idle server while one runs. `failed`: the
    errors of calls run before the MCP SDK was up (`lspd.daemon.early_calls`), by
    `call_key`, for the SDK to answer with instead of running the call a second time."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.failed: dict[str, Exception] = {}


def call_key(name: str, arguments: dict[str, Any]) -> str:
    """A call's tool and arguments as one text (defaults filled in)."""
    return name + "\0" + json.dumps(arguments, sort_keys=True, default=str)


class Calls:
    """The last `size` tool calls of a daemon, oldest first."""

    def __init__(self, root: str = "", size: int = MAX_CALLS) -> None:
        self.root = root.rstrip("/") + "/" if root else ""  # paths under it shown relative
        self.recent: deque[Call] = deque(maxlen=size)
        self.count = 0  # calls recorded in all (the last one's `seq`)

    def record(
        self, tool: str, arguments: dict[str, Any], seconds: float, size: int, error: str | None
    ) -> None:
        """A call ended after `seconds`, answering `size` characters (or `error`)."""
        self.count += 1
        shown = short(arguments, self.root)
        self.recent.append(Call(self.count, tool, shown, time.time(), seconds, size, error))


def short(arguments: dict[str, Any], root: str = "") -> str:
    """`path=a.py line=3 column=7`: the arguments given, texts by their length only, paths
    under `root` relative, a long one cut at its start (its file name stays)."""
    parts = []
    for name, value in arguments.items():
        if value is None or name == "ctx":
            continue
        if name in _LONG and isinstance(value, str):
            parts.append(f"{name}=<{len(value)} chars>")
        elif name == "changes" and isinstance(value, list):
            paths = [_path_of(change) for change in value[:3]]
            more = f" +{len(value) - 3}" if len(value) > 3 else ""
            parts.append(f"changes=[{', '.join(paths)}{more}]")
        else:
            text = str(value)
            if root:
                text = text.replace(root, "")
            cut = text if len(text) <= SHORT_CHARS else "…" + text[-(SHORT_CHARS - 1) :]
            parts.append(f"{name}={cut}")
    return " ".join(parts)


def _path_of(change: Any) -> str:
    """The path of one of `preview`'s changes (a dict, or the model it was read into)."""
    path = change.get("path") if isinstance(change, dict) else getattr(change, "path", None)
    return str(path)
