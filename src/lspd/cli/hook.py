"""`lspd hook claude-code|codex`: after each edit, tell the model what the edit broke.

The agent runs this as its PostToolUse hook with the hook payload on stdin (Claude Code:
Edit, Write, MultiEdit with `tool_input.file_path`; Codex: `apply_patch` with the patch in
`tool_input.command`). It asks the workspace's daemon which errors the work introduced
since HEAD (`session` without git) in the edited files and the files naming what they
changed, and answers in the form the agent feeds to its model. A hook must never break or
stall the agent: no daemon, no new error, a file of no served language, a slow answer or
anything unexpected is exit 0 with no output. Light: no pydantic, no MCP SDK.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

AGENTS = ("claude-code", "codex")
MAX_PAYLOAD = 4_000_000  # characters of stdin read (a Write carries the whole file)
MAX_MESSAGE = 2_000
TIMEOUT_S = 3.0  # the whole answer, daemon included (LSPD_HOOK_TIMEOUT overrides)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$", re.M)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    help = "an agent's post-edit hook: report the errors the edit introduced (stdin: payload)"
    parser = subparsers.add_parser("hook", help=help, description=help)
    parser.add_argument("agent", choices=AGENTS, help="whose hook payload and answer format")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        message = feedback(args.agent, sys.stdin.read(MAX_PAYLOAD))
    except Exception:  # whatever it is, the agent goes on undisturbed
        return 0
    if message:
        print(json.dumps(answer(args.agent, message), ensure_ascii=False))
    return 0


def answer(agent: str, message: str) -> dict[str, Any]:
    """The hook's stdout as each agent feeds it to its model.

    Claude Code: `decision: block` with a `reason` reaches the model (the edit stays made).
    Codex: `additionalContext` is added beside the tool's output (its `block` would replace
    the patch's own result)."""
    if agent == "claude-code":
        return {"decision": "block", "reason": message}
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}}


def feedback(agent: str, raw: str) -> str | None:
    """The message about what the edit introduced, or None when there is nothing to say."""
    from lspd.daemon.client import call_on, enclosing_daemon

    began = time.monotonic()
    payload = json.loads(raw)
    files = edited_files(agent, payload)
    if not files:
        return None
    found = enclosing_daemon(files[0].parent)
    if found is None:
        return None
    paths = [f.relative_to(found.root).as_posix() for f in files if f.is_relative_to(found.root)]
    if not paths:
        return None
    baseline = "HEAD" if _in_git(found.root) else "session"
    left = float(os.environ.get("LSPD_HOOK_TIMEOUT", TIMEOUT_S)) - (time.monotonic() - began)
    if left <= 0:
        return None
    arguments = {"baseline": baseline, "paths": paths, "limit": 1}
    result = call_on(found, "workspace_diagnostics", arguments, timeout=left)
    return message((result.get("changes") or {}).get("introduced", []), baseline)


def edited_files(agent: str, payload: dict[str, Any]) -> list[Path]:
    """The files the tool call edited, absolute (relative ones from the payload's `cwd`)."""
    cwd = Path(str(payload.get("cwd") or Path.cwd()))
    tool_input = payload.get("tool_input") or {}
    if agent == "claude-code":
        named = [tool_input.get("file_path")]
    else:
        patch = "\n".join(v for v in tool_input.values() if isinstance(v, str))
        named = _PATCH_FILE.findall(patch)
    files = [cwd / str(n) for n in named if isinstance(n, str) and n.strip()]
    return list(dict.fromkeys(Path(os.path.normpath(f)) for f in files))


def message(introduced: list[dict[str, Any]], baseline: str) -> str | None:
    """The new errors, most important first, within `MAX_MESSAGE` characters."""
    errors = [d for d in introduced if d.get("severity") == "error"]
    if not errors:
        return None
    warnings = len(introduced) - len(errors)
    head = f"lspd: this work introduced {len(errors)} new error(s) since {baseline}:"
    lines = [head]
    size = len(head)
    for shown, d in enumerate(errors):
        code = f" [{d['code']}]" if d.get("code") else ""
        text = d.get("message", "").splitlines()[0] if d.get("message") else ""
        line = f"{d.get('path')}:{d.get('line')}:{d.get('column')}: {text}{code}"
        rest = len(errors) - shown
        if size + len(line) + 80 > MAX_MESSAGE:
            lines.append(f"… and {rest} more: `lspd check --baseline {baseline}` lists all")
            break
        lines.append(line)
        size += len(line) + 1
    if warnings:
        lines.append(f"(and {warnings} new warning(s))")
    return "\n".join(lines)


def _in_git(root: Path) -> bool:
    return any((directory / ".git").exists() for directory in (root, *root.parents))
