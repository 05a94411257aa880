"""`lspd mcp`: the workspace's daemon as a stdio MCP server (`lspd.daemon.bridge`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from lspd.daemon import finding

# What MCP clients set to the project they run in, for the servers and hooks they start: the
# workspace when no --root is given (else the nearest served ancestor of the cwd, or the cwd).
PROJECT_DIR_VARIABLES = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR")


DESCRIPTION = (
    "Speak MCP on stdin/stdout and pass every message to the daemon of the workspace "
    "(http://127.0.0.1:PORT/mcp), starting it as `lspd serve --detach` does when none runs. "
    "For clients that start their MCP servers themselves: `codex mcp add lspd -- lspd mcp`. "
    f"The workspace is --root, else {', '.join('$' + v for v in PROJECT_DIR_VARIABLES)} (as "
    "a client sets it), else the nearest directory up from here with a daemon, else this "
    "one. It ends when stdin closes; the daemon keeps running for other agents."
)


def register(subparsers: Any) -> None:
    """`lspd mcp`."""
    about = "a stdio MCP server bridging to the workspace's daemon (started if none runs)"
    parser = subparsers.add_parser("mcp", help=about, description=DESCRIPTION)
    parser.add_argument("--root", dest="root_option", metavar="DIR", help="workspace root")
    parser.add_argument(
        "--token",
        action="store_true",
        help="start the daemon in token mode when none runs (a running one's token file is "
        "always used)",
    )
    parser.add_argument(
        "--restricted",
        action="store_true",
        default=None,
        help="start the daemon with --restricted when none runs",
    )
    parser.set_defaults(func=run)


def workspace(given: str | None, environ: dict[str, str] | None = None) -> Path:
    """The root to bridge to: `--root`, else the client's project directory, else as every
    other command finds it."""
    environ = dict(os.environ) if environ is None else environ
    if given:
        return finding.resolve_root(given)
    project = next((environ[v] for v in PROJECT_DIR_VARIABLES if environ.get(v)), None)
    if project and Path(project).is_dir():
        return finding.resolve_root(None, cwd=Path(project))
    return finding.resolve_root(None)


def run(args: argparse.Namespace) -> int:
    """Bridge stdin/stdout to the daemon until stdin ends."""
    from lspd.daemon.bridge import Daemon, serve_stdio

    root = workspace(args.root_option)
    refused = _too_wide(root)
    if refused:
        print(f"lspd mcp: {refused}", file=sys.stderr)
        return 2
    return serve_stdio(Daemon(root, token=args.token, restricted=args.restricted))


def _too_wide(root: Path) -> str | None:
    """Why not to start a daemon for `root` (a home directory or `/`: every file of the user
    would be indexed), when none serves it yet."""
    wide = {Path.home().resolve(), Path(root.anchor)}
    if root not in wide or finding.enclosing_daemon(root) is not None:
        return None
    return (
        f"not starting a daemon for {root}, which is not a project; start the client in a "
        "project directory, or pass --root DIR"
    )
