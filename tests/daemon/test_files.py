"""The sentinel, the token file, the instance lock and the listening socket."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest

from lspd import sentinel
from lspd.daemon import binding
from lspd.daemon.lock import InstanceLock
from lspd.errors import DaemonError


def test_port_is_digits_and_newline_in_vscode(tmp_path: Path) -> None:
    sentinel.write_port(tmp_path, 43210)
    assert (tmp_path / ".vscode" / ".mcp-port").read_bytes() == b"43210\n"
    assert sentinel.read_port(tmp_path) == 43210
    # No temp file left; the mark says lspd created .vscode/ (it goes when the daemon stops).
    assert sorted(p.name for p in (tmp_path / ".vscode").iterdir()) == [
        ".lspd-created",
        ".mcp-port",
    ]


@pytest.mark.parametrize("text", ["", "abc\n", "0\n", "70000\n", "12 34\n"])
def test_unreadable_port_is_none(tmp_path: Path, text: str) -> None:
    sentinel.port_path(tmp_path).parent.mkdir()
    sentinel.port_path(tmp_path).write_text(text)
    assert sentinel.read_port(tmp_path) is None


def test_remove_port_leaves_a_successors_sentinel(tmp_path: Path) -> None:
    sentinel.write_port(tmp_path, 1111)
    sentinel.remove_port(tmp_path, 2222)
    assert sentinel.read_port(tmp_path) == 1111
    sentinel.remove_port(tmp_path, 1111)
    assert not sentinel.port_path(tmp_path).exists()


def test_token_file_is_private(tmp_path: Path) -> None:
    token = sentinel.new_token(tmp_path)
    path = sentinel.token_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sentinel.read_token(tmp_path) == token and len(token) >= 32
    sentinel.remove_token(tmp_path, "another")
    assert path.exists()
    sentinel.remove_token(tmp_path, token)
    assert not path.exists()


def test_lock_admits_one_holder(tmp_path: Path) -> None:
    first, second = InstanceLock(tmp_path), InstanceLock(tmp_path)
    assert first.acquire()
    assert not second.acquire()
    first.release()
    assert second.acquire()
    second.release()


def test_binds_loopback_with_nodelay(tmp_path: Path) -> None:
    sock = binding.bind(tmp_path)
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        sock.close()


def test_reuses_the_last_port_when_free(tmp_path: Path) -> None:
    first = binding.bind(tmp_path)
    port = first.getsockname()[1]
    first.close()
    binding.remember_port(tmp_path, port)
    again = binding.bind(tmp_path)
    try:
        assert again.getsockname()[1] == port
    finally:
        again.close()


def test_busy_last_port_falls_back_to_any(tmp_path: Path) -> None:
    busy = binding.bind(tmp_path)
    try:
        port = busy.getsockname()[1]
        binding.remember_port(tmp_path, port)
        other = binding.bind(tmp_path)
        assert other.getsockname()[1] != port
        other.close()
        with pytest.raises(DaemonError, match=f"127.0.0.1:{port}"):
            binding.bind(tmp_path, port)  # an explicit --port is not silently changed
    finally:
        busy.close()
