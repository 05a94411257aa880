"""Which version of a server is installed, by the lookup its definition names (data).

`version` in servers.toml: `python` (a distribution's metadata), `npm` (a package.json in
the server's npm prefix), `command` (argv whose output holds the version; `pattern` picks
it, its first group if it has one) and `dpkg` (a Debian package), tried in that order.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess

from lspd.servers.registry import ServerDefinition, find_executable

COMMAND_TIMEOUT_S = 10.0


def installed_version(definition: ServerDefinition) -> str | None:
    source = definition.version_source
    if package := source.get("python"):
        return _python(package)
    if package := source.get("npm"):
        return _npm(definition, package)
    if (command := source.get("command")) and (
        found := _command(definition, command, source.get("pattern"))
    ):
        return found
    if package := source.get("dpkg"):
        return _output(["dpkg-query", "--show", "--showformat=${Version}", package])
    return None


def _python(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _npm(definition: ServerDefinition, package: str) -> str | None:
    manifest = definition.npm_root() / package / "package.json"
    try:
        return str(json.loads(manifest.read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def _command(definition: ServerDefinition, command: list[str], pattern: str | None) -> str | None:
    argv = [definition.expand(part) for part in command]
    argv[0] = find_executable(argv[0]) or argv[0]
    output = _output(argv)
    if output is None:
        return None
    if pattern is None:
        return output.splitlines()[0].strip() or None
    match = re.search(pattern, output)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def _output(argv: list[str]) -> str | None:
    """What `argv` prints (stdout, else stderr), or None when it cannot run or fails."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return (done.stdout or done.stderr).strip() or None
