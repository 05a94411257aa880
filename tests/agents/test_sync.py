"""Round trips of `sync_agents` through every shipped descriptor, on a temp HOME and root."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from lspd.agents import files
from lspd.agents.descriptor import AgentDescriptor, load_descriptors, parse_descriptor
from lspd.agents.sync import sync_agent, sync_agents
from lspd.errors import InvalidInput

from .conftest import URL

AGENTS = sorted(load_descriptors())
NEW_URL = "http://127.0.0.1:50001/mcp"


def config_path(agent: str, root: Path, home: Path, scope: str | None = None) -> Path:
    descriptor = load_descriptors()[agent]
    return descriptor.scope(scope).resolve_path(root, home)


def load(path: Path, descriptor: AgentDescriptor) -> dict[str, Any]:
    text = path.read_text()
    if descriptor.format == "toml":
        return tomlkit.parse(text).unwrap()
    data: dict[str, Any] = json.loads(text)
    return data


def entry_at(data: dict[str, Any], key: list[str]) -> Any:
    for part in key:
        data = data[part]
    return data


def seed(agent: str, root: Path, home: Path) -> tuple[Path, str]:
    """An existing config holding someone else's server beside where ours goes, and more."""
    descriptor = load_descriptors()[agent]
    scope = descriptor.scope()
    key = scope.resolve_key(root, "lspd")
    path = scope.resolve_path(root, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    if descriptor.format == "toml":
        doc = tomlkit.document()
        doc.add(tomlkit.comment("hand-written: keep this comment"))
        doc["model"] = "o3"
        doc["model"].comment("my favourite")
        parent: Any = doc
        for part in key[:-1]:
            parent[part] = tomlkit.table(is_super_table=True)
            parent = parent[part]
        other = tomlkit.table()
        other["command"] = "other-server"
        other["args"] = ["--stdio"]
        parent["other"] = other
        text = tomlkit.dumps(doc)
    else:
        data: dict[str, Any] = {"theme": "dark"}
        node = data
        for part in key[:-1]:
            node = node.setdefault(part, {})
        node["other"] = {"command": "other-server", "args": ["--stdio"]}
        text = json.dumps(data, indent=2) + "\n"
    path.write_text(text)
    return path, text


@pytest.mark.parametrize("agent", AGENTS)
def test_merge_keeps_other_entries_and_writes_a_backup(agent: str, home: Path, root: Path) -> None:
    descriptor = load_descriptors()[agent]
    path, before = seed(agent, root, home)

    report = sync_agents(root, URL, [agent])

    [result] = report.results
    assert result.status == "updated", result.error
    assert result.path == path
    assert result.backup == files.backup_path(path)
    assert result.backup.read_text() == before
    data = load(path, descriptor)
    key = descriptor.scope().resolve_key(root, "lspd")
    assert entry_at(data, key) == descriptor.render_entry(URL, "lspd", root)
    assert entry_at(data, [*key[:-1], "other"]) == {
        "command": "other-server",
        "args": ["--stdio"],
    }
    if descriptor.format == "toml":
        text = path.read_text()
        assert text.startswith(before), "TOML text before our table must be kept byte for byte"
        assert "# hand-written: keep this comment" in text
        assert "# my favourite" in text
    else:
        assert data["theme"] == "dark"


@pytest.mark.parametrize("agent", AGENTS)
def test_second_run_changes_nothing(agent: str, home: Path, root: Path) -> None:
    sync_agents(root, URL, [agent])
    path = config_path(agent, root, home)
    before = path.read_bytes()
    stat_before = path.stat()

    [result] = sync_agents(root, URL, [agent]).results

    assert result.status == "unchanged"
    assert path.read_bytes() == before
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (stat_before.st_ino, stat_before.st_mtime_ns)
    assert not files.backup_path(path).exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_new_port_updates_in_place(agent: str, home: Path, root: Path) -> None:
    seed(agent, root, home)
    sync_agents(root, URL, [agent])
    path = config_path(agent, root, home)

    [result] = sync_agents(root, NEW_URL, [agent]).results

    assert result.status == "updated"
    text = path.read_text()
    assert NEW_URL in text and URL not in text
    assert "other-server" in text
    assert URL in files.backup_path(path).read_text()


@pytest.mark.parametrize("agent", AGENTS)
def test_dry_run_prints_a_diff_and_writes_nothing(agent: str, home: Path, root: Path) -> None:
    path, before = seed(agent, root, home)

    [result] = sync_agents(root, URL, [agent], dry_run=True).results

    assert result.status == "would update"
    assert result.diff.startswith(f"--- a{path}\n+++ b{path}\n")
    assert any(line.startswith("+") and URL in line for line in result.diff.splitlines())
    assert path.read_text() == before
    assert not files.backup_path(path).exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_dry_run_on_a_missing_file_creates_nothing(agent: str, home: Path, root: Path) -> None:
    path = config_path(agent, root, home)

    [result] = sync_agents(root, URL, [agent], dry_run=True).results

    assert result.status == "would create"
    assert result.diff.startswith("--- /dev/null\n")
    assert not path.exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_unparsable_config_is_left_untouched(agent: str, home: Path, root: Path) -> None:
    descriptor = load_descriptors()[agent]
    path = config_path(agent, root, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    broken = 'model = "o3\n[mcp_servers\n' if descriptor.format == "toml" else '{"a": 1,,}\n'
    path.write_text(broken)

    report = sync_agents(root, URL, [agent])

    [result] = report.results
    assert not report.ok
    assert result.status == "error"
    assert result.error is not None
    assert str(path) in result.error and "untouched" in result.error
    assert path.read_text() == broken
    assert not files.backup_path(path).exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_a_non_table_on_the_key_path_is_an_error(agent: str, home: Path, root: Path) -> None:
    descriptor = load_descriptors()[agent]
    first = descriptor.scope().resolve_key(root, "lspd")[0]
    path = config_path(agent, root, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f'{first} = "oops"\n' if descriptor.format == "toml" else json.dumps({first: 3})
    path.write_text(text)

    [result] = sync_agents(root, URL, [agent]).results

    assert result.status == "error"
    assert result.error is not None and str(path) in result.error
    assert path.read_text() == text


def test_user_keys_inside_our_entry_are_kept(home: Path, root: Path) -> None:
    path = root / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"mcpServers": {"lspd": {"httpUrl": URL, "timeout": 9000}}}))

    [result] = sync_agents(root, NEW_URL, ["gemini"]).results

    assert result.status == "updated"
    assert json.loads(path.read_text())["mcpServers"]["lspd"] == {
        "httpUrl": NEW_URL,
        "timeout": 9000,
    }


def test_json_indentation_of_the_file_is_kept(home: Path, root: Path) -> None:
    path = root / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"mcpServers": {}}, indent=4) + "\n")

    sync_agents(root, URL, ["cursor"])

    assert path.read_text() == json.dumps({"mcpServers": {"lspd": {"url": URL}}}, indent=4) + "\n"


def test_an_up_to_date_file_in_another_style_is_not_rewritten(home: Path, root: Path) -> None:
    path = root / ".cursor" / "mcp.json"
    path.parent.mkdir()
    text = '{"mcpServers": {"lspd": {"url": "' + URL + '"}}}'
    path.write_text(text)

    [result] = sync_agents(root, URL, ["cursor"]).results

    assert result.status == "unchanged"
    assert path.read_text() == text


def test_codex_config_keeps_comments_and_formatting(home: Path, root: Path) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    text = (
        "# Codex settings, hand-edited\n"
        'model   =   "gpt-5"   # aligned on purpose\n'
        "\n"
        "[mcp_servers.docs]  # a docs server\n"
        "url = 'http://127.0.0.1:9000/mcp'\n"
        "\n"
        "# trailing comment\n"
    )
    path.write_text(text)

    sync_agents(root, URL, ["codex"])

    new = path.read_text()
    assert new.startswith(text)
    assert new[len(text) :] == f'\n[mcp_servers.lspd]\nurl = "{URL}"\n'
    assert tomlkit.parse(new)["mcp_servers"]["lspd"]["url"] == URL  # type: ignore[index]


def test_claude_local_scope_is_keyed_by_the_absolute_root(home: Path, root: Path) -> None:
    claude = home / ".claude.json"
    claude.write_text(json.dumps({"numStartups": 3, "projects": {"/elsewhere": {"x": 1}}}))

    sync_agents(root, URL, ["claude-code"])

    data = json.loads(claude.read_text())
    assert data["numStartups"] == 3
    assert data["projects"]["/elsewhere"] == {"x": 1}
    assert data["projects"][str(root)]["mcpServers"]["lspd"] == {"type": "http", "url": URL}


def test_claude_project_scope_writes_mcp_json(home: Path, root: Path) -> None:
    [result] = sync_agents(root, URL, ["claude-code"], scope="project").results

    assert result.path == root / ".mcp.json"
    data = json.loads((root / ".mcp.json").read_text())
    assert data == {"mcpServers": {"lspd": {"type": "http", "url": URL}}}
    assert not (home / ".claude.json").exists()


def test_unknown_scope_of_a_named_agent_is_an_error(home: Path, root: Path) -> None:
    [result] = sync_agents(root, URL, ["codex"], scope="project").results
    assert result.status == "error"
    assert result.error is not None and "no scope 'project'" in result.error


def test_custom_server_name(home: Path, root: Path) -> None:
    sync_agents(root, URL, ["vscode"], name="lspd-main")
    data = json.loads((root / ".vscode" / "mcp.json").read_text())
    assert data["servers"]["lspd-main"]["url"] == URL


def test_invalid_name_and_unknown_agent_raise_before_writing(home: Path, root: Path) -> None:
    with pytest.raises(InvalidInput, match="not valid"):
        sync_agents(root, URL, ["vscode"], name="bad name")
    with pytest.raises(InvalidInput, match=r"unknown agent 'nope'.*claude-code"):
        sync_agents(root, URL, ["vscode", "nope"])
    assert not (root / ".vscode" / "mcp.json").exists()


def test_symlinked_config_keeps_the_link(home: Path, root: Path, tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "claude.json"
    target.parent.mkdir()
    target.write_text("{}\n")
    (home / ".claude.json").symlink_to(target)

    sync_agents(root, URL, ["claude-code"])

    assert (home / ".claude.json").is_symlink()
    assert URL in target.read_text()


def test_detection_picks_agents_whose_config_dir_exists(
    home: Path, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(home / "empty-bin"))
    assert sync_agents(root, URL).results == []
    (home / ".codex").mkdir()
    (root / ".cursor").mkdir()

    report = sync_agents(root, URL)

    assert sorted(r.agent for r in report.results) == ["codex", "cursor"]


def test_detection_by_binary_on_path(
    home: Path, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = home / "bin"
    bin_dir.mkdir()
    gemini = bin_dir / "gemini"
    gemini.write_text("#!/bin/sh\n")
    gemini.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))

    assert [r.agent for r in sync_agents(root, URL).results] == ["gemini"]


def test_adding_an_agent_is_adding_a_descriptor(home: Path, root: Path) -> None:
    """A new agent needs data only: the same sync code serves it."""
    descriptor = parse_descriptor(
        {
            "name": "newagent",
            "format": "toml",
            "scopes": {"user": {"path": "~/.newagent/conf.toml", "key": ["servers", "{name}"]}},
            "entry": {"transport": "http", "endpoint": "{url}", "label": "{name} for {root}"},
            "auth": {"headers": "headers"},
        },
        "newagent.toml",
    )

    result = sync_agent(descriptor, root, URL)

    assert result.status == "created"
    data = tomlkit.parse((home / ".newagent" / "conf.toml").read_text()).unwrap()
    assert data == {
        "servers": {"lspd": {"transport": "http", "endpoint": URL, "label": f"lspd for {root}"}}
    }


# Token mode ------------------------------------------------------------------------------


def write_token(root: Path, token: str = "s3cret") -> None:
    path = root / ".vscode" / ".mcp-token"
    path.write_text(token + "\n")
    path.chmod(0o600)


def test_token_goes_into_user_level_files(home: Path, root: Path) -> None:
    write_token(root)

    report = sync_agents(root, URL, ["claude-code", "codex"])

    assert report.ok
    claude = json.loads((home / ".claude.json").read_text())
    assert claude["projects"][str(root)]["mcpServers"]["lspd"]["headers"] == {
        "Authorization": "Bearer s3cret"
    }
    codex = home / ".codex" / "config.toml"
    assert tomlkit.parse(codex.read_text())["mcp_servers"]["lspd"]["http_headers"] == {  # type: ignore[index]
        "Authorization": "Bearer s3cret"
    }
    for path in (home / ".claude.json", codex):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_token_never_goes_into_a_file_inside_the_repository(home: Path, root: Path) -> None:
    write_token(root)

    in_repo = [name for name, d in load_descriptors().items() if "project" in d.scopes]
    report = sync_agents(root, URL, in_repo, scope="project")

    assert report.ok
    for result in report.results:
        if result.path.is_relative_to(root):
            assert "s3cret" not in result.path.read_text(), result.path
            assert any("inside the repository" in w for w in result.warnings), result.agent
    leaked = [
        p
        for p in root.rglob("*")
        if p.is_file() and p.name != ".mcp-token" and b"s3cret" in p.read_bytes()
    ]
    assert leaked == []


def test_leaving_token_mode_removes_the_header(home: Path, root: Path) -> None:
    write_token(root)
    sync_agents(root, URL, ["codex", "claude-code"])
    os.unlink(root / ".vscode" / ".mcp-token")

    report = sync_agents(root, URL, ["codex", "claude-code"])

    assert [r.status for r in report.results] == ["updated", "updated"]
    assert "s3cret" not in (home / ".codex" / "config.toml").read_text()
    assert "s3cret" not in (home / ".claude.json").read_text()
    assert "headers" not in (home / ".codex" / "config.toml").read_text()


def test_new_token_replaces_the_old_one(home: Path, root: Path) -> None:
    write_token(root, "one")
    sync_agents(root, URL, ["codex"])
    write_token(root, "two")

    [result] = sync_agents(root, URL, ["codex"]).results

    assert result.status == "updated"
    text = (home / ".codex" / "config.toml").read_text()
    assert "Bearer two" in text and "Bearer one" not in text


def test_a_dry_run_never_prints_the_token(home: Path, root: Path) -> None:
    write_token(root)
    [result] = sync_agents(root, URL, ["claude-code"], dry_run=True).results
    assert "Bearer <token redacted>" in result.diff
    assert "s3cret" not in result.diff
