"""`lspd sync --stdio`: the command form (`lspd mcp --root ROOT`) in each agent's config, and
back to the URL (the default) without the other form's keys left behind."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from lspd.agents import get_descriptor, sync_agents

from .conftest import URL

LSPD = str(Path(sys.executable).parent / "lspd")
ARGS = ["mcp", "--root"]


def entry(agent: str, root: Path, home: Path) -> Any:
    descriptor = get_descriptor(agent)
    scope = descriptor.scope()
    path = scope.resolve_path(root, home)
    text = path.read_text()
    node: Any = tomllib.loads(text) if descriptor.format == "toml" else json.loads(text)
    for part in scope.resolve_key(root, "lspd"):
        node = node[part]
    return node


@pytest.mark.parametrize(
    ("agent", "command"),
    [
        ("claude-code", {"type": "stdio", "command": LSPD, "args": [*ARGS, "{root}"]}),
        ("codex", {"command": LSPD, "args": [*ARGS, "{root}"]}),
        ("cursor", {"command": LSPD, "args": [*ARGS, "{root}"]}),
        ("gemini", {"command": LSPD, "args": [*ARGS, "{root}"]}),
        ("opencode", {"type": "local", "command": [LSPD, *ARGS, "{root}"], "enabled": True}),
        ("vscode", {"type": "stdio", "command": LSPD, "args": [*ARGS, "{root}"]}),
    ],
)
def test_stdio_writes_the_command_and_the_url_comes_back_without_it(
    agent: str, command: dict[str, Any], root: Path, home: Path
) -> None:
    wanted = json.loads(json.dumps(command).replace("{root}", str(root)))

    assert sync_agents(root, "", [agent], home=home, stdio=True).ok
    assert entry(agent, root, home) == wanted

    assert sync_agents(root, URL, [agent], home=home).ok
    url = get_descriptor(agent).render_entry(URL, "lspd", root)
    assert entry(agent, root, home) == url  # no command, no args

    assert sync_agents(root, "", [agent], home=home, stdio=True).ok
    assert entry(agent, root, home) == wanted  # no url
    assert sync_agents(root, "", [agent], home=home, stdio=True).results[0].status == "unchanged"
