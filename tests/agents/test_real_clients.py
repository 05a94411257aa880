"""The real agent CLIs accept what `lspd sync` writes, and really talk to the daemon.

Claude Code's `claude mcp list` connects (initialize + tools/list) to every server it
is configured with; Codex's `codex mcp get --json` reads its config only; the MCP
Inspector CLI is a plain MCP client. Each runs with HOME in a temp dir.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from .live import SCRIPTS, Clients, Live, lspd, run, start_daemon

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, clients: Clients) -> Iterator[Live]:
    yield from start_daemon(tmp_path_factory.mktemp("live"), clients, token=False)


@pytest.fixture(scope="module")
def live_token(tmp_path_factory: pytest.TempPathFactory, clients: Clients) -> Iterator[Live]:
    yield from start_daemon(tmp_path_factory.mktemp("live-token"), clients, token=True)


def test_claude_code_reports_lspd_connected(live: Live, clients: Clients) -> None:
    synced = lspd("sync", str(live.root), "--agent", "claude-code", env=live.env, cwd=live.root)
    assert synced.returncode == 0, synced.stderr
    assert "claude-code: created" in synced.stdout or "claude-code: updated" in synced.stdout

    listed = run([clients.bin("claude"), "mcp", "list"], live.env, live.root)

    assert listed.returncode == 0, listed.stderr
    assert f"lspd: {live.url} (HTTP) - ✔ Connected" in listed.stdout, listed.stdout

    details = run([clients.bin("claude"), "mcp", "get", "lspd"], live.env, live.root)
    assert "Local config" in details.stdout and "✔ Connected" in details.stdout, details.stdout


def test_claude_code_connects_in_token_mode_only_with_the_header(
    live_token: Live, clients: Clients
) -> None:
    live = live_token
    synced = lspd("sync", str(live.root), "--agent", "claude-code", env=live.env, cwd=live.root)
    assert synced.returncode == 0, synced.stderr
    claude = json.loads((live.home / ".claude.json").read_text())
    entry = claude["projects"][str(live.root)]["mcpServers"]["lspd"]
    assert entry["headers"] == {"Authorization": f"Bearer {live.token}"}
    # The same endpoint without the header, added the way a user would: must be refused.
    added = run(
        [clients.bin("claude"), "mcp", "add", "--transport", "http", "bare", live.url],
        live.env,
        live.root,
    )
    assert added.returncode == 0, added.stderr

    listed = run([clients.bin("claude"), "mcp", "list"], live.env, live.root)

    assert f"lspd: {live.url} (HTTP) - ✔ Connected" in listed.stdout, listed.stdout
    bare = [line for line in listed.stdout.splitlines() if line.startswith("bare:")]
    assert bare and "✔ Connected" not in bare[0], listed.stdout


def test_codex_shows_the_url(live: Live, clients: Clients) -> None:
    synced = lspd("sync", str(live.root), "--agent", "codex", env=live.env, cwd=live.root)
    assert synced.returncode == 0, synced.stderr

    shown = run([clients.bin("codex"), "mcp", "get", "lspd", "--json"], live.env, live.root)

    assert shown.returncode == 0, shown.stderr
    server = json.loads(shown.stdout)
    assert server["name"] == "lspd"
    assert server["transport"]["url"] == live.url


def test_codex_gets_the_token_header(live_token: Live, clients: Clients) -> None:
    live = live_token
    synced = lspd("sync", str(live.root), "--agent", "codex", env=live.env, cwd=live.root)
    assert synced.returncode == 0, synced.stderr

    shown = run([clients.bin("codex"), "mcp", "get", "lspd", "--json"], live.env, live.root)

    transport = json.loads(shown.stdout)["transport"]
    assert transport["url"] == live.url
    assert transport["http_headers"] == {"Authorization": f"Bearer {live.token}"}
    assert live.token not in "".join(
        p.read_text(errors="replace")
        for p in live.root.rglob("*")
        if p.is_file() and p.name != ".mcp-token" and p.suffix in (".json", ".toml", ".md")
    )


def inspector(clients: Clients, live: Live, *args: str) -> dict[str, object]:
    argv = [
        str(clients.node_dir / "node"),
        clients.bin("mcp-inspector"),
        "--cli",
        live.url,
        "--transport",
        "http",
        *args,
    ]
    done = run(argv, live.env, live.root)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_inspector_lists_the_tools(live: Live, clients: Clients) -> None:
    listed = inspector(clients, live, "--method", "tools/list")

    tools = {tool["name"]: tool for tool in listed["tools"]}  # type: ignore[attr-defined]
    assert {"diagnostics", "hover", "definition", "references", "status"} <= set(tools)
    for tool in tools.values():
        assert tool["annotations"]["readOnlyHint"] is True


def test_inspector_calls_hover_on_the_fixture(live: Live, clients: Clients) -> None:
    by_position = inspector(
        clients,
        live,
        "--method",
        "tools/call",
        "--tool-name",
        "hover",
        "--tool-arg",
        "path=pkg/greeting.py",
        "--tool-arg",
        "line=18",
        "--tool-arg",
        "column=9",
    )
    assert by_position["isError"] is False
    content = by_position["structuredContent"]
    assert isinstance(content, dict)
    assert "def greet" in content["contents"]

    by_symbol = inspector(
        clients,
        live,
        "--method",
        "tools/call",
        "--tool-name",
        "hover",
        "--tool-arg",
        "symbol=Greeter.greet",
    )
    # Named by symbol, the answer also says where the name led.
    assert by_symbol["structuredContent"] == {
        **content,
        "path": "pkg/greeting.py",
        "line": 18,
        "column": 9,
    }


def test_inspector_with_the_token_header(live_token: Live, clients: Clients) -> None:
    listed = inspector(
        clients,
        live_token,
        "--method",
        "tools/list",
        "--header",
        f"Authorization: Bearer {live_token.token}",
    )
    assert listed["tools"]


def test_health_script_on_a_live_daemon(live: Live) -> None:
    done = run([str(SCRIPTS / "lspd-health"), str(live.root)], live.env, live.root)

    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: ")


def test_sync_script_round_trip(live: Live) -> None:
    argv = [str(SCRIPTS / "lspd-sync"), str(live.root), "--agent", "cursor"]
    first = run(argv, live.env, live.root)
    second = run(argv, live.env, live.root)

    assert first.returncode == 0, first.stderr
    assert "cursor: created" in first.stdout
    assert "cursor: unchanged" in second.stdout
    data = json.loads((live.root / ".cursor" / "mcp.json").read_text())
    assert data == {"mcpServers": {"lspd": {"url": live.url}}}
    assert "warning" not in second.stderr  # the daemon answered for this root
