"""Whether a server is installed and which version, by the lookup its definition names (data).

`version` in servers.toml: `python` (a distribution's metadata), `npm` (a package.json in
the server's npm prefix), `command` (argv whose output holds the version; `pattern` picks
it, its first group if it has one) and `dpkg` (a Debian package), tried in that order. A
version command that fails means the server cannot run either (e.g. a rustup proxy for a
component that is not installed), so it counts as missing.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lspd.servers.registry import ServerDefinition, find_executable

COMMAND_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Installed:
    """Whether a server can run (`missing` says why not) and its version."""

    missing: str | None  # why it cannot run, or None
    version: str | None


def inspect(definition: ServerDefinition) -> Installed:
    """Whether the server is installed and which version, from where it is installed
    (a Python or npm package, or its own `--version`)."""
    missing = definition.missing()
    if missing is not None:
        return Installed(missing, None)
    source = definition.version_source
    if package := source.get("python"):
        return Installed(None, _python(package))
    if package := source.get("npm"):
        return Installed(None, _npm(definition, package))
    if command := source.get("command"):
        argv = [definition.expand(part) for part in command]
        argv[0] = find_executable(argv[0]) or argv[0]
        if (why := _rustup_without_home(argv[0])) is not None:
            return Installed(why, None)
        ok, output = _output(argv)
        if not ok:
            return Installed(f"`{' '.join(command)}` failed: {output}", None)
        if found := _pick(output, source.get("pattern")):
            return Installed(None, found)
    if package := source.get("dpkg"):
        ok, output = _output(["dpkg-query", "--show", "--showformat=${Version}", package])
        return Installed(None, output if ok and output else None)
    return Installed(None, None)


def _rustup_without_home(executable: str) -> str | None:
    """Why a rustup proxy (`rust-analyzer` -> rustup) cannot run, said without running it:
    run with no rustup home, it creates one (~/.rustup) only to say it has no toolchain, and
    `lspd servers` must not leave directories behind."""
    if Path(executable).resolve().name != "rustup":
        return None
    home = Path(os.environ.get("RUSTUP_HOME") or Path.home() / ".rustup")
    return None if home.is_dir() else f"rustup has no toolchain here ({home} does not exist)"


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


def _pick(output: str, pattern: str | None) -> str | None:
    if pattern is None:
        return output.splitlines()[0].strip() if output else None
    match = re.search(pattern, output)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def _output(argv: list[str]) -> tuple[bool, str]:
    """Whether `argv` succeeded, and what it printed (stdout, else the first line of stderr)."""
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return False, lines[0] if lines else f"exit code {done.returncode}"
    return True, (done.stdout or done.stderr).strip()
