"""Agent descriptors: where each coding agent keeps its MCP servers, as data.

Every agent is one TOML file beside this module. Supporting a new agent means
adding a file, never code: the sync logic only follows what a descriptor says.
"""

from __future__ import annotations

import functools
import os
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lspd.errors import InvalidInput, LspdError

Format = Literal["json", "toml"]


@dataclass(frozen=True)
class Scope:
    """One config file an agent reads, and where our entry sits inside it."""

    name: str
    path: str
    key: tuple[str, ...]

    def resolve_path(self, root: Path, home: Path) -> Path:
        return Path(expand(self.path, root=root, home=home))

    def resolve_key(self, root: Path, name: str) -> list[str]:
        return [part.replace("{root}", str(root)).replace("{name}", name) for part in self.key]


@dataclass(frozen=True)
class Hooks:
    """Where an agent reads its hooks, which of its tools edit files, which hooks it runs."""

    path: str  # a JSON file: {"hooks": {event: [{"matcher", "hooks": [{"type", "command"}]}]}}
    matcher: str  # the agent's names of its editing tools, as a regex
    event: str = "PostToolUse"
    # Seconds the agent gives each hook: room for lspd's budget (an edit's 3 s, the stop
    # gate's 60 s) and the process around it, so the agent never kills it first.
    timeout: int = 10
    stop: bool = False  # a Stop event: the stop gate
    turn: bool = False  # a UserPromptSubmit event: where a turn's changes begin (stop gate)
    turn_timeout: int = 10
    stop_timeout: int = 90
    rewake: bool = False  # a background PostToolUse hook that wakes the model (Claude Code)
    rewake_timeout: int = 330

    def resolve_path(self, root: Path, home: Path) -> Path:
        return Path(expand(self.path, root=root, home=home))


@dataclass(frozen=True)
class AgentDescriptor:
    """How lspd is written into one agent's configuration (one `agents/*.toml`): its
    file format, scopes, entry and hooks."""

    name: str
    title: str
    format: Format
    default_scope: str
    scopes: Mapping[str, Scope]
    entry: Mapping[str, Any]
    headers_key: str | None = None
    instructions: str | None = None
    detect_paths: tuple[str, ...] = ()
    detect_binaries: tuple[str, ...] = ()
    hooks: Hooks | None = None  # agents that run a command after each edit
    # The entry that starts `lspd mcp` (`sync --stdio`), for agents that take a command:
    # `{command}` is this installation's lspd, `{root}` the workspace.
    stdio_entry: Mapping[str, Any] | None = None
    source: str = field(default="", compare=False)

    def scope(self, name: str | None = None) -> Scope:
        chosen = name or self.default_scope
        try:
            return self.scopes[chosen]
        except KeyError:
            known = ", ".join(sorted(self.scopes))
            raise InvalidInput(
                f"agent {self.name!r} has no scope {chosen!r}; it has: {known}"
            ) from None

    def render_entry(
        self, url: str, name: str, root: Path, command: str | None = None
    ) -> dict[str, Any]:
        """The entry this agent needs, with `{url}`, `{name}` and `{root}` filled in; given
        `command` (the lspd to run), the stdio entry, `{command}` filled in too."""
        values = {"{url}": url, "{name}": name, "{root}": str(root)}
        if command is None:
            return {key: _fill(value, values) for key, value in self.entry.items()}
        if self.stdio_entry is None:
            raise InvalidInput(f"{self.title} takes no command for an MCP server; sync it by URL")
        values["{command}"] = command
        return {key: _fill(value, values) for key, value in self.stdio_entry.items()}

    def other_keys(self, stdio: bool) -> tuple[str, ...]:
        """The keys of the form not written (`url` when writing the command, and back)."""
        other = self.entry if stdio else (self.stdio_entry or {})
        return tuple(other)

    def detected(self, root: Path, home: Path) -> bool:
        """Whether this agent looks installed: one of its paths exists or a binary is on PATH."""
        for raw in self.detect_paths:
            if Path(expand(raw, root=root, home=home)).exists():
                return True
        return any(shutil.which(binary) for binary in self.detect_binaries)


def expand(raw: str, *, root: Path, home: Path) -> str:
    """`~` is the user's home (honouring HOME, so tests can move it), `{root}` the workspace."""
    text = raw.replace("{root}", str(root))
    if text == "~" or text.startswith("~/"):
        text = str(home) + text[1:]
    return os.path.normpath(text)


def _fill(value: Any, values: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        for placeholder, text in values.items():
            value = value.replace(placeholder, text)
        return value
    if isinstance(value, list):
        return [_fill(item, values) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, values) for key, item in value.items()}
    return value


def parse_descriptor(data: Mapping[str, Any], source: str) -> AgentDescriptor:
    """Build a descriptor, refusing an incomplete one with the file it came from."""
    try:
        scopes = {
            scope_name: Scope(scope_name, str(spec["path"]), tuple(str(k) for k in spec["key"]))
            for scope_name, spec in data["scopes"].items()
        }
        fmt = data["format"]
        if fmt not in ("json", "toml"):
            raise ValueError(f"format must be json or toml, not {fmt!r}")
        descriptor = AgentDescriptor(
            name=str(data["name"]),
            title=str(data.get("title", data["name"])),
            format=fmt,
            default_scope=str(data.get("default_scope") or next(iter(scopes))),
            scopes=scopes,
            entry=dict(data["entry"]),
            headers_key=data.get("auth", {}).get("headers"),
            instructions=data.get("instructions"),
            detect_paths=tuple(data.get("detect", {}).get("paths", ())),
            detect_binaries=tuple(data.get("detect", {}).get("binaries", ())),
            hooks=Hooks(**data["hooks"]) if "hooks" in data else None,
            stdio_entry=dict(data["stdio_entry"]) if "stdio_entry" in data else None,
            source=source,
        )
        descriptor.scope()
    except (KeyError, TypeError, ValueError, StopIteration, LspdError) as exc:
        raise LspdError(f"agent descriptor {source} is invalid: {exc!r}") from exc
    return descriptor


@functools.cache
def load_descriptors() -> dict[str, AgentDescriptor]:
    """Every descriptor shipped in the package, by agent name."""
    found: dict[str, AgentDescriptor] = {}
    for item in sorted(resources.files(__package__).iterdir(), key=lambda i: i.name):
        if not item.name.endswith(".toml"):
            continue
        descriptor = parse_descriptor(tomllib.loads(item.read_text("utf-8")), item.name)
        found[descriptor.name] = descriptor
    return found


def get_descriptor(name: str) -> AgentDescriptor:
    """The descriptor of the agent called `name`; `InvalidInput` naming the known agents."""
    descriptors = load_descriptors()
    try:
        return descriptors[name]
    except KeyError:
        known = ", ".join(descriptors)
        raise InvalidInput(f"unknown agent {name!r}; known agents: {known}") from None
