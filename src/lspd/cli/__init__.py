"""The `lspd` command line. Each module in `COMMAND_MODULES` adds its subcommands."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from collections.abc import Sequence

from lspd import __version__
from lspd.errors import LspdError, kind_of

# Each module has `register(subparsers)`; its subcommands set `func(args) -> int`. With
# the commands it defines, but for the query commands (one per operation of the table).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "lspd.cli.query": (),
    "lspd.cli.check": ("check",),
    "lspd.cli.servers": ("servers", "schema"),
    "lspd.cli.daemon": ("serve", "stop", "status", "health"),
    "lspd.cli.sync": ("sync",),
    "lspd.cli.hook": ("hook",),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; given the command about to run, only the module defining it is imported
    (`lspd serve` builds it in ~1 ms, not ~6), or for a query the modules up to it (a query
    through the daemon starts in ~75 ms, not ~120 ms)."""
    parser = argparse.ArgumentParser(
        prog="lspd",
        description="Warm language servers for coding agents: MCP over HTTP, and this CLI.",
    )
    parser.add_argument("--version", action="version", version=f"lspd {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    own = [name for name, commands in COMMAND_MODULES.items() if command in commands]
    for name in own or COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
        if command is not None and command in subparsers.choices:
            break
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv and not argv[0].startswith("-") else None
    args = build_parser(command).parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        code: int = args.func(args)
    except LspdError as exc:
        if getattr(args, "json", False):  # a script parses stdout: the error goes there too
            print(json.dumps({"error": str(exc), "kind": kind_of(exc)}, ensure_ascii=False))
        else:
            print("\n".join(f"lspd: {line}" for line in str(exc).splitlines()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `lspd ... | head`
        sys.stderr.close()
        return 0
    return code
