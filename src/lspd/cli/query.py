"""The query commands: `lspd hover PATH:LINE:COL`, `lspd diagnostics PATH`, ... (spec §5).

Each builds the arguments of one operation, runs it (through the workspace's daemon when one
runs, else in-process) and prints the model as text or, with `--json`, as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from lspd import ops
from lspd.cli.render import render
from lspd.daemon.client import call_tool, resolve_root
from lspd.errors import InvalidInput
from lspd.ops.models import RESULT_MODELS
from lspd.workspace import Workspace

POSITION_HELP = "PATH:LINE:COLUMN (1-based; the column counts characters), or PATH with --symbol"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def command(name: str, tool: str, help: str) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(name, help=help, description=help)
        parser.add_argument(
            "--root", help="workspace root (default: nearest with a daemon, else .)"
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.set_defaults(func=lambda args: _run(args, tool))
        return parser

    p = command("diagnostics", "diagnostics", "errors and warnings of a file, as it is now")
    p.add_argument("path")
    p.add_argument("--content-file", help="check this file's text as if it were PATH ('-': stdin)")
    p.add_argument("--limit", type=int, default=100)

    p = command("workspace-diagnostics", "workspace_diagnostics", "problems of the whole workspace")
    p.add_argument("globs", nargs="*", help="only files matching these globs")
    p.add_argument("--limit", type=int, default=50, help="diagnostics per page (default: 50)")
    p.add_argument("--offset", type=int, help="first diagnostic of the page (default: 0)")

    for name, tool, help in [
        ("hover", "hover", "type, signature and docs at a position"),
        ("definition", "definition", "where the symbol at a position is defined"),
        ("type-definition", "type_definition", "where the type of the symbol is defined"),
        ("implementation", "implementation", "implementations of an interface or method"),
        ("references", "references", "every reference to the symbol"),
        ("call-hierarchy", "call_hierarchy", "callers (incoming) or callees (outgoing)"),
    ]:
        p = command(name, tool, help)
        p.add_argument("position", nargs="?", help=POSITION_HELP)
        p.add_argument("--symbol", help="a name path such as Greeter.greet instead of a position")
        if tool in ("definition", "type_definition", "implementation"):
            p.add_argument("--limit", type=int, default=50)
        if tool == "references":
            p.add_argument("--limit", type=int, default=200)
            p.add_argument("--no-declaration", action="store_true", help="omit the declaration")
        if tool == "call_hierarchy":
            p.add_argument("--direction", choices=["incoming", "outgoing"], default="incoming")
            p.add_argument("--limit", type=int, default=100)

    p = command("symbols", "document_symbols", "the symbol tree of a file")
    p.add_argument("path")
    p.add_argument("--depth", type=int)
    p.add_argument("--limit", type=int, default=500)

    p = command("workspace-symbols", "workspace_symbols", "search symbols by name")
    p.add_argument("query")
    p.add_argument("--kind", help="only this kind (class, function, method, ...)")
    p.add_argument("--limit", type=int, default=50)


def _absolute(raw: str) -> str:
    return str(Path(raw).expanduser().absolute())


def arguments(args: argparse.Namespace, tool: str) -> dict[str, Any]:
    """The operation's arguments from the command line; paths made absolute from the cwd."""
    out: dict[str, Any] = {}
    if hasattr(args, "position"):
        out.update(parse_position(args.position, args.symbol))
    if hasattr(args, "path"):
        out["path"] = _absolute(args.path)
    for name in ("limit", "offset", "depth", "query", "kind", "direction"):
        if getattr(args, name, None) is not None:
            out[name] = getattr(args, name)
    if getattr(args, "no_declaration", False):
        out["include_declaration"] = False
    if getattr(args, "globs", None):
        out["paths"] = args.globs
    if getattr(args, "content_file", None):
        if args.content_file == "-":
            out["content"] = sys.stdin.read()
        else:
            out["content"] = Path(args.content_file).read_text(encoding="utf-8")
    return out


def parse_position(position: str | None, symbol: str | None) -> dict[str, Any]:
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


def _run(args: argparse.Namespace, tool: str) -> int:
    root = resolve_root(args.root)
    result = run_tool(root, tool, arguments(args, tool))
    model = RESULT_MODELS[tool].model_validate(result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(render(model))
    return 0


def run_tool(root: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The result of `tool` as JSON data: from the running daemon, else computed here."""
    warm = call_tool(root, tool, arguments)
    if warm is not None:
        return warm
    return asyncio.run(_in_process(root, tool, arguments))


async def _in_process(root: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    ws = Workspace(root)
    try:
        result = await getattr(ops, tool)(ws, **arguments)
        data: dict[str, Any] = result.model_dump(mode="json")
        return data
    finally:
        await ws.close()
