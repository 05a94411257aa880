"""The query commands: `lspd hover PATH:LINE:COL`, `lspd diagnostics PATH`, ... (spec §5).

One subcommand per operation of the table (`lspd.surface.table`) that has a `command`, with
its parameters as arguments. Each runs through the workspace's daemon when one runs, else
in-process with the same argument checks as MCP, and prints the answer as text or, with
`--json`, as JSON. Through a daemon neither form imports pydantic nor the workspace.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

from lspd.daemon.client import call_tool, find_daemon, probe, resolve_root
from lspd.errors import InvalidInput
from lspd.sentinel import port_path
from lspd.surface.table import OPERATIONS, POSITION_HELP, Operation, Param


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for op in OPERATIONS:
        if op.command is not None:
            _command(subparsers, op)


def _command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], op: Operation
) -> None:
    parser = subparsers.add_parser(op.command or op.name, help=op.summary, description=op.summary)
    parser.add_argument("--root", help="workspace root (default: nearest with a daemon, else .)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=lambda args: _run(args, op))
    if op.position:
        parser.add_argument("position", nargs="?", help=POSITION_HELP)
        parser.add_argument(
            "--symbol", help="a name path such as Greeter.greet instead of a position"
        )
    for param in op.params:
        _argument(parser, param)


def _argument(parser: argparse.ArgumentParser, param: Param) -> None:
    """The parameter as a positional (required, or a list) or a flag; unset flags send
    nothing, so the operation's own default applies."""
    kind, choices = _scalar(param.annotation)
    help = param.cli_help or param.description
    if param.cli_form == "negate":
        flag = param.cli or f"--no-{param.name.replace('_', '-')}"
        parser.add_argument(flag, dest=param.name, action="store_const", const=False, help=help)
    elif param.cli_form == "flag":
        flag = param.cli or f"--{param.name.replace('_', '-')}"
        parser.add_argument(flag, dest=param.name, action="store_const", const=True, help=help)
    elif param.cli_form in ("file", "json"):
        flag = param.cli or f"--{param.name.replace('_', '-')}-file"
        parser.add_argument(flag, dest=param.name, required=param.required, help=help)
    elif kind is list:
        parser.add_argument(param.name, metavar=param.cli or param.name, nargs="*", help=help)
    elif param.required:
        parser.add_argument(param.name, metavar=param.cli or param.name, help=help)
    else:
        flag = param.cli or f"--{param.name.replace('_', '-')}"
        if param.default is not None:
            help += f" (default: {param.default})"
        parser.add_argument(flag, dest=param.name, type=kind, choices=choices, help=help)


def _scalar(annotation: Any) -> tuple[Any, list[Any] | None]:
    """The argparse type of an annotation (`int | None` -> int) and its choices (Literal)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return str, list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _scalar(options[0])
    if origin is list:
        return list, None
    return annotation, None


def _absolute(raw: str) -> str:
    return str(Path(raw).expanduser().absolute())


def arguments(args: argparse.Namespace, op: Operation) -> dict[str, Any]:
    """The operation's arguments from the command line; paths made absolute from the cwd."""
    out: dict[str, Any] = {}
    if op.position:
        out.update(parse_position(args.position, args.symbol))
    for param in op.params:
        value = getattr(args, param.name, None)
        if value is None or value == []:
            continue
        if param.cli_form in ("file", "json"):
            value = sys.stdin.read() if value == "-" else Path(value).read_text(encoding="utf-8")
            if param.cli_form == "json":
                value = _json(value, param.cli or param.name)
            if param.name == "changes" and isinstance(value, list):  # paths from the cwd
                value = [
                    {**c, "path": _absolute(c["path"])}
                    if isinstance(c, dict) and isinstance(c.get("path"), str)
                    else c
                    for c in value
                ]
        elif param.name == "path":
            value = _absolute(value)
        out[param.name] = value
    return out


def _json(text: str, flag: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidInput(
            f"{flag} is not JSON ({exc}); send e.g. "
            '[{"path": "src/a.py", "content": "..."}, {"path": "src/old.py", "content": null}]'
        ) from None


def parse_position(position: str | None, symbol: str | None) -> dict[str, Any]:
    """`PATH:LINE:COLUMN`, or `--symbol NAME` (with PATH to look in that file only)."""
    if position is None:
        if symbol is None:
            raise InvalidInput(f"send a position ({POSITION_HELP}) or --symbol NAME")
        return {"symbol": symbol}
    if symbol is not None:
        return {"path": _absolute(position), "symbol": symbol}
    parts = position.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise InvalidInput(f"{position!r} is not {POSITION_HELP}, e.g. src/app.py:12:5")
    return {"path": _absolute(parts[0]), "line": int(parts[1]), "column": int(parts[2])}


def _run(args: argparse.Namespace, op: Operation) -> int:
    given = arguments(args, op)
    root = root_for(args.root, given.get("path"))
    if args.json:  # the same bytes as the MCP text block: one page
        result = run_tool(root, op.name, given)
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
        return 0
    from lspd.cli.render import render

    limit = next((p for p in op.params if p.name == "limit"), None)
    if limit is not None and any(p.name == "offset" for p in op.params):
        from lspd.cli.pages import follow

        result = follow(lambda page: run_tool(root, op.name, page), given, int(limit.default))
    else:
        result = run_tool(root, op.name, given)
    print(render(op.result, result))
    return 0


def root_for(root: str | None, path: str | None) -> Path:
    """The workspace of a query: `--root`; else the nearest ancestor of the file asked about
    whose daemon runs (a file in another served project is answered warm by its daemon);
    else the one found from the current directory."""
    if root is None and path is not None:
        for directory in Path(path).parents:
            if port_path(directory).is_file() and find_daemon(directory) is not None:
                return directory
    return resolve_root(root)


def run_tool(root: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The result of `tool` as JSON data: from the running daemon, else computed here."""
    warm = call_tool(root, tool, arguments)
    if warm is not None:
        return warm
    import asyncio

    stale = probe(root)
    if stale.stale:  # say why this is slow, once: a killed daemon left its sentinel
        print(
            f"lspd: {stale.reason} (`lspd stop` clears it); answering in-process, slower",
            file=sys.stderr,
        )
    return asyncio.run(_in_process(root, tool, arguments))


async def _in_process(root: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The operation run here, its arguments checked exactly as the MCP tool checks them."""
    from lspd.ops.budget import compact
    from lspd.surface.arguments import validate
    from lspd.surface.table import call, operation
    from lspd.workspace import Workspace

    op = operation(tool)
    checked = validate(op, arguments)
    ws = Workspace(root)
    try:
        return compact(await call(op, ws, checked))
    finally:
        await ws.close()
