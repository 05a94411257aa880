"""The query commands: `lspd hover PATH:LINE:COL`, `lspd diagnostics PATH`, ... (spec §5).

One subcommand per operation of the table (`lspd.surface.table`) that has a `command` (its
MCP tool's name in kebab-case), with its parameters as arguments, read from the table as
`lspd.surface.commands` wrote it out. Each runs through the workspace's daemon when one runs, else
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

from lspd.cli.errors import read_input
from lspd.daemon.client import call_tool
from lspd.daemon.finding import find_daemon, probe, resolve_root
from lspd.errors import InvalidInput
from lspd.sentinel import port_path
from lspd.surface.commands import Command, commands
from lspd.surface.operation import Param

# Results whose pages are parts of one edit: `--json` joins them unless a page is asked for
# (`--offset`, `--limit`), since its diff is applied whole (`git apply` of a page alone is
# half a rename).
WHOLE = frozenset({"RenameResult"})
# Results whose pages are of `changes.introduced`, not of a list `follow` merges: the text
# shows the page asked and says where the rest starts; `--json` holds every page unless a
# page is asked for (`--offset`, `--limit`), as `check --baseline --json` does. Its pages are
# cut from one comparison: the daemon's kept one, else the one made here for the command.
ONE_PAGE = frozenset({"PreviewResult"})
POSITION_HELP = "PATH:LINE:COLUMN (1-based; the column counts characters), or PATH with --symbol"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """One subcommand per query command of the table."""
    for op in commands():
        _command(subparsers, op)


def _command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], op: Command) -> None:
    parser = subparsers.add_parser(
        op.command, aliases=op.aliases, help=op.description, description=op.description
    )
    parser.add_argument("--root", help="workspace root (default: nearest with a daemon, else .)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=lambda args: _run(args, op), logs_itself=True)
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
    elif param.cli_form == "changes":
        _changes_arguments(parser, param, help)
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


def arguments(args: argparse.Namespace, op: Command) -> dict[str, Any]:
    """The operation's arguments from the command line; paths made absolute from the cwd."""
    out: dict[str, Any] = {}
    if op.position:
        out.update(parse_position(args.position, args.symbol))
    for param in op.params:
        if param.cli_form == "changes":
            out[param.name] = read_changes(args, param)
            continue
        value = getattr(args, param.name, None)
        if value is None or value == []:
            continue
        if param.cli_form in ("file", "json"):
            value = read_input(param.cli or param.name, value)
            if param.cli_form == "json":
                value = _json(value, param.cli or param.name)
        elif param.name == "path" and any(p.name == "line" for p in op.params):
            place = parse_place(value)  # PATH[:LINE[:COLUMN]] (`fixes`)
            out.update({k: v for k, v in place.items() if out.get(k) is None})
            continue
        elif param.name == "path":
            value = _absolute(value)
        out[param.name] = value
    return out


def parse_place(place: str) -> dict[str, Any]:
    """`PATH`, `PATH:LINE` or `PATH:LINE:COLUMN` (a path itself may hold a colon)."""
    parts = place.rsplit(":", 2)
    numbers: list[int] = []
    while len(parts) > 1 and parts[-1].isdigit():
        numbers.insert(0, int(parts.pop()))
    out: dict[str, Any] = {"path": _absolute(":".join(parts))}
    out.update(zip(("line", "column"), numbers, strict=False))
    return out


def _changes_arguments(parser: argparse.ArgumentParser, param: Param, help: str) -> None:
    """A preview's changes, in whichever forms the caller holds them (together too)."""
    group = parser.add_argument_group("the changes (any of these forms, together too)")
    group.add_argument(param.cli or "--changes", dest=param.name, help=help)
    group.add_argument(
        "--patch",
        metavar="FILE",
        help="a unified diff as `git diff` prints it ('-': stdin), applied in memory to the "
        "files on disk; new, deleted and renamed files too",
    )
    group.add_argument(
        "--file",
        dest="files",
        action="append",
        metavar="PATH",
        help="a file to change (repeatable): its new text is the next --content-file",
    )
    group.add_argument(
        "--content-file",
        dest="contents",
        action="append",
        metavar="F",
        help="the new text of the --file before it ('-': stdin)",
    )


def read_changes(args: argparse.Namespace, param: Param) -> list[Any]:
    """The preview's `[{path, content}]` from `--changes`, `--patch` and `--file`/
    `--content-file` pairs, paths made absolute (from the current directory, a patch's
    from the top of the repository of `--root`, else of the current directory)."""
    out: list[Any] = []
    flag = param.cli or "--changes"
    if getattr(args, param.name, None) is not None:
        value = _json(read_input(flag, getattr(args, param.name)), flag)
        if not isinstance(value, list):
            return value  # type: ignore[no-any-return]  # the operation says what to send
        out += [
            {**c, "path": _absolute(c["path"])}
            if isinstance(c, dict) and isinstance(c.get("path"), str)
            else c
            for c in value
        ]
    if args.patch is not None:
        from lspd.cli.patch import base_directory, changes

        here = Path(args.root).resolve() if args.root else Path.cwd()  # `--root`'s diff
        out += changes(read_input("--patch", args.patch), base_directory(here))
    files, contents = args.files or [], args.contents or []
    if len(files) != len(contents):
        raise InvalidInput(
            f"each --file PATH takes the --content-file F after it; got {len(files)} --file "
            f"and {len(contents)} --content-file"
        )
    for path, content in zip(files, contents, strict=True):
        out.append({"path": _absolute(path), "content": read_input("--content-file", content)})
    if not out:
        raise InvalidInput(
            "send the changes: --patch FILE (a unified diff, '-': stdin), --file PATH "
            f"--content-file F (repeatable), or {flag} FILE (JSON [{{path, content}}])"
        )
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


def _run(args: argparse.Namespace, op: Command) -> int:
    given = arguments(args, op)
    root = root_for(args.root, given.get("path"))
    if args.json and op.result in ONE_PAGE and not {"offset", "limit"} & set(given):
        result = _every_page(root, op.name, given)
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
        return exit_code(result)
    if args.json and not (op.result in WHOLE and not {"offset", "limit"} & set(given)):
        result = run_tool(root, op.name, given)  # the same bytes as the MCP text block
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
        return exit_code(result)
    limit = next((p for p in op.params if p.name == "limit"), None)
    offset = any(p.name == "offset" for p in op.params)
    if limit is not None and offset and op.result not in ONE_PAGE:
        from lspd.cli.pages import follow

        with _Here(root) as here:  # without a daemon, every page from one workspace
            result = follow(
                lambda page: run_tool(root, op.name, page, here), given, int(limit.default)
            )
    else:
        result = run_tool(root, op.name, given)
    if args.json:  # a whole edit: every page joined, the MCP answer's form
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
        return exit_code(result)
    from lspd.cli.render import render

    print(render(op.result, result))
    return exit_code(result)


def _every_page(root: Path, tool: str, given: dict[str, Any]) -> dict[str, Any]:
    """Every page of `tool`'s `changes.introduced` joined into the first page's answer, from
    one comparison: the daemon's kept one, or (one question: `workspace.question`) the one
    made here for the first page."""
    from lspd.cli.pages import joined
    from lspd.workspace.question import one_question

    with _Here(root) as here, one_question():
        pages = [run_tool(root, tool, given, here)]
        while (at := pages[-1].get("next_offset")) is not None:
            pages.append(run_tool(root, tool, {**given, "offset": at}, here))
    return joined(pages)


def exit_code(result: dict[str, Any]) -> int:
    """1 when an answer against a baseline (a preview's is the disk) has introduced errors,
    as `lspd check --baseline`: its `errors` then counts those, text or JSON alike."""
    return 1 if "changes" in result and result.get("errors", 0) else 0


def root_for(root: str | None, path: str | None) -> Path:
    """The workspace of a query: `--root`; else the nearest ancestor of the file asked about
    whose daemon runs (a file in another served project is answered warm by its daemon);
    else the one found from the current directory."""
    if root is None and path is not None:
        for directory in Path(path).parents:
            if port_path(directory).is_file() and find_daemon(directory) is not None:
                return directory
    return resolve_root(root)


class _Here:
    """The workspace a command asking several pages without a daemon runs them all on (one
    server start, not one per page), made at the first page computed here."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._runner: Any = None
        self._ws: Any = None

    def __enter__(self) -> _Here:
        return self

    def __exit__(self, *_: object) -> None:
        if self._runner is None:
            return
        if self._ws is not None:  # None: making it failed (a bad lspd.toml), said already
            self._runner.run(self._ws.close(polite=False))
        self._runner.close()

    @property
    def started(self) -> bool:
        """Whether a page was computed here (then every next one is)."""
        return self._runner is not None

    def run(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The operation's answer, computed on this command's workspace."""
        if self._runner is None:
            import asyncio

            from lspd.workspace import Workspace

            self._runner = asyncio.Runner()
            self._ws = Workspace(self.root)
        result: dict[str, Any] = self._runner.run(_in_process(self._ws, tool, arguments))
        return result


def run_tool(
    root: Path, tool: str, arguments: dict[str, Any], here: _Here | None = None
) -> dict[str, Any]:
    """The result of `tool` as JSON data: from the running daemon, else computed here (on
    `here`'s workspace when given)."""
    warm = call_tool(root, tool, arguments)
    if warm is not None:
        return warm
    import asyncio

    if here is not None and here.started:
        return here.run(tool, arguments)
    stale = probe(root)
    if stale.stale:  # say why this is slow, once: a killed daemon left its sentinel
        print(
            f"lspd: {stale.reason} (`lspd stop` clears it); answering in-process, slower",
            file=sys.stderr,
        )
    if here is not None:
        return here.run(tool, arguments)
    return asyncio.run(_once(root, tool, arguments))


async def _once(root: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The operation run here on a workspace of its own."""
    from lspd.workspace import Workspace

    ws = Workspace(root)
    try:
        return await _in_process(ws, tool, arguments)
    finally:
        await ws.close(polite=False)


async def _in_process(ws: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The operation run here, its arguments checked exactly as the MCP tool checks them
    (and its warnings logged: through a daemon the CLI imports no `logging`)."""
    from lspd.cli import log_warnings
    from lspd.ops.budget import compact
    from lspd.surface.arguments import validate
    from lspd.surface.table import call, operation

    log_warnings()
    op = operation(tool)
    checked = validate(op, arguments)
    return compact(await call(op, ws, checked))
