"""`lspd check`'s progress on stderr: silent for 2 s, then a few lines, never one per file."""

from __future__ import annotations

import io
import threading

import pytest

from lspd.cli import progress
from lspd.cli.progress import Progress


class Lines(io.StringIO):
    """A stream that says when it has been written `wanted` lines."""

    def __init__(self, wanted: int, terminal: bool = False) -> None:
        super().__init__()
        self.wanted = wanted
        self.terminal = terminal
        self.enough = threading.Event()

    def isatty(self) -> bool:
        return self.terminal

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.getvalue().count("\n" if not self.terminal else "\r") >= self.wanted:
            self.enough.set()
        return written


def test_quick_checks_say_nothing() -> None:
    stream = Lines(1)
    with Progress(stream=stream) as shown:
        shown.update(255, 255)
    assert stream.getvalue() == ""


def test_a_log_gets_a_line_now_and_then_with_files_and_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "AFTER_S", 0.0)
    monkeypatch.setattr(progress, "LOG_EVERY_S", 0.01)
    stream = Lines(2)
    shown = Progress(stream=stream)
    shown.update(120, 255)  # as the check's callback does
    with shown:
        assert stream.enough.wait(10)
    first, second = stream.getvalue().splitlines()[:2]
    assert first == second == "lspd: checking 120/255 files, 0 s"


def test_the_daemons_counts_are_polled_and_a_terminal_line_is_wiped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "AFTER_S", 0.0)
    monkeypatch.setattr(progress, "TERMINAL_EVERY_S", 0.01)
    stream = Lines(2, terminal=True)
    with Progress(poll=lambda: (3, 7), stream=stream):
        assert stream.enough.wait(10)
    text = stream.getvalue()
    assert text.startswith("\rlspd: checking 3/7 files, 0 s\rlspd: checking 3/7 files, 0 s")
    assert text.endswith("\r" + " " * len("lspd: checking 3/7 files, 0 s") + "\r")
    assert "\n" not in text
