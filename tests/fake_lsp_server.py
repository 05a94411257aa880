"""A scripted language server for the faults real servers cannot be provoked into.

Standalone (standard library only); speaks LSP over stdio with `Content-Length` counted in
bytes. Run it as `python fake_lsp_server.py --mode MODE[,MODE...]` (or set `FAKE_LSP_MODE`).

Every mode behaves like a well-mannered server except for its one fault:

- `normal`: answers `initialize` (with `hoverProvider`), `textDocument/hover` (fixed markdown),
  `shutdown` and `exit`. After `initialized` it asks the client `workspace/configuration`,
  `client/registerCapability`, `window/workDoneProgress/create`, `workspace/diagnostic/refresh`
  and a method no client knows; like basedpyright, it exits with code 1 when any of them is
  answered with an error. `fake/replies` returns what the client answered (once it has).
- `crash-on-hover`: writes half an answer to a hover, then exits with code 3.
- `hang-on-hover`: never answers a hover (answers its `$/cancelRequest` with an error).
- `garbage`: writes a line of non-LSP text to stdout on hover, and keeps running.
- `malformed-hover`: answers a hover with `{"contents": 42}` (valid JSON-RPC, wrong shape).
- `malformed-diagnostics`: publishes, for each document opened, one diagnostic whose range
  starts on line -1.
- `silent-open`: publishes a document's (empty) diagnostics when it changes, never when it
  opens (as gopls seemed to in CI for a file whose list it had published before it opened).
- `exit-during-initialize`: exits with code 2 on `initialize`.
- `slow-start`: sleeps `--delay` seconds before answering `initialize`.
- `spawn-child`: starts a grandchild that sleeps for a minute and writes its pid to `--pid-file`.
- `non-ascii`: the hover contains accented letters, an emoji and the hovered line of the
  document the client opened (so miscounted lengths either way break the conversation).
- `chatty-stderr`: writes megabytes to stderr at start and on every hover.
- `refuse-diagnostics`: offers pulled diagnostics, and answers a document holding the word
  `refuse` "server cancelled the request" (-32802) every time (as ty did while other files
  changed); the others an empty report.

With `--once FILE` the fault (of a hover, or of `initialize` for the two start modes) happens
only while FILE does not exist (it is created when the fault fires), so a restarted server
behaves normally.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO

HOVER_TEXT = "**fake** hover"
NON_ASCII_TEXT = "Grüße aus Köln — café ☕ 🎉 naïve"
SERVER_REQUESTS: list[tuple[str, Any]] = [
    ("workspace/configuration", {"items": [{"section": "python"}, {"section": "fake.sub"}]}),
    (
        "client/registerCapability",
        {
            "registrations": [
                {
                    "id": "watch-1",
                    "method": "workspace/didChangeWatchedFiles",
                    "registerOptions": {},
                }
            ]
        },
    ),
    ("window/workDoneProgress/create", {"token": "fake-progress"}),
    ("workspace/diagnostic/refresh", None),
    ("fake/somethingNoClientKnows", {}),
]
MEGABYTE = b"x" * 1023 + b"\n"


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line.strip() == b"":
            if length is None:
                continue
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = stream.read(length)
    if len(body) < length:
        return None
    try:
        message: dict[str, Any] = json.loads(body.decode("utf-8"))
    except ValueError as exc:  # the client counted characters, not bytes
        sys.stderr.write(f"fake server: the client sent a bad body ({exc}): {body[:200]!r}\n")
        sys.stderr.flush()
        os._exit(4)
    return message


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


class FakeServer:
    def __init__(self, modes: set[str], delay: float, once: Path | None, pid_file: Path | None):
        self.modes = modes
        self.delay = delay
        self.once = once
        self.pid_file = pid_file
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.documents: dict[str, str] = {}
        self.outstanding: dict[int, str] = {}  # our requests to the client, by id
        self.replies: list[dict[str, Any]] = []
        self.waiting_for_replies: list[Any] = []  # ids of `fake/replies` requests
        self.hanging: set[Any] = set()
        self.grandchild: subprocess.Popen[bytes] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.stdout.write(encode(message))
        self.stdout.flush()

    def reply(self, request_id: Any, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def fail(self, request_id: Any, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})

    def fault(self, mode: str) -> bool:
        """Whether the fault of `mode` fires now."""
        if mode not in self.modes:
            return False
        if self.once is None:
            return True
        if self.once.exists():
            return False
        self.once.write_text(mode)
        return True

    def run(self) -> int:
        if "chatty-stderr" in self.modes:
            self.chatter(8)
        if "spawn-child" in self.modes:
            self.spawn_grandchild()
        while True:
            message = read_message(self.stdin)
            if message is None:
                return 0
            method = message.get("method")
            if method is None:
                self.on_reply(message)
            elif "id" in message:
                self.on_request(message["id"], method, message.get("params"))
            elif method == "exit":
                return 0
            else:
                self.on_notification(method, message.get("params"))

    def on_request(self, request_id: Any, method: str, params: Any) -> None:
        if method == "initialize":
            if self.fault("exit-during-initialize"):
                sys.stderr.write("fake server: giving up during initialize\n")
                sys.stderr.flush()
                os._exit(2)
            if self.fault("slow-start"):
                time.sleep(self.delay)
            capabilities: dict[str, Any] = {"hoverProvider": True, "textDocumentSync": 1}
            if "refuse-diagnostics" in self.modes:
                capabilities["diagnosticProvider"] = {
                    "interFileDependencies": False,
                    "workspaceDiagnostics": False,
                }
            self.reply(request_id, {"capabilities": capabilities, "serverInfo": {"name": "fake"}})
        elif method == "textDocument/hover":
            self.hover(request_id, params)
        elif method == "textDocument/diagnostic" and "refuse-diagnostics" in self.modes:
            if "refuse" in self.documents.get(params["textDocument"]["uri"], ""):
                self.fail(request_id, -32802, "server cancelled the request")
            else:
                self.reply(request_id, {"kind": "full", "items": []})
        elif method == "fake/replies":
            self.waiting_for_replies.append(request_id)
            self.answer_replies()
        elif method == "shutdown":
            self.reply(request_id, None)
        else:
            self.fail(request_id, -32601, f"unhandled method {method}")

    def hover(self, request_id: Any, params: Any) -> None:
        if "chatty-stderr" in self.modes:
            self.chatter(2)
        if self.fault("crash-on-hover"):
            self.stdout.write(b'Content-Length: 80\r\n\r\n{"jsonrpc":"2.0","id":')
            self.stdout.flush()
            os._exit(3)
        if self.fault("hang-on-hover"):
            self.hanging.add(request_id)
            return
        if self.fault("garbage"):
            self.stdout.write(b"Traceback (most recent call last): this is not LSP\n")
            self.stdout.flush()
            return
        if self.fault("malformed-hover"):
            self.reply(request_id, {"contents": 42})
            return
        value = HOVER_TEXT
        if "non-ascii" in self.modes:
            position = params["position"]
            lines = self.documents.get(params["textDocument"]["uri"], "").splitlines()
            line = lines[position["line"]] if position["line"] < len(lines) else ""
            value = f"{NON_ASCII_TEXT}\n{line}"
        self.reply(request_id, {"contents": {"kind": "markdown", "value": value}})

    def on_notification(self, method: str, params: Any) -> None:
        if method == "initialized":
            for index, (name, request_params) in enumerate(SERVER_REQUESTS, start=1000):
                self.outstanding[index] = name
                message: dict[str, Any] = {"jsonrpc": "2.0", "id": index, "method": name}
                if request_params is not None:
                    message["params"] = request_params
                self.send(message)
        elif method == "textDocument/didOpen":
            document = params["textDocument"]
            self.documents[document["uri"]] = document["text"]
            if "malformed-diagnostics" in self.modes:
                bad = {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 1}}
                published = {"uri": document["uri"], "version": document["version"]}
                published["diagnostics"] = [{"range": bad, "message": "x"}]
                self.send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                           "params": published})  # fmt: skip
        elif method == "textDocument/didChange":
            self.documents[params["textDocument"]["uri"]] = params["contentChanges"][-1]["text"]
            if "silent-open" in self.modes:
                published = {**params["textDocument"], "diagnostics": []}
                self.send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                           "params": published})  # fmt: skip
        elif method == "$/cancelRequest":
            request_id = params["id"]
            if request_id in self.hanging:
                self.hanging.discard(request_id)
                self.fail(request_id, -32800, "request cancelled")

    def on_reply(self, message: dict[str, Any]) -> None:
        method = self.outstanding.pop(message.get("id"), "?")  # type: ignore[arg-type]
        if "error" in message:
            sys.stderr.write(f"fake server: {method} got an error reply: {message['error']}\n")
            sys.stderr.flush()
            os._exit(1)  # what basedpyright does for workspace/diagnostic/refresh
        if "result" not in message:
            sys.stderr.write(f"fake server: {method} got a reply without a result\n")
            sys.stderr.flush()
            os._exit(1)
        self.replies.append({"method": method, "result": message["result"]})
        self.answer_replies()

    def answer_replies(self) -> None:
        if self.outstanding or not self.replies:
            return
        while self.waiting_for_replies:
            self.reply(self.waiting_for_replies.pop(), self.replies)

    def chatter(self, megabytes: int) -> None:
        for _ in range(megabytes * 1024):
            sys.stderr.buffer.write(MEGABYTE)
        sys.stderr.buffer.flush()

    def spawn_grandchild(self) -> None:
        self.grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        if self.pid_file is not None:
            self.pid_file.write_text(str(self.grandchild.pid))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mode", default=os.environ.get("FAKE_LSP_MODE", "normal"))
    parser.add_argument("--delay", type=float, default=float(os.environ.get("FAKE_LSP_DELAY", 5)))
    parser.add_argument("--once", type=Path, default=None)
    parser.add_argument("--pid-file", type=Path, default=None)
    args = parser.parse_args()
    modes = {mode.strip() for mode in args.mode.split(",") if mode.strip()}
    return FakeServer(modes, args.delay, args.once, args.pid_file).run()


if __name__ == "__main__":
    sys.exit(main())
