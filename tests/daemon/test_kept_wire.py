"""The MCP answers kept from an earlier run (daemon/kept_wire.py): a copy is read only under
its own key. (Served and made anew by a real daemon: tests/daemon/test_early.py.)"""

from __future__ import annotations

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
