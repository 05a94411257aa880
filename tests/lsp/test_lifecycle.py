"""The environment a language server starts with (`lifecycle.server_env`)."""

from __future__ import annotations

import pytest

from lspd.lsp.lifecycle import server_env


def test_a_servers_env_is_laid_over_lspds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOPROXY", "direct")
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    env = server_env({"GOPROXY": "off", "NODE_OPTIONS": "--max-semi-space-size=8"})
    assert env["GOPROXY"] == "off"
    assert env["NODE_OPTIONS"] == "--max-semi-space-size=8"


def test_the_users_node_options_come_last_so_they_win(monkeypatch: pytest.MonkeyPatch) -> None:
    # node takes the last of a repeated flag: a user's own young generation size stays theirs
    monkeypatch.setenv("NODE_OPTIONS", "--max-semi-space-size=32 --max-old-space-size=8192")
    env = server_env({"NODE_OPTIONS": "--max-semi-space-size=8"})
    assert env["NODE_OPTIONS"] == (
        "--max-semi-space-size=8 --max-semi-space-size=32 --max-old-space-size=8192"
    )
    assert server_env({})["NODE_OPTIONS"] == "--max-semi-space-size=32 --max-old-space-size=8192"
