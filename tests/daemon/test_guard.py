"""Which Host and Origin headers count as loopback (DNS-rebinding protection)."""

from __future__ import annotations

import pytest

from lspd.daemon.app import is_loopback_host, is_loopback_origin


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8123", "localhost:8123", "LOCALHOST", "[::1]:8123", "127.0.0.1", "[::1]"]
)
def test_loopback_hosts(host: str) -> None:
    assert is_loopback_host(host)


@pytest.mark.parametrize(
    "host",
    [
        None,
        "",
        "evil.com",
        "evil.com:8123",
        "127.0.0.1.evil.com:80",
        "127.0.0.1:80.evil.com",
        "localhost.evil.com",
        "[::2]:80",
        "10.0.0.5:8123",
        "0.0.0.0:8123",
        "127.0.0.1:x",
    ],
)
def test_foreign_hosts(host: str | None) -> None:
    assert not is_loopback_host(host)


@pytest.mark.parametrize(
    "origin",
    [None, "http://127.0.0.1:3000", "http://localhost", "https://localhost:1", "http://[::1]:5"],
)
def test_loopback_origins(origin: str | None) -> None:
    assert is_loopback_origin(origin)


@pytest.mark.parametrize(
    "origin",
    [
        "null",
        "http://evil.com",
        "http://127.0.0.1.evil.com",
        "file://",
        "http://localhost:bad",
        "vscode-webview://abc",
        "http://10.0.0.5:80",
    ],
)
def test_foreign_origins(origin: str) -> None:
    assert not is_loopback_origin(origin)
