"""The MCP answers kept from an earlier run (daemon/kept_wire.py): a copy is read only under
its own key. (Served and made anew by a real daemon: tests/daemon/test_early.py.)"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lspd.daemon import kept_wire


def test_a_copy_under_another_key_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept_wire, "folder", lambda: tmp_path)
    kept = kept_wire.KeptWire("one")
    kept.keep_envelope({"a": 1})
    kept_wire.save(kept)
    assert kept_wire.load("one").envelopes == {'{"a":1}'}
    (tmp_path / "two.json").write_text((tmp_path / "one.json").read_text())
    assert kept_wire.load("two").envelopes == set()  # the file says it is "one"'s
    assert kept_wire.wire_key() == kept_wire.wire_key()


def test_a_copy_read_is_kept_and_one_unused_for_a_week_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept_wire, "folder", lambda: tmp_path)
    week_ago = time.time() - (kept_wire.UNUSED_DAYS + 1) * 86400
    for key in ("read", "unused"):
        kept_wire.save(kept_wire.KeptWire(key))
    for key in ("read", "unused"):
        os.utime(tmp_path / f"{key}.json", (week_ago, week_ago))
    kept_wire.load("read")  # a daemon starting under its key
    kept_wire.save(kept_wire.KeptWire("new"))  # another key's write prunes
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["new.json", "read.json"]
