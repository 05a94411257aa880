"""`lspd servers` (what is configured and found) and `lspd schema` (JSON Schemas of results)."""

from __future__ import annotations

import argparse
import json

from lspd import __version__, ops
from lspd.cli.render import render
from lspd.errors import InvalidInput
from lspd.ops.models import RESULT_MODELS, SCHEMA_VERSION
from lspd.servers.install import install
from lspd.servers.registry import definitions
from lspd.servers.versions import installed_version


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "servers", help="configured language servers: found or missing, version, install command"
    )
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=_list)
    actions = parser.add_subparsers(dest="action")
    installer = actions.add_parser("install", help="install the server of a language")
    installer.add_argument("language", help="a language (python, typescript, ...) or server name")
    installer.set_defaults(func=_install)

    schema = subparsers.add_parser("schema", help="JSON Schemas of every result, with a version")
    schema.set_defaults(func=_schema)


def _list(args: argparse.Namespace) -> int:
    result = ops.servers()
    print(result.model_dump_json(indent=2) if args.json else render(result))
    return 0


def _install(args: argparse.Namespace) -> int:
    wanted = args.language.lower()
    matches = [d for d in definitions().values() if wanted in (d.name, d.language)]
    if not matches:
        names = sorted({d.language for d in definitions().values()})
        raise InvalidInput(f"no server for {args.language!r}; languages: {', '.join(names)}")
    definition = matches[0]
    print(f"installing {definition.name}: {install(definition)}")
    print(f"{definition.name} {installed_version(definition) or ''} is ready".replace("  ", " "))
    return 0


def _schema(args: argparse.Namespace) -> int:
    document = {
        "schema_version": SCHEMA_VERSION,
        "lspd_version": __version__,
        "results": {name: model.model_json_schema() for name, model in RESULT_MODELS.items()},
    }
    print(json.dumps(document, indent=2))
    return 0
