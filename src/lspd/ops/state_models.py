"""The result models of `status` and `servers`: the daemon, its servers, the servers defined."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from lspd.lsp.state import ServerState
from lspd.ops.check_models import SkippedFile
from lspd.ops.models import Model


class ServerStatus(Model):
    """One language server process."""

    language: str
    """The language it serves."""
    server: str
    """Its name."""
    project: str = "."
    """Its first project root."""
    projects: list[str] = Field(default_factory=list)
    """Every project it serves."""
    state: ServerState
    """`starting`, `indexing`, `ready`, `busy` (answering nothing while asked), `crashed` or
    `stopped`."""
    pid: int | None
    """Its process id, while it runs."""
    open_documents: int = 0
    """Files it holds open."""
    rss_mb: float | None = None
    """Resident memory of it and its child processes, in MB."""
    toolchain: str | None = None
    """The TypeScript or Python it runs."""
    busy: str | None = None
    """While it answers nothing although asked: for how long, and the request and file it
    is stuck on."""
    restarted: str | None = None
    """Why lspd last restarted it (stuck too long, or its toolchain changed)."""
    environment: str | None = None
    """When imports did not resolve in its diagnostics: how to fix it."""
    checker: str | None = None
    """dmypy: which checker judges its project, and why (its configuration)."""
    kept_for: str | None = None
    """A server of no project of the workspace (rooted in a copy of one): what it is kept
    warm for, and how long."""


class StatusResult(Model):
    """The daemon and its language servers."""

    status: Literal["ok"] = "ok"
    """Always `ok` when it answers."""
    workspace: str
    """The workspace root."""
    pid: int
    """The daemon's process id."""
    version: str
    """lspd's version."""
    uptime_s: float
    """Seconds since it started."""
    restricted: bool = False
    """Restricted mode: no project code runs."""
    watches: int | None = None
    """Directories watched."""
    watch_problem: str | None = None
    """Why file changes are not all followed."""
    servers: list[ServerStatus]
    """Its language servers."""
    set_aside: list[SkippedFile] = Field(default_factory=list)
    """Files left out of workspace-wide work after a server got stuck on them."""


class ServerInfo(Model):
    """One defined language server: whether it is found and how to install it."""

    server: str
    """Its name."""
    language: str = Field(description="The language it serves (python, typescript, go, ...).")
    languages: list[str] = Field(description="The LSP language ids of the files it handles.")
    selected: bool = Field(
        description="True when it answers its language here: chosen in lspd.toml, else the "
        "default (the first server defined for the language)."
    )
    found: bool
    """True when it can run."""
    missing: str | None = Field(description="What is missing to run it, when it is not found.")
    version: str | None
    """Its version, when found."""
    command: list[str]
    """How lspd starts it."""
    install: str | None = Field(description="The command that installs it, if it can be.")
    toolchain: str | None = None
    """What it runs for the workspace's root project: its TypeScript or Python, from where."""


class ServersResult(Model):
    """Every defined server, grouped by language, the selected one first in each."""

    servers: list[ServerInfo]
    """The servers."""
