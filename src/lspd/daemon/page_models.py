"""What the status page reads (GET /status/live): the daemon, its servers, the checks
running and done, the last tool calls, memory over the last hour, the agents' hook
history and the warnings. Paths, names and figures only: no file's text."""

from __future__ import annotations

from pydantic import Field

from lspd.lsp.state import ServerState
from lspd.ops.models import Model


class PageDaemon(Model):
    """The daemon process."""

    workspace: str
    """The workspace root."""
    pid: int
    """Its process id."""
    version: str
    """lspd's version."""
    uptime_s: float
    """Seconds since it started."""
    rss_mb: float | None
    """Its resident memory, in MB."""
    cpu_percent: float | None
    """Its CPU use since the page's last read (100: one core)."""
    restricted: bool
    """Restricted mode: no project code runs."""
    token: bool
    """Whether requests need the bearer token."""


class PageServer(Model):
    """One language server (or TypeScript builder) process."""

    language: str
    """The language it serves."""
    server: str
    """Its name."""
    version: str | None
    """Its version, as it said at its start."""
    project: str
    """Its first project."""
    state: ServerState
    """As `status` says it."""
    shown: str
    """Its state in words: `restarting`, `busy with 3 requests`, ..."""
    pid: int | None
    """Its process id, while it runs."""
    toolchain: str | None
    """The TypeScript or Python it runs, and its version."""
    rss_mb: float | None
    """Resident memory of it and its children, in MB."""
    cpu_percent: float | None
    """CPU use of it and its children since the page's last read."""
    uptime_s: float | None
    """Seconds since its process started."""
    restarts: int
    """Times its process was started again."""
    owed: int
    """Requests it owes an answer to."""
    working_on: str | None
    """The oldest of them, and its file."""
    crash: str | None
    """Why it died, while crashed."""
    stderr: list[str] = Field(default_factory=list)
    """The last lines of its log (its stderr), while crashed."""


class PageCheck(Model):
    """A check running now: `lspd check`, or an agent session's hook check."""

    kind: str
    """`check`, or `hook` with its agent session."""
    done: int
    """Files answered."""
    total: int
    """Files to answer."""
    elapsed_s: float
    """Seconds since it began."""
    estimate_s: float | None
    """Seconds still to go, at its pace so far."""
    current: list[str]
    """The files the servers work on now."""
    baseline: str | None
    """What a hook check compares against."""


class PageKept(Model):
    """The committed state's result the daemon keeps: the baseline of `--baseline HEAD`."""

    commit: str
    """Its commit (12 characters), or `session`."""
    files: int
    """Files in it."""
    made: float
    """When it was made (s since the epoch)."""
    asked: int
    """Files checked at that commit (the others taken from the work tree's check)."""
    moved: str | None
    """HEAD's last move under it (`from -> to`), when it moved."""


class PageFinished(Model):
    """A whole check `lspd check` ran (the last ones)."""

    at: float
    """When it ended (s since the epoch)."""
    seconds: float
    """How long it took."""
    files_matched: int
    """Files it matched."""
    files_checked: int
    """Files it checked."""
    errors: int
    """Errors found."""
    warnings: int
    """Warnings found."""
    skipped: int
    """Files left out."""


class PageCall(Model):
    """One tool call."""

    seq: int
    """Its number (the daemon's calls are numbered from 1)."""
    tool: str
    """The tool."""
    arguments: str
    """Its arguments in short (texts by their length)."""
    at: float
    """When it ended (s since the epoch)."""
    ms: float
    """How long it took."""
    size: int
    """Characters answered."""
    error: str | None
    """Its error."""


class ToolLatency(Model):
    """A tool's latency over the calls listed."""

    tool: str
    """The tool."""
    count: int
    """Calls."""
    errors: int
    """Of them, errors."""
    p50_ms: float
    """Median duration."""
    p95_ms: float
    """95th percentile."""


class MemorySample(Model):
    """The memory of the daemon and each server process at one time."""

    at: float
    """When (s since the epoch)."""
    mb: dict[str, float]
    """RSS in MB by process: `daemon`, then each server's name and project."""


class PageHookEvent(Model):
    """One hook call of an agent session."""

    at: float
    """When it was answered."""
    event: str
    """`edit`, `late` or `stop`."""
    paths: list[str]
    """The files edited."""
    told: list[str]
    """What the agent was told: `path:line:col severity message`."""
    complete: bool
    """Whether the check covered everything."""
    decision: str | None
    """A stop's: blocked or let go, and why."""


class PageSession(Model):
    """An agent session, as its hooks saw it."""

    session: str
    """Its id."""
    edited: int
    """Files it edited."""
    events: list[PageHookEvent]
    """Its hook calls, oldest first."""


class PageSnapshot(Model):
    """Everything the status page shows."""

    daemon: PageDaemon
    """The daemon."""
    servers: list[PageServer]
    """Its language servers."""
    checks: list[PageCheck]
    """Checks running."""
    kept: PageKept | None
    """The baseline kept, once made."""
    finished: list[PageFinished]
    """The last whole checks, newest last."""
    calls: list[PageCall]
    """The last tool calls after the page's `after` (it keeps the ones it has), newest last."""
    calls_total: int
    """Tool calls since the daemon started (the newest one's number)."""
    latency: list[ToolLatency]
    """Per tool."""
    memory: list[MemorySample]
    """Samples after the page's `since`, oldest first."""
    sessions: list[PageSession]
    """Agent sessions, most recent last."""
    warnings: list[str]
    """Files left out, configuration errors, environment hints."""
    states: str
    """The servers' states in short, sent back with the next poll: it is held until they change."""
