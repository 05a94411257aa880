"""The turns a daemon kept for the one after it (`daemon/turns.py`): the latest sessions,
and nothing from a torn file."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.daemon import turns
from lspd.dirs import state_dir


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
