"""The turns a daemon kept for the one after it (`daemon/turns.py`): the latest sessions,
and nothing from a torn file."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from lspd.daemon import turns
from lspd.dirs import state_dir
from lspd.ops.turn_start import TurnStart


def test_the_latest_sessions_are_kept_and_a_torn_file_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "p"
    assert turns.began(root, "s") is None
    for number in range(turns.MAX_SESSIONS + 1):
        turns.remember(root, f"s{number}", number)
    turns.remember(root, "s1", 100)  # its new turn: the most recent now
    assert turns.began(root, "s0") is None  # the oldest, forgotten
    assert (turns.began(root, "s1"), turns.began(root, "s2")) == (100, 2)
    (state_dir(root) / turns.FILE).write_text('{"s1": 1')
    assert turns.began(root, "s1") is None


def test_a_turns_start_is_kept_compressed_read_back_against_its_baseline_and_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What differed from the baseline as the turn began, read back by the next daemon as
    recorded (`kept`: its watcher's count is not this one's); another baseline's, a start not
    recorded (None) or one past the cap is none: nothing is set aside then."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "p"
    texts: dict[Path, str | None] = {root / "pkg/a.py": "x = 1\n" * 1000, root / "gone.py": None}
    start = TurnStart("HEAD", "0" * 40, 7, texts, 123)
    turns.keep_start(root, "s", start)
    kept = next((state_dir(root) / turns.STARTS).iterdir())
    assert kept.stat().st_size < 200  # 6,000 characters of text, compressed
    assert turns.kept_start(root, "s", "HEAD") == TurnStart("HEAD", "0" * 40, -1, texts, 123, True)
    assert turns.kept_start(root, "s", "HEAD~1") is None
    assert turns.kept_start(root, "other", "HEAD") is None
    turns.keep_start(root, "s", None)  # this turn's start was not recorded: the last goes
    assert turns.kept_start(root, "s", "HEAD") is None
    monkeypatch.setattr(turns, "MAX_BYTES", 50)
    turns.keep_start(root, "s", start)
    assert turns.kept_start(root, "s", "HEAD") is None
    monkeypatch.setattr(turns, "MAX_BYTES", 4 << 20)
    turns.keep_start(root, "s", start)
    kept.write_bytes(kept.read_bytes()[:20])  # torn
    assert turns.kept_start(root, "s", "HEAD") is None


def test_sessions_remembered_at_once_are_each_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prompts of several sessions at once (the daemon's threads): each read, changed and
    wrote turns.json, and one session's line was lost (79 of 200 tries, the reviewer's)."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "p"
    together = threading.Barrier(4)

    def prompts(thread: int) -> None:
        together.wait()
        for number in range(16):
            turns.remember(root, f"t{thread}-{number}", number)

    workers = [threading.Thread(target=prompts, args=(t,)) for t in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [turns.began(root, f"t{t}-{n}") for t in range(4) for n in range(16)] == [
        n for _ in range(4) for n in range(16)
    ]
