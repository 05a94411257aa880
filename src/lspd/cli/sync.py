"""`lspd sync`: write the running daemon's endpoint into each agent's MCP config."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from lspd.agents.descriptor import load_descriptors
from lspd.agents.endpoint import read_port, read_token
from lspd.agents.sync import DEFAULT_NAME, SyncReport, sync_agents
from lspd.daemon import finding
from lspd.daemon.binding import mcp_url


def register(subparsers: Any) -> None:
    """`lspd sync`."""
    names = ", ".join(load_descriptors())
    parser = subparsers.add_parser(
        "sync",
        help="register the daemon's MCP endpoint with coding agents",
        description=(
            "Merge http://127.0.0.1:<port>/mcp (from ROOT/.vscode/.mcp-port) into each agent's "
            "MCP config, keeping every other entry. A second run changes nothing. "
            f"Known agents: {names}."
        ),
    )
    parser.add_argument(
        "--root",
        dest="root_option",
        metavar="DIR",
        help="workspace (default: nearest ancestor with .vscode/.mcp-port, else the cwd)",
    )
    parser.add_argument("root", nargs="?", type=Path, help="the same as --root")
    parser.add_argument(
        "--agent",
        action="append",
        dest="agents",
        metavar="NAME",
        help="agent to configure (repeatable; default: every agent detected here)",
    )
    parser.add_argument(
        "--scope",
        help="config scope to write instead of each agent's default, e.g. `project` for "
        "Claude Code's .mcp.json",
    )
    parser.add_argument("--name", default=DEFAULT_NAME, help="MCP server name (default: lspd)")
    for flag, text in _SWITCHES.items():
        parser.add_argument(flag, action="store_true", help=text)
    parser.set_defaults(func=run)


# The switches of `lspd sync`: what it writes beside the MCP entries, or instead of them.
_SWITCHES = {
    "--dry-run": "print the diff of each change, write nothing",
    "--skill": "also install the lspd skill text in CLAUDE.md / AGENTS.md / GEMINI.md at ROOT",
    "--hooks": "also install lspd's hooks (`lspd hook AGENT`: after each edit, and the stop "
    "gate) for agents that have hooks: Claude Code's .claude/settings.local.json, Codex's "
    ".codex/hooks.json (kept out of git status)",
    "--remove": "take lspd's hooks out again, and the files lspd created for them (the MCP "
    "entries stay)",
    "--stdio": "write the command `lspd mcp --root ROOT` (a stdio server that starts the "
    "daemon and follows its port) instead of the URL, for agents that take a command",
    "--list": "list known agents, their config files and detection",
}


def run(args: argparse.Namespace) -> int:
    """`lspd sync`: write the running daemon's MCP URL (and hooks) into the agents' configs."""
    root = finding.resolve_root(args.root_option or args.root)
    if args.list:
        return _list_agents(root)
    if args.remove:
        return _hooks(root, args.agents, remove=True, dry_run=args.dry_run)
    url, token = "", None  # --stdio: `lspd mcp` finds (or starts) the daemon itself
    if not args.stdio:
        url, token = mcp_url(read_port(root)), read_token(root)
        found = finding.probe(root)
        if not found.ok:
            # Only a warning: the daemon may be restarting; `serve --sync` syncs after its bind.
            print(f"lspd sync: warning: {found.reason}", file=sys.stderr)
    report = sync_agents(
        root,
        url,
        args.agents,
        name=args.name,
        scope=args.scope,
        token=token,
        dry_run=args.dry_run,
        skill=args.skill,
        stdio=args.stdio,
    )
    code = print_report(report, dry_run=args.dry_run)
    if args.hooks:
        code = max(code, _hooks(root, args.agents, remove=False, dry_run=args.dry_run))
    if any(result.agent == "claude-code" for result in report.results):
        print(plugin_note(), file=sys.stderr)
    return code


def plugin_note() -> str:
    """Claude Code's preferred way: lspd's plugin (server, hooks and skill, every project)."""
    from lspd.agents.plugin import MARKETPLACE, REPO

    clone = REPO if (REPO / MARKETPLACE).is_file() else Path("/path/to/your/lspd/clone")
    return (
        "lspd sync: for Claude Code the preferred way is lspd's plugin (the MCP server, the "
        "hooks and the skill for every project, no port in any file): "
        f"claude plugin marketplace add {clone} && claude plugin install lspd@lspd"
    )


def _hooks(root: Path, agents: list[str] | None, *, remove: bool, dry_run: bool) -> int:
    """Install or remove the post-edit hook of each selected agent that has hooks."""
    from lspd.agents.hooks import sync_hooks
    from lspd.agents.sync import select_agents

    home = Path.home()
    results = [
        r
        for d in select_agents(agents, root, home)
        if (r := sync_hooks(d, root, home, remove=remove, dry_run=dry_run)) is not None
    ]
    if not results:
        print(
            "lspd sync: none of these agents runs hooks (Claude Code and Codex do)", file=sys.stderr
        )
        return 1
    for result in results:
        if dry_run and result.diff:
            sys.stdout.write(result.diff)
        print(f"{result.agent} hooks: {result.status} {result.path}")
        for done in result.done:
            print(f"{result.agent} hooks: {done}")
    return 0


def print_report(report: SyncReport, *, dry_run: bool) -> int:
    """Say what a sync changed, one line per file; 1 when nothing was written or a file failed."""
    if not report.results:
        known = ", ".join(load_descriptors())
        print(
            f"lspd sync: no agent detected here; name one with --agent (known: {known})",
            file=sys.stderr,
        )
        return 1
    for result in report.results:
        for warning in result.warnings:
            print(f"lspd sync: warning: {result.agent}: {warning}", file=sys.stderr)
        if result.error:
            print(f"lspd sync: error: {result.agent}: {result.error}", file=sys.stderr)
            continue
        if dry_run and result.diff:
            sys.stdout.write(result.diff)
        line = f"{result.agent}: {result.status} {result.path}"
        if result.backup:
            line += f" (previous version in {result.backup})"
        print(line)
    return 0 if report.ok else 1


def _list_agents(root: Path) -> int:
    home = Path.home()
    for descriptor in load_descriptors().values():
        mark = "detected" if descriptor.detected(root, home) else "not detected"
        print(f"{descriptor.name} ({descriptor.title}, {mark})")
        for scope in descriptor.scopes.values():
            default = " [default]" if scope.name == descriptor.default_scope else ""
            print(f"  {scope.name}{default}: {scope.resolve_path(root, home)}")
    return 0
