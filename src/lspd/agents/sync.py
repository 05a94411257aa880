"""Telling coding agents where the daemon listens: merge its URL into their configs.

The port changes whenever the daemon restarts, so this runs often (`lspd sync`,
and `lspd serve --sync` after every bind). Hence the rules: touch nothing but our
own entry, never rewrite a file that is already right, never leave a half-written
or unparsable file behind, and never put a secret in a file inside the repository.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from lspd.agents import files, formats
from lspd.agents.descriptor import AgentDescriptor, get_descriptor, load_descriptors
from lspd.agents.endpoint import read_token
from lspd.agents.skill import with_skill
from lspd.errors import InvalidInput, LspdError

Status = Literal["created", "updated", "unchanged", "would create", "would update", "error"]

DEFAULT_NAME = "lspd"


@dataclass
class FileResult:
    """What happened to one file: an agent's config, or an instructions file for --skill."""

    agent: str
    path: Path
    status: Status
    diff: str = ""
    backup: Path | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status != "error"


@dataclass
class SyncReport:
    """What `lspd sync` did: the MCP URL written and one result per file."""

    url: str
    results: list[FileResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.results)

    @property
    def changed(self) -> bool:
        return any(result.status in ("created", "updated") for result in self.results)


def sync_agents(
    root: Path,
    url: str,
    agents: Sequence[str] | None = None,
    *,
    name: str = DEFAULT_NAME,
    scope: str | None = None,
    token: str | None = None,
    dry_run: bool = False,
    skill: bool = False,
    home: Path | None = None,
    stdio: bool = False,
) -> SyncReport:
    """Write `url` as MCP server `name` into the config of each agent; never raises per file.

    `agents` are descriptor names; None means every agent detected on this machine.
    `scope` picks a non-default config (e.g. "project" for Claude's `.mcp.json`).
    `token` defaults to the one in ROOT/.vscode/.mcp-token (token mode). With
    `skill`, the skill text is also installed in each agent's instructions file. With
    `stdio`, the entry is the command `lspd mcp --root ROOT` instead of the URL.
    A file that cannot be merged is reported in the result and left untouched;
    unknown agent names or an invalid `name` raise InvalidInput before anything is written.
    """
    root = root.resolve()
    home = home or Path.home()
    check_name(name)
    descriptors = select_agents(agents, root, home)
    if token is None:
        token = read_token(root)
    report = SyncReport(url=url)
    for descriptor in descriptors:
        report.results.append(
            sync_agent(
                descriptor,
                root,
                url,
                name=name,
                scope=scope,
                token=token,
                dry_run=dry_run,
                home=home,
                explicit=agents is not None,
                stdio=stdio,
            )
        )
    if skill:
        report.results.extend(install_skill(root, descriptors, dry_run=dry_run))
    return report


def lspd_command() -> str:
    """The lspd an agent starts for `sync --stdio`: this installation's, whatever PATH the
    agent has (an editor started from a desktop has not the shell's)."""
    return str(Path(sys.executable).parent / "lspd")


def check_name(name: str) -> None:
    """Refuse a server name an agent's config could not hold (letters, digits, `-`, `_`)."""
    if not name or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in name):
        raise InvalidInput(
            f"server name {name!r} is not valid: use letters, digits, '-' and '_' only"
        )


def select_agents(agents: Sequence[str] | None, root: Path, home: Path) -> list[AgentDescriptor]:
    """The named descriptors (in order, once each), or every detected one."""
    if agents is None:
        return [d for d in load_descriptors().values() if d.detected(root, home)]
    return [get_descriptor(agent) for agent in dict.fromkeys(agents)]


def sync_agent(
    descriptor: AgentDescriptor,
    root: Path,
    url: str,
    *,
    name: str = DEFAULT_NAME,
    scope: str | None = None,
    token: str | None = None,
    dry_run: bool = False,
    home: Path | None = None,
    explicit: bool = True,
    stdio: bool = False,
) -> FileResult:
    """Write lspd's MCP entry (and `token`) into one agent's config at `scope`, keeping
    everything else in it; with `dry_run`, only say what would change. With `stdio`, the
    entry starts `lspd mcp` (which reads the token itself) instead of naming the URL."""
    home = home or Path.home()
    chosen = scope if scope in descriptor.scopes or explicit else None
    try:
        config = descriptor.scope(chosen)
    except InvalidInput as exc:
        return FileResult(descriptor.name, root, "error", error=str(exc))
    path = files.real_path(config.resolve_path(root, home))
    warnings: list[str] = []
    if scope and chosen is None:
        warnings.append(
            f"{descriptor.name} has no {scope!r} scope; used its {descriptor.default_scope!r} one"
        )
    authorization = None if stdio else _authorization(descriptor, path, root, token, warnings)
    try:
        old = files.read_text(path)
        doc = formats.parse(old or "", descriptor.format, path)
        changed = formats.merge_entry(
            doc,
            config.resolve_key(root, name),
            descriptor.render_entry(url, name, root, lspd_command() if stdio else None),
            descriptor.format,
            headers_key=descriptor.headers_key,
            authorization=authorization,
            path=path,
            drop=descriptor.other_keys(stdio),
        )
        new = formats.dump(doc, descriptor.format, old or "") if changed else old
        if old is not None and new == old:
            return FileResult(descriptor.name, path, "unchanged", warnings=warnings)
        assert new is not None
        return _write(
            descriptor.name, path, old, new, dry_run, warnings, private=bool(authorization)
        )
    except (LspdError, OSError) as exc:
        return FileResult(descriptor.name, path, "error", error=str(exc), warnings=warnings)


def _authorization(
    descriptor: AgentDescriptor, path: Path, root: Path, token: str | None, warnings: list[str]
) -> str | None:
    """The header value to write, or None; a token never goes into a file inside the repo."""
    if token is None:
        return None
    if descriptor.headers_key is None:
        warnings.append(
            f"{descriptor.title} has no place for an Authorization header; "
            "it will get 401 from a daemon in token mode"
        )
        return None
    if path.resolve().is_relative_to(root):
        warnings.append(
            f"token mode: not writing the token into {path}, which is inside the repository; "
            f"{descriptor.title} will get 401 unless you add the header yourself "
            "(or use a user-level scope)"
        )
        return None
    return f"Bearer {token}"


def _write(
    agent: str,
    path: Path,
    old: str | None,
    new: str,
    dry_run: bool,
    warnings: list[str],
    *,
    private: bool = False,
) -> FileResult:
    diff = files.unified_diff(path, old, new)
    if private:  # a diff is printed: the bearer token must not be
        diff = re.sub(r"(Bearer )[A-Za-z0-9_\-.~+/=]+", r"\1<token redacted>", diff)
    if dry_run:
        status: Status = "would create" if old is None else "would update"
        return FileResult(agent, path, status, diff=diff, warnings=warnings)
    backup = files.write_atomic(path, new, private=private)
    status = "created" if old is None else "updated"
    return FileResult(agent, path, status, diff=diff, backup=backup, warnings=warnings)


def install_skill(
    root: Path, descriptors: Sequence[AgentDescriptor], *, dry_run: bool = False
) -> list[FileResult]:
    """Put the skill section in each distinct instructions file (CLAUDE.md, AGENTS.md, …)."""
    targets = dict.fromkeys(d.instructions or "AGENTS.md" for d in descriptors)
    results = []
    for filename in targets:
        path = files.real_path(root / filename)
        try:
            old = files.read_text(path)
            new = with_skill(old)
            if new == old:
                results.append(FileResult("skill", path, "unchanged"))
            else:
                results.append(_write("skill", path, old, new, dry_run, []))
        except OSError as exc:
            results.append(FileResult("skill", path, "error", error=str(exc)))
    return results
