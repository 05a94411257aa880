"""The MCP SDK's answers kept from the last run, so the next start answers before the SDK is
imported (issue 43: the import was most of a cold start; `lspd.daemon.early`).

What is kept, all of it as the SDK put it on the wire in an earlier run:
- `answers`: the whole response (status, headers, body) of each `server/discover` and
  `tools/list` request the SDK answered, by the request itself (method, protocol version,
  params: a client sends the same ones every time); the request's id is put in on replay;
- `envelopes`: each request envelope (`params._meta`) the SDK's checks let through;
- `results`: per protocol version, the result of a tools/call as the SDK shapes it
  (`mcp_direct.Direct.result_of`) around a marked text and structured content;
- `schemas`: each tool's input schema as listed (lspd's own argument checks read them).

A copy is read only under its key: lspd's version and the stamp of each of its source files,
and the installed SDK's, pydantic's and starlette's distributions (what shapes the tool
list and the bytes). A copy with another key is stale: never read (another checkout of lspd
may still read it), removed once unused for `UNUSED_DAYS`. The copy lives in the user's
cache directory (`lspd.dirs.cache_dir`), shared by every workspace: nothing in it depends
on one; `LSPD_WIRE_DIR` names another folder (the tests' own).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from lspd import __version__
from lspd.dirs import cache_dir

log = logging.getLogger(__name__)

FOLDER = "mcp-wire"
MARK = "\x00lspd-kept"  # the text and structured content a kept result is made around
# The distributions whose code shapes what the SDK sends (their dist-info names carry the
# installed versions) besides lspd's own files.
SHAPING = ("mcp", "mcp_types", "pydantic", "pydantic_core", "starlette")
KEPT_METHODS = frozenset({"server/discover", "tools/list"})
UNUSED_DAYS = 7


def wire_key() -> str:
    """The key of the copy this code may read: lspd's version and its source files' stamps,
    the Python version, and the shaping distributions (a few ms: stats, no imports)."""
    digest = hashlib.sha256(f"{__version__}\n{sys.version}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".json")):
                stat = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    for name in SHAPING:
        digest.update(_distribution(name).encode())
    return digest.hexdigest()[:20]


def _distribution(name: str) -> str:
    """The installed distribution of a top-level package: its dist-info's name and the
    stamp of its `__init__.py`; '' when not installed."""
    spec = find_spec(name)
    if spec is None or spec.origin is None:
        return f"{name}: none\n"
    origin = Path(spec.origin)
    site = origin.parent.parent
    infos = sorted(n for n in os.listdir(site) if n.startswith(f"{name}-") and "info" in n)
    stat = origin.stat()
    return f"{name}: {origin} {stat.st_size} {stat.st_mtime_ns} {infos}\n"


def fingerprint(method: str, version: str, params: Any) -> str:
    """A request as the kept answers are looked up by (its id left out)."""
    return json.dumps([method, version, params], sort_keys=True, separators=(",", ":"))


def envelope_of(meta: Any) -> str:
    """An envelope (`params._meta`) as kept."""
    return json.dumps(meta, sort_keys=True, separators=(",", ":"))


@dataclass
class Answer:
    """One kept response: the body around the request's id (`head` + id + `tail`)."""

    status: int
    headers: list[tuple[bytes, bytes]]  # without content-length (set on replay)
    head: bytes
    tail: bytes

    def body(self, request_id: int) -> bytes:
        return self.head + str(request_id).encode() + self.tail


@dataclass
class KeptWire:
    """The copy for one key (empty when none was kept)."""

    key: str
    answers: dict[str, Answer] = field(default_factory=dict)
    envelopes: set[str] = field(default_factory=set)
    results: dict[str, Any] = field(default_factory=dict)
    schemas: dict[str, Any] = field(default_factory=dict)
    changed: bool = False  # not yet written since something was added

    def keep_answer(
        self,
        key: str,
        request_id: int,
        status: int,
        headers: list[tuple[bytes, bytes]],
        body: bytes,
    ) -> None:
        """The SDK's response to a request (`fingerprint`) with the integer `request_id`;
        not kept when the id cannot be told apart in the body."""
        id_text = b'"id":' + str(request_id).encode()
        if key in self.answers or body.count(id_text) != 1:
            return
        at = body.index(id_text) + len(b'"id":')
        kept = [(k, v) for k, v in headers if k.lower() != b"content-length"]
        self.answers[key] = Answer(status, kept, body[:at], body[at + len(str(request_id)) :])
        self.changed = True

    def keep_schemas(self, result: Any) -> bool:
        """The input schemas of a whole tools/list result (no next page), but those the SDK
        checks Mcp-Param headers against (`mcp_direct.Direct._direct_tools`); whether
        they were new."""
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list) or "nextCursor" in result:
            return False
        schemas = {
            t["name"]: t["inputSchema"]
            for t in tools
            if isinstance(t, dict) and "x-mcp-header" not in json.dumps(t.get("inputSchema"))
        }
        if schemas == self.schemas:
            return False
        self.schemas, self.changed = schemas, True
        return True

    def keep_envelope(self, meta: Any) -> None:
        text = envelope_of(meta)
        if text not in self.envelopes:
            self.envelopes.add(text)
            self.changed = True

    def dumps(self) -> str:
        answers = {
            k: {
                "status": a.status,
                "headers": [[n.decode("latin-1"), v.decode("latin-1")] for n, v in a.headers],
                "head": a.head.decode("utf-8"),
                "tail": a.tail.decode("utf-8"),
            }
            for k, a in self.answers.items()
        }
        return json.dumps(
            {
                "key": self.key,
                "answers": answers,
                "envelopes": sorted(self.envelopes),
                "results": self.results,
                "schemas": self.schemas,
            }
        )


def folder() -> Path:
    """Where the copies are kept (the user's cache: every workspace's daemon reads it).
    `LSPD_WIRE_DIR` overrides (the tests' daemons keep theirs apart from the user's)."""
    if override := os.environ.get("LSPD_WIRE_DIR"):
        return Path(override)
    return cache_dir() / FOLDER


def load(key: str) -> KeptWire:
    """The copy kept under `key`, else an empty one (an unreadable file counts as none)."""
    path = folder() / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return KeptWire(key)
        answers = {
            k: Answer(
                int(a["status"]),
                [(n.encode("latin-1"), v.encode("latin-1")) for n, v in a["headers"]],
                a["head"].encode("utf-8"),
                a["tail"].encode("utf-8"),
            )
            for k, a in data["answers"].items()
        }
        with contextlib.suppress(OSError):  # read: in use, not removed as unused
            os.utime(path)
        return KeptWire(
            key, answers, set(data["envelopes"]), dict(data["results"]), dict(data["schemas"])
        )
    except FileNotFoundError:
        return KeptWire(key)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        log.warning("the kept MCP answers in %s are unreadable: made anew", path)
        return KeptWire(key)


def save(kept: KeptWire) -> None:
    """Write the copy now (`write`)."""
    write(kept.key, kept.dumps())
    kept.changed = False


def write(key: str, text: str) -> None:
    """Write a copy's text (temp file and rename: a reader sees the old or the new one) and
    remove the copies neither written nor read for `UNUSED_DAYS`."""
    where = folder()
    try:
        where.mkdir(parents=True, exist_ok=True)
        path = where / f"{key}.json"
        temp = where / f".{key}.{os.getpid()}.tmp"
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)
        unused = time.time() - UNUSED_DAYS * 86400
        for old in where.glob("*.json"):
            with contextlib.suppress(OSError):
                if old.stat().st_mtime < unused:
                    old.unlink()
    except OSError:
        log.warning("the MCP answers could not be kept in %s", where, exc_info=True)
