"""`lspd hook claude-code|codex`: after each edit, tell the model what the edit broke; at
the end of its turn, hold it back while its changes leave errors.

The agent runs this as its PostToolUse hook (Claude Code: Edit, Write, MultiEdit with
`tool_input.file_path`; Codex: `apply_patch` with the patch in `tool_input.command`), as
its UserPromptSubmit hook (a turn begins: the stop gate proves every file changed from then
on, a shell command's writes too) and as its Stop hook, with the payload on stdin. The
workspace's daemon checks which errors the work introduced since HEAD (`session` without
git), as `lspd check --baseline` does (the incremental check against HEAD's kept result,
made first when it is not kept yet: `lspd.daemon.feedback`), and answers within the hook's
budget. Silence means "checked, and nothing new": when the budget ends first the model is
told how far the check is and that the rest follows at its next edit; while the servers
load it is told so once per agent session. No daemon, a file of no served language or a
malformed payload is exit 0 with no output: a hook must never break or stall the agent.
Light: no pydantic, no MCP SDK.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lspd.cli.hook_payload import baseline_of, edited_files

if TYPE_CHECKING:
    from lspd.daemon.finding import Probe

AGENTS = ("claude-code", "codex")
MAX_PAYLOAD = 4_000_000  # characters of stdin read (a Write carries the whole file)
MAX_MESSAGE = 2_000
TIMEOUT_S = 3.0  # an edit's answer, daemon included (LSPD_HOOK_TIMEOUT overrides)
STOP_TIMEOUT_S = 60.0  # the stop gate's complete check (LSPD_STOP_TIMEOUT overrides)
WHEN_HELD = "when this turn began are not counted"  # the stop gate sets them aside
NOT_SET_ASIDE = (  # the stop gate could not tell them (`ops/turn_start.py`)
    "the errors the work tree held against {baseline} when this turn began could not be set "
    "aside: some of these may be an earlier turn's"
)
TURN_TIMEOUT_S = 5.0  # a turn's start: the daemon notes where the watcher stands
LATE_TIMEOUT_S = 300.0  # `--late`: how long the background hook waits (LSPD_LATE_TIMEOUT)
MARGIN_S = 0.3  # of the budget, left for the answer to come back and be printed


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`lspd hook`: what an agent's hook runs after an edit and before it stops."""
    help = "an agent's post-edit and stop hook: the errors its work introduced (stdin: payload)"
    parser = subparsers.add_parser("hook", help=help, description=help)
    parser.add_argument("agent", choices=AGENTS, help="whose hook payload and answer format")
    parser.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help=f"how long to check before answering (edit: {TIMEOUT_S:g}, stop: {STOP_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--late",
        action="store_true",
        help="run in the background after an edit (Claude Code's asyncRewake): once the "
        "edit's own hook answered, wait for errors it did not tell (up to "
        f"{LATE_TIMEOUT_S:g} s), print them on stderr and exit 2, which wakes the model",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer one hook call (its payload on stdin) in the agent's format; a failure never
    blocks the agent."""
    try:
        payload = sys.stdin.read(MAX_PAYLOAD)
        if args.late:
            told = late(args.agent, payload, args.budget)
            if told:
                print(told, file=sys.stderr)
                return 2  # asyncRewake: the model is woken with stderr
            return 0
        output = respond(args.agent, payload, args.budget)
    except Exception:  # whatever it is, the agent goes on undisturbed
        return 0
    if output:
        print(json.dumps(output, ensure_ascii=False))
    return 0


def late(agent: str, raw: str, budget: float | None = None) -> str | None:
    """The errors an edit introduced that its hook did not tell (found after its budget),
    and a checker's stop, once the daemon's check of it has finished; None when there are
    none."""
    from lspd.daemon.client import hook

    target = _target(agent, json.loads(raw))
    if target is None:
        return None
    found, paths, session = target
    wait = _budget(budget, "LSPD_LATE_TIMEOUT", LATE_TIMEOUT_S)
    first = _budget(None, "LSPD_HOOK_TIMEOUT", TIMEOUT_S)  # the edit's own hook goes first
    request = {"event": "late", "session": session, "paths": paths, "sent": time.time(),
               "baseline": baseline_of(found.root), "wait": wait, "first": first}  # fmt: skip
    return late_output(hook(found, request, timeout=wait + 5))


def late_output(answer: dict[str, Any]) -> str | None:
    """What the background hook wakes the model with: the errors the edit's hook did not
    tell, and a checker's stop it did not tell (the check ended after its budget: the
    edit's hook said it still checked); None when there is nothing."""
    baseline = answer.get("baseline", "HEAD")
    text = errors_text(answer.get("introduced", []), baseline, "still checking your edit, found")
    if text and not answer.get("complete"):
        count = answer.get("remaining_count", 0)
        text += (f"\n(still checking {count} file(s): the rest follows at your next edit; "
                 f"run `lspd check --baseline {baseline}` before you finish)")  # fmt: skip
    stops = answer.get("stopped", [])
    if answer.get("complete") and stops and not answer.get("superseded"):
        text = "\n".join(filter(None, [text, stopped_note(stops, "your edit", "it")]))
    return text


def stopped_note(stops: list[str], what: str, proves: str) -> str:
    """Checkers stopped at syntax errors (`stops`, said): `what` the edits introduced is
    not known."""
    return (
        f"lspd: {'; '.join(stops)}: {_rest(stops)}, so what {what} introduced is "
        f"not known; {_fix(stops, proves)}."
    )


def respond(agent: str, raw: str, budget: float | None = None) -> dict[str, Any] | None:
    """The hook's stdout for a payload, or None when there is nothing to say."""
    from lspd.daemon.client import hook
    from lspd.daemon.finding import enclosing_daemon

    began = time.monotonic()
    payload = json.loads(raw)
    session = str(payload.get("session_id") or "")
    if payload.get("hook_event_name") == "UserPromptSubmit":
        # a turn begins: what changes from now on, by any tool, is the stop gate's to prove
        found = enclosing_daemon(Path(str(payload.get("cwd") or Path.cwd())))
        if found is not None:
            began_turn = {"event": "turn", "session": session, "baseline": baseline_of(found.root)}
            hook(found, began_turn, timeout=TURN_TIMEOUT_S)
        return None  # a prompt hook's stdout is added to the prompt: nothing to add
    if payload.get("hook_event_name") == "Stop":
        found = enclosing_daemon(Path(str(payload.get("cwd") or Path.cwd())))
        if found is None:
            return None
        left = _budget(budget, "LSPD_STOP_TIMEOUT", STOP_TIMEOUT_S) - (time.monotonic() - began)
        request = {
            "event": "stop",
            "session": session,
            "baseline": baseline_of(found.root),
            "wait": max(0.0, left - MARGIN_S),
            "sent": time.time(),
        }
        answer = hook(found, request, timeout=left + 5)
        return stop_output(answer, _budget(budget, "LSPD_STOP_TIMEOUT", STOP_TIMEOUT_S))
    target = _target(agent, payload)
    if target is None:
        return None
    found, paths, session = target
    left = _budget(budget, "LSPD_HOOK_TIMEOUT", TIMEOUT_S) - (time.monotonic() - began)
    request = {
        "event": "edit",
        "session": session,
        "paths": paths,
        "baseline": baseline_of(found.root),
        "wait": max(0.0, left - MARGIN_S),
        "sent": time.time(),  # the budget runs from now (a cold daemon's app builds first)
    }
    answer = hook(found, request, timeout=left + 5)
    return edit_output(agent, answer, _budget(budget, "LSPD_HOOK_TIMEOUT", TIMEOUT_S))


def edit_output(agent: str, answer: dict[str, Any], budget: float) -> dict[str, Any] | None:
    """What the model is told after an edit: the errors found (late ones first), and
    whether the check is still going; None when it finished and found nothing new."""
    baseline = answer.get("baseline", "HEAD")
    parts = []
    late = errors_text(answer.get("late", []), baseline, "after your earlier edit, found")
    found = errors_text(answer.get("introduced", []), baseline, "this work introduced")
    parts = [p for p in (late, found) if p]
    note = progress_note(answer, budget)
    if note:
        parts.append(note)
    if not parts:
        return None
    text = "\n".join(parts)
    if agent == "claude-code" and (late or found):
        return {"decision": "block", "reason": text}  # the edit stays made: the model reads it
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}


def progress_note(answer: dict[str, Any], budget: float) -> str | None:
    """What is not known yet, or None when the check is complete."""
    check = f"run `lspd check --baseline {answer.get('baseline', 'HEAD')}` before you finish"
    if answer.get("complete") and answer.get("stopped"):
        return stopped_note(answer["stopped"], "this edit", "it")
    if answer.get("complete"):
        return None
    if answer.get("failed"):
        text = f"lspd: the check of this edit failed ({answer['failed']}); {check}."
        return text + _now_text(answer)
    loading = answer.get("loading")
    if loading:
        servers = ", ".join(loading.get("servers", []))
        since = f"the daemon started {loading.get('seconds', 0)} s ago"
        if (again := loading.get("restarted")) is not None:  # a server started again since
            since = f"started again {again} s ago; {since}"
        return (
            f"lspd is loading {servers} ({since}): what this edit introduced follows at your "
            f"next edit; {check}."
        )
    if checking := answer.get("checking"):  # the whole check (HEAD's result made first)
        done, of = checking.get("done", 0), checking.get("total", 0)
        return (
            f"lspd: still checking this edit after {budget:g} s (the gate's files: {done} of "
            f"{of} checked): what it introduced follows at your next edit; {check}."
        )
    return (
        f"lspd: still checking the edited file(s) after {budget:g} s: what they show "
        f"follows at your next edit; {check}."
    )


def stop_output(answer: dict[str, Any], budget: float) -> dict[str, Any] | None:
    """The stop gate: block while the session's changes leave errors (not twice for the
    same ones), and once when the check failed (nothing is proved then: never read as
    clean); let the stop go silently when there are none, with a note when the check
    could not finish."""
    baseline = answer.get("baseline", "HEAD")
    errors = [d for d in answer.get("introduced", []) if d.get("severity") == "error"]
    check = f"`lspd check --baseline {baseline}` lists everything"
    if errors and answer.get("repeat") and not answer.get("complete"):
        return {
            "systemMessage": f"lspd: the check of this session's changes did not finish in "
            f"{budget:g} s; the {len(errors)} error(s) it found so far are among those the "
            f"last stop was blocked for; {check}."
        }
    if errors and answer.get("repeat"):
        return {
            "systemMessage": f"lspd: {len(errors)} error(s) this session introduced since "
            f"{baseline} remain, unchanged since the last stop; {check}."
        }
    stops = "; ".join(answer.get("stopped", []))
    held = answer.get("held_before", 0)  # not this turn's: the tree held them as it began
    held_note = f"{held} error(s) the work tree held against {baseline} {WHEN_HELD}"
    if errors:
        head = "before you finish: this session's changes introduced"
        text = errors_text(answer.get("introduced", []), baseline, head) or ""
        if not answer.get("complete"):
            text += f"\n(the check did not finish in {budget:g} s; {check})"
        if stops:
            text += f"\n({stops}: {_rest(answer['stopped'])})"
        text += _aside(answer, held_note if held else None, baseline)
        return {"decision": "block", "reason": text + "\nFix them, or say why they stay."}
    if failed := answer.get("failed"):
        text = (
            f"lspd: the check of this session's changes failed ({failed}): whether they "
            f"introduced errors is not known; run `lspd check --baseline {baseline}` or the "
            "project's own checker"
        )
        if answer.get("repeat"):
            return {"systemMessage": f"{text} (it failed at the last stop too).{_now_text(answer)}"}
        return {"decision": "block", "reason": f"{text} before you finish.{_now_text(answer)}"}
    if stops:
        text = f"lspd: {stops}: {_rest(answer['stopped'])}, so whether this session's changes"
        if answer.get("repeat"):
            return {
                "systemMessage": f"{text} introduced errors is not known (as at the last stop)."
            }
        fix = _fix(answer["stopped"], "them")
        return {"decision": "block", "reason": f"{text} introduced errors is not known; {fix}."}
    if not answer.get("complete"):
        compared, total = answer.get("compared", 0), answer.get("total")
        of = f" of {total}" if total is not None else ""
        return {
            "systemMessage": f"lspd: the check of this session's changes ran out of {budget:g} "
            f"s after {compared}{of} file(s), no new error so far; {check}."
        }
    if held:
        return {"systemMessage": f"lspd: no new error this turn; {held_note}; {check}."}
    return None


def _aside(answer: dict[str, Any], held: str | None, baseline: str) -> str:
    """What a blocked stop says of the errors the tree held as the turn began: how many it
    set aside (`held`), or that it could not set them aside (`ops/turn_start.py`)."""
    text = "" if held is None else f"\n({held})"
    if answer.get("held_unknown"):
        text += f"\n({NOT_SET_ASIDE.format(baseline=baseline)})"
    return text


def _now_text(answer: dict[str, Any]) -> str:
    """The errors the edited files hold, where no comparison says which are new (a mixed
    workspace's configuration edited on one side: the other side's errors were unsaid)."""
    head = "meanwhile, the files changed hold"
    found = errors_text(answer.get("now", []), answer.get("baseline", "HEAD"), head, "error(s)")
    return f"\n{found} (new or not: not known)" if found else ""


def _rest(stopped: list[str]) -> str:
    """What a stop leaves unknown: a checker's, the rest; a part not compared, its errors."""
    from lspd.engine.stops import NOT_COMPARED

    parts = all(f" {NOT_COMPARED} (" in s for s in stopped)
    return "their errors are not known new" if parts else "the rest is not checked"


def _fix(stopped: list[str], what: str) -> str:
    """What to do about checkers stopped at syntax errors: fix them (those of the work tree);
    a baseline's alone (`at HEAD, …`) is the project's own checker's to settle. mypy's stop
    past the parser (`ops/progressive_kept.stop_said`: in mypy's words) is no syntax error:
    a file shadowing a library module is renamed, a `break` outside a loop fixed."""
    from lspd.engine.stops import AT_CONFIGURATION, BLOCKING

    now = [s for s in stopped if not s.startswith("at ")]
    if not now:
        return "run the project's own checker before you finish"
    blocking = [s for s in now if f"({BLOCKING}: " in s]
    if all(AT_CONFIGURATION in s for s in now):  # a tsconfig's options: no syntax error
        return f"fix the configuration error, then the check proves {what}"
    if not blocking:
        return f"fix the syntax error, then the check proves {what}"
    fix = "fix what mypy stopped at (its own run stops there too: errors prevented further "
    fix += "checking; a file it names may need another name or place)"
    if len(blocking) < len(now):
        fix = f"fix the syntax error and {fix.removeprefix('fix ')}"
    return f"{fix}, then the check proves {what}"


def _target(agent: str, payload: dict[str, Any]) -> tuple[Probe, list[str], str] | None:
    """The daemon serving the edited files, the files (relative to its root) and the
    agent session; None when no daemon serves them."""
    from lspd.daemon.finding import enclosing_daemon

    files = edited_files(agent, payload)
    if not files:
        return None
    found = enclosing_daemon(files[0].parent)
    if found is None:
        return None
    paths = [f.relative_to(found.root).as_posix() for f in files if f.is_relative_to(found.root)]
    return (found, paths, str(payload.get("session_id") or "")) if paths else None


def _budget(given: float | None, variable: str, default: float) -> float:
    return given if given is not None else float(os.environ.get(variable, default))


def errors_text(
    introduced: list[dict[str, Any]], baseline: str, head: str, kind: str = ""
) -> str | None:
    """The new errors (`kind`: other errors, so named), most important first, within
    `MAX_MESSAGE` characters."""
    errors = [d for d in introduced if d.get("severity") == "error"]
    if not errors:
        return None
    warnings = len(introduced) - len(errors)
    first = f"lspd: {head} {len(errors)} {kind or f'new error(s) since {baseline}'}:"
    lines = [first]
    size = len(first)
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
