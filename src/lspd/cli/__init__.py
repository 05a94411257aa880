"""The `lspd` command line. Each module in `COMMAND_MODULES` adds its subcommands."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from lspd import __version__
from lspd.errors import InvalidInput

# Each module has `register(subparsers)`; its subcommands set `func(args) -> int`. With
# the commands it defines, but for the query commands (one per operation of the table).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "lspd.cli.query": (),
    "lspd.cli.check": ("check",),
    "lspd.cli.servers": ("servers", "schema"),
    "lspd.cli.daemon": ("serve", "stop", "status", "health"),
    "lspd.cli.sync": ("sync",),
    "lspd.cli.hook": ("hook",),
    "lspd.cli.mcp": ("mcp",),
}
# Commands that set up logging themselves, only where they work in-process: answered by the
# daemon they log nothing, and start without importing `logging` (~3-5 ms of each start).
# The query commands (`lspd hover` ...) do it too: their parsers set `logs_itself`.
OWN_LOGGING = frozenset({"check"})


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; given the command about to run, only the module defining it is imported
    (`lspd serve` builds it in ~1 ms, not ~6), or for a query the modules up to it (a query
    through the daemon starts in ~75 ms, not ~120 ms)."""
    parser = _Parser(
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


class _Parser(argparse.ArgumentParser):
    """A parser whose usage errors are one line, as every other error of the CLI (argparse
    prints the usage block and exits itself)."""

    _intermixing = False

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """A command's arguments in any order: `lspd rename PATH --symbol NAME NEW_NAME`
        gives PATH and NEW_NAME to the two positionals (argparse alone would give PATH to
        the second, the required one, and refuse NEW_NAME). The top parser, holding the
        commands, parses as argparse does."""
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, its width found without `shutil` (argparse imports it for
        `get_terminal_size` at each `add_argument`: ~3 ms of every command's start)."""
        return self.formatter_class(prog=self.prog, width=_columns() - 2)  # type: ignore[call-arg]

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("lspd").strip()
        raise InvalidInput(
            f"{command + ': ' if command else ''}{message}; see `{self.prog} --help`"
        )


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it: `COLUMNS`, else the
    terminal of stdout, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every failure is one line (JSON on stdout with `--json`), exit 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv and not argv[0].startswith("-") else None
    as_json = "--json" in argv
    try:
        args = build_parser(command).parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        if args.command not in OWN_LOGGING and not getattr(args, "logs_itself", False):
            log_warnings()
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `lspd ... | head`
        sys.stderr.close()
        return 0
    except Exception as exc:  # no traceback reaches a user (LSPD_DEBUG=1 shows it)
        if os.environ.get("LSPD_DEBUG"):
            raise
        _report(exc, as_json, command)
        return 2
    return code


def log_warnings() -> None:
    """Warnings of the work done in this process on stderr, one line each."""
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def _report(exc: Exception, as_json: bool, command: str | None) -> None:
    """The error as one line: JSON on stdout for a script (`--json`), else on stderr."""
    from lspd.cli.errors import describe

    message, kind = describe(exc, command)
    if as_json:  # a script parses stdout: the error goes there too
        print(json.dumps({"error": message, "kind": kind}, ensure_ascii=False))
    else:
        print(f"lspd: {message}", file=sys.stderr)
