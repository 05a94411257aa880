"""`lspd serve`, `lspd stop`, `lspd status` and `lspd health`: the daemon's own commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lspd.cli.render import render
from lspd.daemon import client, finding
from lspd.errors import LspdError


def register(subparsers: Any) -> None:
    """`lspd serve`, `stop`, `status` and `health`."""
    _register_serve(subparsers)

    stop = subparsers.add_parser("stop", help="stop the daemon of a workspace")
    add_root(stop, "workspace root (default: the nearest with a daemon, else .)")
    stop.set_defaults(func=_stop)

    status = subparsers.add_parser("status", help="the daemon and its language servers")
    add_root(status, "workspace root (default: the nearest with a daemon, else .)")
    status.add_argument("--json", action="store_true", help="print the status tool's JSON")
    status.add_argument(
        "--open", action="store_true", help="open the live status page in a browser, if any"
    )
    status.set_defaults(func=_status)

    health = subparsers.add_parser(
        "health", help="exit 0 if the daemon of a workspace is healthy, else 1 with the reason"
    )
    add_root(health, "workspace root (default: the nearest with a daemon, else .)")
    health.set_defaults(func=_health)


def _register_serve(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="run the daemon for a workspace (MCP at http://127.0.0.1:PORT/mcp)",
        description=(
            "Run the daemon for ROOT in the foreground (or with --detach in the background). "
            "It listens on 127.0.0.1 only and writes its port to ROOT/.vscode/.mcp-port. "
            "If one already runs for ROOT, print its URL and exit 0."
        ),
    )
    add_root(serve, "workspace root (default: .)")
    serve.add_argument("--detach", action="store_true", help="return once ready; print the URL")
    serve.add_argument("--port", type=int, help="listen on this port (default: last one, or any)")
    serve.add_argument(
        "--token",
        action="store_true",
        help="require 'Authorization: Bearer <token>'; the token goes to ROOT/.vscode/.mcp-token",
    )
    serve.add_argument(
        "--no-prewarm",
        dest="prewarm",
        action="store_false",
        help="start language servers on first use, not at boot",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        metavar="SECONDS",
        help="stop a language server unused this long (default: idle_timeout in "
        "ROOT/lspd.toml, else 1800; 0 = never)",
    )
    serve.add_argument(
        "--restricted",
        action="store_true",
        default=None,
        help="run only lspd's own servers and settings: not the project's TypeScript, Python "
        "environment or installed checker, nor lspd.toml's servers and arguments (default: "
        "off, or `restricted = true` in ~/.config/lspd/config.toml)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="level of the log file under the state directory (default: info)",
    )
    serve.add_argument(
        "--sync",
        action="append",
        default=[],
        metavar="AGENTS",
        help="after every bind, write the URL into these agents' configs "
        "(comma-separated names as in `lspd sync --list`, or 'all' for those detected)",
    )
    serve.set_defaults(func=_serve)


def add_root(parser: argparse.ArgumentParser, help: str) -> None:
    """`--root DIR`, as on every command, and the positional ROOT kept as its alias."""
    parser.add_argument("--root", dest="root_option", metavar="DIR", help=help)
    parser.add_argument("root", nargs="?", help="the same as --root")


def _serve(args: argparse.Namespace) -> int:
    from lspd.daemon import head_start
    from lspd.errors import InvalidInput

    root = finding.resolve_root(args.root_option or args.root or ".")
    if not root.is_dir():
        raise InvalidInput(f"workspace root {root} is not a directory")
    found = finding.enclosing_daemon(root)
    if found is None and args.prewarm and not args.detach and not args.restricted:
        head_start.start(root)  # its servers start while lspd's own modules are imported
    try:
        return _serve_root(args, root, found)
    finally:
        head_start.close()  # what no session took (when no daemon ran here)


def _serve_root(args: argparse.Namespace, root: Path, found: finding.Probe | None) -> int:
    from lspd.daemon import instance, run
    from lspd.workspace.config import load_config

    load_config(root)  # a bad lspd.toml stops here with its message, detached or not
    options = run.Options(
        root=root,
        port=args.port,
        token=args.token,
        prewarm=args.prewarm,
        idle_timeout=args.idle_timeout,
        log_level=args.log_level,
        sync_agents=_sync_list(args.sync),
        restricted=args.restricted,
    )
    asked = {
        "token": args.token,
        "port": args.port,
        "idle_timeout": args.idle_timeout,
        "restricted": args.restricted,
    }
    if found is not None:
        return _already_served(found, root, asked)
    if args.detach:
        print(instance.spawn_detached(options), flush=True)
        return 0

    def announce(url: str) -> None:
        print(url, flush=True)
        print(f"lspd: serving {root} (log: {run.log_path(root)})", file=sys.stderr, flush=True)

    def farewell(why: str) -> None:  # `lspd stop` elsewhere must not end this one silently
        cause = {"SIGTERM": "SIGTERM: `lspd stop` or a kill", "SIGINT": "SIGINT: Ctrl-C"}
        print(f"lspd: stopped serving {root} ({cause.get(why, why)})", file=sys.stderr, flush=True)

    if instance.serve(options, announce, farewell) is not None:  # another serve won the lock
        found = finding.find_daemon(root)
        if found is not None:
            return _already_served(found, root, asked)
    return 0


def _already_served(found: finding.Probe, root: Path, asked: dict[str, object]) -> int:
    """A daemon serves `root` (or a directory above it): its URL, exit 0 when the options
    asked match it, else exit 1 naming the difference."""
    served = found.root
    inside = f" (inside {served})" if served != root else ""
    differ = _differences(found.health, asked)
    if differ:
        print(
            f"lspd: a daemon already serves {root}{inside} at {found.url}, but not with "
            f"{'; '.join(differ)}; to change it: lspd stop --root {served}, then serve again",
            file=sys.stderr,
        )
        return 1
    print(found.url, flush=True)
    print(f"lspd: a daemon already serves {root}{inside}", file=sys.stderr)
    return 0


def _differences(health: dict[str, Any], asked: dict[str, Any]) -> list[str]:
    """How the options `asked` of a new `serve` differ from a running daemon's: only those
    given (an option left out takes whatever runs), e.g. `--token (it runs without)`."""
    running = health.get("options", {})
    out = []
    for name, value in asked.items():
        if value is None or value is False or running.get(name) == value:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            out.append(f"{flag} (it runs without)")
        else:
            out.append(f"{flag} {value:g} (it runs with {running.get(name)})")
    return out


def _sync_list(values: list[str]) -> tuple[str, ...]:
    """Agent names from `--sync a,b --sync c`, checked now rather than after the bind."""
    names = tuple(n.strip() for value in values for n in value.split(",") if n.strip())
    if names and names != ("all",):
        from lspd.agents import get_descriptor  # not without --sync: tomlkit, 5 ms of a start

        for name in names:
            get_descriptor(name)  # raises with the list of known agents
    return names


def _stop(args: argparse.Namespace) -> int:
    root = finding.resolve_root(args.root_option or args.root)
    probed = finding.probe(root)
    if probed.stale:
        finding.remove_stale(probed)
        print(f"lspd: no daemon ran for {root}; removed its stale sentinel", file=sys.stderr)
        return 0
    if not probed.ok and probed.port is None:
        print(f"lspd: {probed.reason}: nothing to stop", file=sys.stderr)
        return 0
    found = finding.stop(root, found=probed)  # not probed twice: 2 s each for a busy one
    print(f"lspd: stopped the daemon of {root} (pid {found.pid})", file=sys.stderr)
    return 0


def _status(args: argparse.Namespace) -> int:
    root = finding.resolve_root(args.root_option or args.root)
    found = finding.awaited(root)
    if not found.ok:
        print(f"lspd: {found.reason}", file=sys.stderr)
        return 1
    page = found.url.removesuffix("mcp")  # the live status page, GET /
    if args.open:
        _open(page)
    result = client.call_on(found, "status", {})
    if args.json:
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
        return 0
    print(render("StatusResult", result))
    print(f"  MCP at {found.url}")
    print(f"  live status page at {page}")
    return 0


def _open(url: str) -> None:
    """Open the status page in a graphical browser; say so where there is none (a text
    browser would take the terminal)."""
    import os
    import webbrowser

    graphical = any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"))
    if sys.platform.startswith("linux") and not graphical:
        print(f"lspd: no graphical browser here; open {url} in one", file=sys.stderr)
    elif not webbrowser.open(url):
        print(f"lspd: no browser could open {url}; open it in one", file=sys.stderr)


def _health(args: argparse.Namespace) -> int:
    root = finding.resolve_root(args.root_option or args.root)
    found = finding.probe(root)
    healthy = found.ok and not any(s.get("state") == "crashed" for s in found.health["servers"])
    reason = found.reason
    if healthy:
        try:  # what an agent does first: the tool list over MCP
            tools = client.list_tools(found)
        except LspdError as exc:
            healthy, reason = False, f"/health answers but MCP tools/list fails: {exc}"
        else:
            if not tools:
                healthy, reason = False, "/health answers but MCP tools/list is empty"
            else:
                reason = f"{reason}; MCP tools/list: {len(tools)} tools"
    print(f"{'ok' if healthy else 'unhealthy'}: {reason}", file=sys.stdout)
    return 0 if healthy else 1
