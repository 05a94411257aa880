"""`lspd servers` (each language's servers: selected, found, version, how to install),
`lspd servers install` and `lspd schema` (JSON Schemas of results).

The operations, pydantic, the workspace and the version lookups are imported by the commands
that use them, not when the parser is built: every `lspd` call (an agent's hook on each edit,
`lspd serve`) builds it.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from lspd import __version__
from lspd.daemon.finding import find_daemon, resolve_root
from lspd.errors import InvalidInput, ServerNotInstalled
from lspd.servers.registry import definitions

if TYPE_CHECKING:
    from lspd.servers.registry import ServerDefinition


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`lspd servers` (list, install) and `lspd schema`."""
    parser = subparsers.add_parser(
        "servers",
        help="each language's servers: which one this workspace uses, found or missing, "
        "version, install command",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--root", help="workspace whose lspd.toml selects servers (default: .)")
    parser.set_defaults(func=_list)
    actions = parser.add_subparsers(dest="action")
    installer = actions.add_parser(
        "install",
        help="install servers: a language (its server in this workspace) or a server name",
        description="pip installs into lspd's own Python, npm into lspd's cache, apt-get only "
        "as root; a server found already is left as it is (unless --reinstall).",
    )
    installer.add_argument("names", nargs="+", metavar="LANGUAGE|SERVER")
    installer.add_argument("--root", help="workspace whose lspd.toml selects servers")
    installer.add_argument("--reinstall", action="store_true", help="install even when found")
    installer.set_defaults(func=_install)

    schema = subparsers.add_parser("schema", help="JSON Schemas of every result, with a version")
    schema.set_defaults(func=_schema)


def _chosen(args: argparse.Namespace) -> dict[str, str]:
    from lspd.workspace.config import load_config

    return load_config(resolve_root(args.root)).chosen


def _list(args: argparse.Namespace) -> int:
    from lspd.cli.render import render
    from lspd.ops.state import servers
    from lspd.workspace.config import load_config, user_restricted
    from lspd.workspace.toolchain import Choice

    root = resolve_root(args.root)
    config = load_config(root)
    # Then only lspd's own toolchains and servers run: by the user's default, or because the
    # daemon serving this root was started `--restricted` (what it runs is what to show).
    running = find_daemon(root)
    restricted = user_restricted() or bool(running and running.health.get("restricted"))
    python = None if config.python is None else root / config.python
    choice = Choice(typescript=config.typescript, python=python, restricted=restricted)
    result = servers({} if restricted else config.chosen, root, choice)
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":")))
    else:
        print(render("ServersResult", result.model_dump(mode="json")))
    return 0


def _install(args: argparse.Namespace) -> int:
    from lspd.servers.install import install
    from lspd.servers.versions import inspect

    chosen = _chosen(args)
    for definition in [_definition(name, chosen) for name in args.names]:
        if inspect(definition).missing is None and not args.reinstall:
            print(f"{_named(definition)} is installed")
            continue
        install(definition)  # says "lspd: installing NAME: COMMAND" on stderr itself
        if missing := inspect(definition).missing:
            raise ServerNotInstalled(
                definition.name,
                f"{definition.name} is still not usable after installing: {missing}",
            )
        print(f"{_named(definition)} is installed")
    return 0


def _definition(name: str, chosen: dict[str, str]) -> ServerDefinition:
    """A server by name, or the server of a language (or of an LSP language id, e.g. cpp)."""
    wanted = name.lower()
    known = definitions()
    if wanted in known:
        return known[wanted]
    for definition in known.values():  # file order: the default first
        if wanted == definition.language or wanted in definition.extensions.values():
            return known[chosen.get(definition.language, definition.name)]
    languages = sorted({d.language for d in known.values()})
    raise InvalidInput(
        f"no language or server named {name!r}; languages: {', '.join(languages)}; "
        f"servers: {', '.join(known)}"
    )


def _named(definition: ServerDefinition) -> str:
    from lspd.servers.versions import inspect

    return f"{definition.name} {inspect(definition).version or ''}".strip()


def _schema(args: argparse.Namespace) -> int:
    from lspd.ops.models import SCHEMA_VERSION
    from lspd.surface.arguments import input_schema
    from lspd.surface.table import OPERATIONS, result_models

    document = {
        "schema_version": SCHEMA_VERSION,
        "lspd_version": __version__,
        "results": {name: model.model_json_schema() for name, model in result_models().items()},
        "inputs": {op.name: input_schema(op) for op in OPERATIONS if op.tool or op.command},
    }
    print(json.dumps(document, indent=2))
    return 0
