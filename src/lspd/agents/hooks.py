"""Installing and removing lspd's post-edit hook in each agent's hooks file.

The file is JSON in the shape Claude Code and Codex share:
`{"hooks": {"PostToolUse": [{"matcher": "...", "hooks": [{"type": "command", ...}]}]}}`.
lspd's entry is its own matcher group, recognised by its command (`... hook <agent>`), so a
second install changes nothing and a removal leaves the user's other hooks as they were.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.agents.descriptor import AgentDescriptor
from lspd.agents.files import read_text, unified_diff, write_atomic
from lspd.errors import LspdError


@dataclass(frozen=True)
class HookResult:
    """What happened to one agent's hooks file."""

    agent: str
    path: Path
    status: str  # "added", "updated", "unchanged", "removed", "absent"
    diff: str = ""


def hook_command(agent: str) -> str:
    """The command an agent runs: this installation's `lspd`, whatever PATH the agent has."""
    lspd = Path(sys.executable).parent / "lspd"
    return f"{shlex.quote(str(lspd))} hook {agent}"


def sync_hooks(
    descriptor: AgentDescriptor, root: Path, home: Path, *, remove: bool, dry_run: bool
) -> HookResult | None:
    """Install (or `remove`) lspd's hook for one agent; None when it has no hooks."""
    spec = descriptor.hooks
    if spec is None:
        return None
    path = spec.resolve_path(root, home)
    old = read_text(path)
    try:
        document: dict[str, Any] = json.loads(old) if old and old.strip() else {}
    except ValueError as exc:
        raise LspdError(f"{path} is not valid JSON ({exc}); fix it, then run again") from None
    if not isinstance(document, dict):
        raise LspdError(f"{path} does not hold a JSON object; fix it, then run again")
    hooks = document.setdefault("hooks", {})
    groups = [g for g in hooks.get(spec.event, []) if not _ours(g, descriptor.name)]
    if not remove:
        command = {"type": "command", "command": hook_command(descriptor.name)}
        groups.append({"matcher": spec.matcher, "hooks": [{**command, "timeout": spec.timeout}]})
    if groups:
        hooks[spec.event] = groups
    else:
        hooks.pop(spec.event, None)
    if not hooks:
        document.pop("hooks")
    if old is None and remove:
        return HookResult(descriptor.name, path, "absent")
    new = json.dumps(document, indent=2) + "\n"
    if old is not None and json.loads(old or "{}") == document:
        return HookResult(descriptor.name, path, "unchanged")
    status = "removed" if remove else ("added" if old is None or "hooks" not in old else "updated")
    if not dry_run:
        write_atomic(path, new)
    return HookResult(descriptor.name, path, status, unified_diff(path, old, new))


def _ours(group: Any, agent: str) -> bool:
    """Whether a matcher group is lspd's hook for `agent`."""
    if not isinstance(group, dict):
        return False
    return any(
        isinstance(h, dict) and str(h.get("command", "")).endswith(f" hook {agent}")
        for h in group.get("hooks", [])
    )
