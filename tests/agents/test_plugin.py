"""The Claude Code plugin in the repository is lspd's own data written out: the skill from
its one source, the hooks `lspd sync --hooks` installs, `lspd mcp` as its server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lspd import __version__
from lspd.agents import plugin
from lspd.agents.descriptor import get_descriptor
from lspd.agents.hooks import entries, hook_command
from lspd.agents.skill import skill_text

PLUGIN = plugin.REPO / "plugin"


def test_the_plugin_files_are_written_out_from_lspd() -> None:
    # After changing the skill, the hooks or the version: .venv/bin/python -m lspd.agents.plugin
    assert plugin.differences() == [], (
        "the plugin is not lspd's data written out: run `.venv/bin/python -m lspd.agents.plugin`"
    )


def test_the_skill_is_the_one_source_with_a_header() -> None:
    text = (PLUGIN / "skills" / "lspd" / "SKILL.md").read_text()
    header, _, body = text.removeprefix("---\n").partition("\n---\n")
    assert header.splitlines()[0] == "name: lspd"
    assert json.loads(header.splitlines()[1].removeprefix("description: "))
    assert body.endswith(skill_text().strip("\n") + "\n")


def test_the_hooks_are_those_sync_hooks_installs_run_through_the_plugins_wrapper() -> None:
    spec = get_descriptor("claude-code").hooks
    assert spec is not None
    hooks = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())["hooks"]
    synced = entries("claude-code", spec)  # what `lspd sync --hooks` writes
    lspd = hook_command("claude-code").removesuffix(" hook claude-code")
    for groups in synced.values():
        for group in groups:
            for handler in group["hooks"]:
                handler["command"] = handler["command"].replace(lspd, plugin.PROGRAM, 1)
    assert hooks == synced
    assert {e: [g.get("matcher") for g in groups] for e, groups in hooks.items()} == {
        "PostToolUse": ["Edit|Write|MultiEdit"] * 2,
        "Stop": [None],
        "UserPromptSubmit": [None],
    }


def test_the_server_is_lspd_mcp_and_the_marketplace_names_the_plugin() -> None:
    servers = json.loads((PLUGIN / ".mcp.json").read_text())["mcpServers"]
    assert servers == {"lspd": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/lspd", "args": ["mcp"]}}
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    assert (manifest["name"], manifest["version"]) == ("lspd", __version__)
    market = json.loads((plugin.REPO / ".claude-plugin" / "marketplace.json").read_text())
    assert market["name"] == "lspd"
    assert [(p["name"], p["source"]) for p in market["plugins"]] == [("lspd", "./plugin")]


def test_without_lspd_on_path_the_wrapper_says_so_in_one_line_with_the_fix(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [str(PLUGIN / "bin" / "lspd"), "mcp"],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert len(done.stderr.splitlines()) == 1
    assert "not on PATH" in done.stderr and "uv tool install" in done.stderr


def test_with_lspd_on_path_the_wrapper_runs_it(tmp_path: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    done = subprocess.run(
        [str(PLUGIN / "bin" / "lspd"), "--version"],
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, f"lspd {__version__}")
