"""Installing and removing lspd's hooks in each agent's hooks file.

The file is JSON in the shape Claude Code and Codex share:
`{"hooks": {"PostToolUse": [{"matcher": "...", "hooks": [{"type": "command", ...}]}]}}`.
lspd's entries are their own matcher groups, recognised by their command (`... hook <agent>`),
so a second install changes nothing and a removal leaves the user's other hooks as they were.
Per agent: the post-edit hook (PostToolUse), the stop gate (Stop), the start of a turn
(UserPromptSubmit: from there the stop gate proves every file changed, by any tool) and,
for Claude Code, a background PostToolUse hook whose exit 2 wakes the model with what was
found late.

Inside a repository nothing lspd writes shows in `git status` (its files are added to the
repository's `info/exclude`, like `.vscode/.mcp-port`), and `--remove` takes away what it
created: a hooks file it made and that holds nothing else, its backups, a directory it made.
"""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd import sentinel
from lspd.agents.descriptor import AgentDescriptor, Hooks
from lspd.agents.files import BACKUP_SUFFIX, read_text, unified_diff, write_atomic
from lspd.errors import LspdError

CREATED = ".lspd-created"  # beside a hooks file: the names lspd created there ("." the dir)


@dataclass(frozen=True)
class HookResult:
    """What happened to one agent's hooks file."""

    agent: str
    path: Path
    status: str  # "added", "updated", "unchanged", "removed", "absent"
    diff: str = ""
    done: list[str] = field(default_factory=list)  # what else was created or deleted


def hook_command(agent: str, *options: str, program: str | None = None) -> str:
    """The command an agent runs: `program` (shell text), else this installation's `lspd`,
    whatever PATH the agent has."""
    lspd = program or shlex.quote(str(Path(sys.executable).parent / "lspd"))
    return " ".join([lspd, "hook", agent, *options])


def entries(agent: str, spec: Hooks, program: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """lspd's matcher groups per event, as the agent's hooks file holds them (`program`:
    how to run lspd, as in `hook_command`; the Claude Code plugin names its own)."""
    command = {"type": "command", "command": hook_command(agent, program=program)}
    out: dict[str, list[dict[str, Any]]] = {
        spec.event: [{"matcher": spec.matcher, "hooks": [{**command, "timeout": spec.timeout}]}]
    }
    if spec.rewake:
        late_command = hook_command(agent, "--late", program=program)
        late = {"type": "command", "command": late_command, "async": True,
                "asyncRewake": True, "timeout": spec.rewake_timeout}  # fmt: skip
        out[spec.event].append({"matcher": spec.matcher, "hooks": [late]})
    if spec.stop:
        out["Stop"] = [{"hooks": [{**command, "timeout": spec.stop_timeout}]}]
    if spec.turn:  # the stop gate proves what changed since, a shell command's writes too
        out["UserPromptSubmit"] = [{"hooks": [{**command, "timeout": spec.turn_timeout}]}]
    return out


def sync_hooks(
    descriptor: AgentDescriptor, root: Path, home: Path, *, remove: bool, dry_run: bool
) -> HookResult | None:
    """Install (or `remove`) lspd's hooks for one agent; None when it has no hooks."""
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
    wanted = {} if remove else entries(descriptor.name, spec)
    for event in sorted({*hooks, *wanted}):
        groups = [g for g in hooks.get(event, []) if not _ours(g, descriptor.name)]
        groups += wanted.get(event, [])
        if groups:
            hooks[event] = groups
        else:
            hooks.pop(event, None)
    if not hooks:
        document.pop("hooks")
    if old is None and remove:
        return HookResult(descriptor.name, path, "absent")
    new = json.dumps(document, indent=2) + "\n"
    inside = path.is_relative_to(root)
    if old is not None and json.loads(old or "{}") == document:
        tidied = [] if dry_run or not remove or not inside else _tidy(path, document)
        return HookResult(descriptor.name, path, "unchanged", "", tidied)
    status = "removed" if remove else ("added" if old is None or "hooks" not in old else "updated")
    done: list[str] = []
    if not dry_run:
        made_dir = not path.parent.exists()
        write_atomic(path, new)
        if inside and remove:
            done = _tidy(path, document)
        elif inside:
            done = _hide(path, created=old is None, made_dir=made_dir)
    return HookResult(descriptor.name, path, status, unified_diff(path, old, new), done)


def _hide(path: Path, *, created: bool, made_dir: bool) -> list[str]:
    """Keep what lspd wrote out of `git status`, and note what it created (for `--remove`)."""
    marker = path.parent / CREATED
    names = (
        set(_created(marker)) | ({path.name} if created else set()) | ({"."} if made_dir else set())
    )
    if names:
        marker.write_text("".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    hidden: tuple[str, ...] = (CREATED, f"{path.name}{BACKUP_SUFFIX}", f".{path.name}.*.tmp")
    if path.name in names:
        hidden = (path.name, *hidden)
    if not sentinel.in_git(path.parent):
        return []
    sentinel.hide_from_git(path.parent, hidden, "hooks files (lspd sync --hooks)")
    return [f"kept out of git status (.git/info/exclude): {', '.join(hidden)} in {path.parent}"]


def _tidy(path: Path, document: dict[str, Any]) -> list[str]:
    """After a removal: delete the file if lspd created it and nothing else is in it, its
    backups, and the directory if lspd made it and it is empty now."""
    done = []
    marker = path.parent / CREATED
    created = _created(marker)
    if path.name in created and not document:
        path.unlink(missing_ok=True)
        done.append(f"deleted {path} (lspd created it; nothing else was in it)")
        created = [n for n in created if n != path.name]
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    if backup.exists():
        backup.unlink()
        done.append(f"deleted {backup}")
    if created and created != ["."]:
        marker.write_text("".join(f"{n}\n" for n in created), encoding="utf-8")
    else:
        marker.unlink(missing_ok=True)
        if created == ["."]:
            with contextlib.suppress(OSError):  # not empty: the user's files stay
                path.parent.rmdir()
                done.append(f"deleted {path.parent} (lspd created it; it is empty)")
    return done


def _created(marker: Path) -> list[str]:
    text = read_text(marker)
    return sorted(line for line in (text or "").splitlines() if line.strip())


def _ours(group: Any, agent: str) -> bool:
    """Whether a matcher group is one of lspd's hooks for `agent`."""
    if not isinstance(group, dict):
        return False
    mine = re.compile(rf"(?:^|\s)hook {re.escape(agent)}(?:\s|$)")
    return any(
        isinstance(h, dict) and mine.search(str(h.get("command", "")))
        for h in group.get("hooks", [])
    )
