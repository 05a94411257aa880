"""The Claude Code plugin in the repository (`plugin/`) and its marketplace file, written out
from lspd's own data: `python -m lspd.agents.plugin` after a change of the skill, the hooks
or the version (tests/agents/test_plugin.py fails, naming this command, when they differ).

One directory holds the MCP server (`lspd mcp`: the daemon of the project Claude runs in,
started when none runs, whatever its port), the hooks `lspd sync --hooks` writes for Claude
Code (the same events, matcher, budgets and timeouts: `hooks.entries` of its descriptor),
and the agent guide as a skill (the one source, `lspd/skill/lspd.md`). The plugin writes
nothing into the user's repository. Each runs `bin/lspd`, which runs the `lspd` on PATH
or says in one line how to put it there.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lspd import __version__
from lspd.agents.descriptor import get_descriptor
from lspd.agents.hooks import entries
from lspd.agents.skill import skill_text

NAME = "lspd"
REPO = Path(__file__).resolve().parents[3]  # a clone: src/lspd/agents/plugin.py
PLUGIN_DIR = "plugin"
MARKETPLACE = ".claude-plugin/marketplace.json"
# How the plugin runs lspd: its wrapper (the `lspd` on PATH, or the fix in one line).
PROGRAM = '"${CLAUDE_PLUGIN_ROOT}/bin/lspd"'
DESCRIPTION = (
    "Warm language servers for Claude Code: types, definitions, references and errors from "
    "the project's own checkers over MCP (lspd mcp), the errors an edit introduced after "
    "each edit, and a stop gate while they remain."
)
SKILL_DESCRIPTION = (
    "How to use the lspd MCP tools (hover, definition, references, diagnostics, preview, "
    "rename) and its hooks: code intelligence and checking your own edits. Use when "
    "navigating, changing or verifying code in this workspace."
)


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def files() -> dict[str, str]:
    """Every generated file of the plugin and the marketplace, by path from the repo root."""
    spec = get_descriptor("claude-code").hooks
    assert spec is not None, "the claude-code descriptor has hooks"
    plugin = f"{PLUGIN_DIR}/"
    skill = skill_text().strip("\n")
    return {
        MARKETPLACE: _json(
            {
                "name": NAME,
                "owner": {"name": "lspd"},
                "description": "lspd's Claude Code plugin, from a clone of lspd.",
                "plugins": [
                    {
                        "name": NAME,
                        "source": f"./{PLUGIN_DIR}",
                        "description": DESCRIPTION,
                        "version": __version__,
                    }
                ],
            }
        ),
        plugin + ".claude-plugin/plugin.json": _json(
            {
                "name": NAME,
                "version": __version__,
                "description": DESCRIPTION,
                "author": {"name": "lspd"},
                "license": "MIT",
                "keywords": ["lsp", "mcp", "code-intelligence", "diagnostics"],
            }
        ),
        plugin + ".mcp.json": _json(
            {"mcpServers": {NAME: {"command": "${CLAUDE_PLUGIN_ROOT}/bin/lspd", "args": ["mcp"]}}}
        ),
        plugin + "hooks/hooks.json": _json(
            {
                "description": "lspd: after each edit, the errors it introduced; the stop gate.",
                "hooks": entries("claude-code", spec, program=PROGRAM),
            }
        ),
        plugin + "skills/lspd/SKILL.md": (
            f"---\nname: {NAME}\ndescription: {json.dumps(SKILL_DESCRIPTION)}\n---\n\n"
            "<!-- Generated from src/lspd/skill/lspd.md by `python -m lspd.agents.plugin`: "
            "edit that file, then run it. -->\n\n"
            f"{skill}\n"
        ),
    }


def differences(root: Path = REPO) -> list[str]:
    """The generated files missing or not as generated under `root`."""
    stale = []
    for relative, text in files().items():
        path = root / relative
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(relative)
    return stale


def write(root: Path = REPO) -> list[str]:
    """Write the generated files under `root`; the paths that changed."""
    changed = differences(root)
    generated = files()
    for relative in changed:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(generated[relative], encoding="utf-8")
    return changed


def main() -> int:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else REPO
    for relative in write(root):
        print(f"wrote {root / relative}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
