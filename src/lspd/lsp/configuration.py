"""The server's settings: answered when it pulls them, pushed only to a server that does not.

A server either pulls its settings (`workspace/configuration`) as it handles `initialized`,
or waits to be told them (`workspace/didChangeConfiguration`). A push to a server that has
pulled sets it up again: basedpyright >= 1.40 pulls, and a push re-runs its whole workspace
setup, whatever the push holds (0.1 s of a cold start on click, 0.3 s with a pyenv shim,
which it runs again to learn the search paths). basedpyright <= 1.39, like pyright before
its fix of January 2026, pulls nothing when the client offers workspace folders
(`handleInitialized` skipped the settings update then) and answers no request until it is
pushed. So the settings, all of them, are pushed only to a server that has not pulled
every section of them soon after `initialized`: pulling servers ask in their `initialized`
handler (1-3 ms after it here for basedpyright and pyrefly, load 2.5 on 2 cores). "Soon"
counts from when the server shows it handles `initialized`: on a loaded machine (load 7,
the daemon's loop sharing its GIL with the SDK's import) basedpyright 1.40 pulled 55-64 ms
after it in 2 cold starts of 3, was pushed (a grace of 50 ms from `initialized`) and set up
twice: its readiness came 1.8-2.0 s later (it asks a section per request: `python`, then
`basedpyright` 20 ms later). So the grace runs again while the server has said nothing
since `initialized` (it has not handled it yet) or has pulled some of the sections and not
the others yet, up to `PULL_WAIT_S`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from lspd.lsp.text import uri_to_path

# How long after `initialized` a server has to pull its settings before they are pushed,
# counted again while it has said nothing since. A late pull costs the redundant push (a
# second setup); a server that needs the push waits this long for it.
PULL_GRACE_S = 0.05
PULL_WAIT_S = 1.0  # the most a server silent since `initialized`, or pulling, is waited for

Notify = Callable[[str, Any], None]


class Heard(Protocol):
    """The server's connection: how many messages it has sent so far."""

    @property
    def received(self) -> int: ...


class Configuration:
    """One server's settings, by section, and which of them it pulled since it started.

    `settings` are those of the session's root folder once its toolchain settled (the
    interpreter a shim runs there); any other folder it serves gets the settings the
    session was made with (the shim itself, which the server then asks in that folder).
    """

    def __init__(self, settings: dict[str, Any], root: Path) -> None:
        self.settings = self.elsewhere = settings
        self.root = root
        self.pulled: set[str] = set()  # the sections it asked for ("" = all of them)
        self.pushed = False
        self.settled = asyncio.Event()  # pulled them all, or was pushed them
        self._timer: asyncio.TimerHandle | None = None
        self._heard: Heard | None = None
        self._before = 0  # messages heard when `initialized` was sent
        self._since = 0.0  # when `initialized` was sent (the loop's clock)

    def initialized(
        self, settings: dict[str, Any], notify: Notify, heard: Heard | None = None
    ) -> None:
        """The server was sent `initialized` and runs with `settings` (its toolchain may
        have settled since the session was made): push them after the grace unless it
        pulled them all by then; `heard`: its messages so far (the grace runs again while
        it has said nothing since)."""
        self.reset()
        self.settings = settings
        if not self.settings:
            self.settled.set()
            return
        loop = asyncio.get_running_loop()
        self._heard = heard
        self._before = heard.received if heard is not None else 0
        self._since = loop.time()
        self._timer = loop.call_later(PULL_GRACE_S, self._push, notify)

    def reset(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.pulled.clear()
        self.pushed = False
        self.settled.clear()

    def answer(self, params: Any) -> list[Any]:
        """The reply to `workspace/configuration`, noting what was pulled."""
        items = (params or {}).get("items", [])
        sections = [item.get("section") or "" for item in items]
        self.pulled.update(sections)
        if self._timer is not None and covered(self.settings, self.pulled):
            self._timer.cancel()
            self._timer = None
            self.settled.set()
        return [
            setting(self._of(item.get("scopeUri")), section)
            for item, section in zip(items, sections, strict=True)
        ]

    def _of(self, scope: str | None) -> dict[str, Any]:
        """The settings of the folder `scope` (None: of the server as a whole)."""
        if scope is None or uri_to_path(scope) == self.root:
            return self.settings
        return self.elsewhere

    def _push(self, notify: Notify) -> None:
        self._timer = None
        loop = asyncio.get_running_loop()
        silent = self._heard is not None and self._heard.received == self._before
        partly = any(covered({key: value}, self.pulled) for key, value in self.settings.items())
        if (silent or partly) and loop.time() - self._since < PULL_WAIT_S:
            self._timer = loop.call_later(PULL_GRACE_S, self._push, notify)  # still pulling
            return
        if not covered(self.settings, self.pulled):
            notify("workspace/didChangeConfiguration", {"settings": self.settings})
            self.pushed = True
        self.settled.set()


def covered(settings: dict[str, Any], pulled: set[str], prefix: str = "") -> bool:
    """Whether every setting lies in a pulled section: "python" covers python.pythonPath,
    "basedpyright.analysis" covers only that table of basedpyright."""
    if "" in pulled:
        return True
    for key, value in settings.items():
        section = f"{prefix}{key}"
        if section in pulled:
            continue
        if not (isinstance(value, dict) and value and covered(value, pulled, f"{section}.")):
            return False
    return True


def setting(settings: dict[str, Any], section: str | None) -> Any:
    """The value of a dotted `section` of the settings (all of them for none)."""
    value: Any = settings
    for key in section.split(".") if section else ():
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value
