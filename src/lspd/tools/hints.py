"""The environment hint said in full once per agent session, then as a short flag.

When a project's imports do not resolve (no virtual environment, `npm install` not run),
every diagnostics answer carried the same lines on how to fix it (issue 43: an agent checking
ten files read them ten times). Each agent session hears a hint in full once; its later
answers say `SHORT` instead, and `status` always has the full text (per server). An agent
session is the MCP session (`Mcp-Session-Id`); a stateless caller has none and is known by
its client's name (the CLI's calls through the daemon share one).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

SHORT = "imports did not resolve (how to fix it was said once; `status` repeats it)"
MAX_SESSIONS = 256  # agent sessions remembered (the oldest is forgotten first)

# The agent of a call the daemon answers without the SDK (`daemon.mcp_direct`): no Context has it.
CALLER: ContextVar[str | None] = ContextVar("lspd_caller", default=None)


class Told:
    """The hints each agent session was told in full."""

    def __init__(self) -> None:
        self._sessions: dict[str, set[str]] = {}

    def shorten(self, agent: str, data: dict[str, Any]) -> dict[str, Any]:
        """`data` (a result's wire form) with each hint this agent was told replaced by
        `SHORT`; the others are told now."""
        hint = data.get("environment")
        if not hint:
            return data
        told = self._sessions.pop(agent, None) or set()
        self._sessions[agent] = told  # the most recent last
        while len(self._sessions) > MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        if isinstance(hint, str):
            data["environment"] = SHORT if hint in told else hint
            told.add(hint)
        elif isinstance(hint, list):  # the whole check: one per interpreter or TypeScript
            shown = [h for h in hint if h not in told]
            data["environment"] = [*shown, SHORT] if len(shown) < len(hint) else shown
            told.update(hint)
        return data


def agent_of(ctx: Any) -> str:
    """The agent session of a tool call's context (`mcp.server.mcpserver.Context`)."""
    caller = CALLER.get()
    if caller is not None:
        return caller
    if ctx is None:
        return "-"
    try:
        session_id = (ctx.headers or {}).get("mcp-session-id")
        if session_id:
            return f"session {session_id}"
        params = getattr(ctx.session, "client_params", None)
    except (LookupError, ValueError, AttributeError):  # outside a request: one for all
        return "-"
    info = getattr(params, "client_info", None)
    return f"client {info.name}" if info is not None else "-"
