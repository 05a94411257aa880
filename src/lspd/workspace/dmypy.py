"""The project's own mypy, kept warm through its own `dmypy`, one daemon per project and
environment, its state in a status file of lspd's (`dmypy --status-file`, in lspd's state
directory), never the project's `.dmypy.json` (a dmypy the user started is never used,
taken over or stopped). lspd starts its server on first need (`dmypy daemon` while the copy
is written: `mypy_server`) and asks it on its socket (`mypy_ipc`) where it knows the
protocol of the installed mypy; else, and whenever the server wants a restart (its options,
its plugins' files or mypy's version changed) or died, `dmypy run` does it. lspd ends it
(by its pid) when the environment's packages or a table its plugins read changed
(`mypy_config_read.replugged`), when a folder without a Python file came or went (a
namespace package to mypy that its fine-grained update misses: `bare_folders`), and with
its servers.

It checks a copy of the project's Python files and configuration in lspd's state directory
(`mypy_copy`): the disk's texts, or a preview's or a revision's for some files, so unsaved
text is re-checked fine-grained like an edit, and nothing is written into the project.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import subprocess
import time
from collections import Counter, OrderedDict
from dataclasses import replace
from pathlib import Path

from lspd.lsp.process import GROUPS
from lspd.workspace import mypy_partial
from lspd.workspace.dmypy_answer import Asked, answer
from lspd.workspace.mypy_config_read import replugged
from lspd.workspace.mypy_copy import Mirror, bare_folders
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.mypy_fork import Forks
from lspd.workspace.mypy_installed import environment_of, installed_digest, installed_version
from lspd.workspace.mypy_ipc import ask_run, speaks
from lspd.workspace.mypy_kept import Kept, state_of
from lspd.workspace.mypy_lock import exclusive
from lspd.workspace.mypy_mirror import Place, Sees
from lspd.workspace.mypy_once import Caches, needs_once, sections_read
from lspd.workspace.mypy_outputs import users_config
from lspd.workspace.mypy_said import JSON_FLAGS, MypyOutput, output_of, text_flags
from lspd.workspace.mypy_server import (
    RUN_TIMEOUT_S,
    asked_version,
    died,
    ended,
    forget_status,
    killed,
    ours,
    ran,
    server_of,
    spawn,
    up,
)
from lspd.workspace.mypy_server import (
    MypyMissing as MypyMissing,
)
from lspd.workspace.mypy_site import placed

log = logging.getLogger(__name__)

# dmypy's own stop after this long unasked (`--timeout`): should lspd and its watchdog
# both be killed, the server (~150 MB) still ends by itself.
DAEMON_IDLE_S = 3600
KEPT_ANSWERS = 4


class Dmypy:
    """One project's dmypy, run by the project's interpreter, with lspd's status file."""

    def __init__(
        self, project: Path, interpreter: Path, state: Path, base: Path | None = None, run: int = 0
    ) -> None:
        self.project = project
        self.interpreter = interpreter
        key = hashlib.sha256(f"{project}\0{interpreter}".encode()).hexdigest()[:12]
        # the gate's other runs of mypy (`mypy_runs`), each its own server, copy and caches
        name = f"{project.name or 'root'}-{key}" + (f"-{run}" if run else "")
        self.state = state / "mypy" / name
        self.status_file = self.state / "dmypy.json"
        self.log_file = self.state / "dmypy.log"
        self.version: tuple[int, ...] | None = None
        self._speaks: str | None = None  # its version, when its socket is asked (`mypy_ipc`)
        self._process: subprocess.Popen[bytes] | None = None  # a server lspd started itself
        self._environment: tuple[object, ...] | None = None  # `environment_of` at the start
        self._bare: frozenset[str] | None = None  # `bare_folders` of the server's last run
        self._lock = asyncio.Lock()
        self._group: int | None = None  # the server's process group, told to the watchdog
        self.mirror = Mirror(self.state / "tree")  # what the daemon checks (`mypy_copy`)
        self.place = Place(self.mirror.directory, project, base or project)  # of what, where
        self.sees = Sees(self.place.base)  # the files it holds, walked when they change
        # The last few states' answers (texts, targets): a preview's disk state right after
        # its held one, or the disk once it is written, answered as it is, not re-checked.
        self._answers: OrderedDict[bytes, MypyOutput] = OrderedDict()
        self.last_used = time.monotonic()  # the idle stop's clock (`workspace.memory`)
        self.reason = ""  # which checkers judge the project and why (`status` says it)
        self.once = False  # the last answer was mypy's, run once (`mypy_once`): status
        self.partial_once = False  # dmypy's local partial types said more (`mypy_partial`)
        self.vouched: Counter[tuple[str, str]] = Counter()  # and what mypy said too, how often
        self.caches = Caches(self.state / "cache")  # its caches, when run once
        self.kept = Kept(self.state / "answers", interpreter)  # its answers run once (`mypy_kept`)
        self.runs = 0  # mypy (or dmypy) runs made (its tests count them)
        self.lock_file = self.state / "lock"  # held for a check or a stop (`mypy_lock`)
        self.users = self.state / "users"  # mypy's XDG_CONFIG_HOME (`mypy_outputs.users_config`)
        # mypy imported once, forked per question (`mypy_fork`), when run once
        self.forks = Forks(
            interpreter, self.place.workdir, self.state / "mypy-fork.log", self.users
        )

    @property
    def busy(self) -> bool:
        """Whether a check is running."""
        return self._lock.locked()

    @property
    def pid(self) -> int | None:
        """The daemon's process, from lspd's status file, else the process holding mypy
        for the runs once (`mypy_fork`); None when neither runs."""
        return server_of(self.status_file)[0] or self.forks.pid

    @property
    def running(self) -> bool:
        """Whether lspd's daemon for this project is up (its status file is there)."""
        return self.status_file.is_file()

    async def check(
        self,
        targets: list[str],
        texts: dict[str, bytes],
        outside: int = 0,
        sees: Sees | None = None,
    ) -> MypyOutput:
        """mypy's diagnostics of `targets` (relative to the project) with the copy holding
        `texts` (relative path -> text: the disk's, a preview's, a revision's), warm: dmypy
        re-checks what differs from the last question; the same texts again are answered at
        once unless what mypy reads beyond them changed (`environment_of`: the server restarts;
        `outside`: the watcher's batch that last changed a Python file outside the copy). A
        daemon killed mid-check is started again. `sees`: the walk of the directory `texts`
        are relative to, another than the copy's (an `__init__.py` above came or went)."""
        async with self._lock:
            json_out = await self._prepare()
            moved = sees is not None and sees.directory != self.place.base
            environment = environment_of(self.interpreter)
            if moved or self._environment not in (None, environment):  # its view of them stale
                async with exclusive(self.lock_file):
                    await self._stop()
            if sees is not None and moved:  # the copy is of it now (the fork holder ended too)
                self.place, self.sees = replace(self.place, base=sees.directory), sees
                self.forks.cwd = self.place.workdir
            users = _configs(self)  # the user's mypy configuration, as lspd's reads it
            beyond = f"{outside}\0{installed_digest(self.interpreter)}\0{users}\0{environment}"
            state = state_of([*targets, "\0", beyond], texts)
            if (known := self._answers.get(state)) is not None:
                self._answers.move_to_end(state)
                self.once = known.once
                return known
            flags = list(JSON_FLAGS if json_out else text_flags(self.version or ()))
            read = sections_read(texts, self.place.inside, self.version)  # parsed once
            differ = mypy_partial.differ(self.version, read, targets)
            once = needs_once(texts, arguments=targets, read=read)
            once = once or (differ and (self.partial_once or mypy_partial.hidden(texts, read)))
            async with exclusive(self.lock_file):
                asked = Asked(texts, flags, targets, json_out, state, differ)
                once, (status, out, err), found = await answer(
                    self, asked, once, lambda: _stale(self, texts)
                )
            self._watch()
            self._environment = self._environment or environment
            self.last_used = time.monotonic()
            found = found or output_of(self.project, status, out, err, json_out, once)
            self.once = once
            self._answers[state] = found
            while len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
            return found

    async def hold(self, texts: dict[str, bytes], flags: list[str]) -> None:
        """The copy made to hold `texts` (a step of `dmypy_steps.updated`); with no server up,
        one started meanwhile (as soon as the copy holds its configuration) when spoken to."""
        if not self._speaks or self.running:
            self.mirror.hold(texts)
            return
        configs = [self.place.inside + name for name in CONFIG_FILES]
        self.mirror.put({name: texts[name] for name in configs if name in texts})
        timeout = ["--timeout", str(DAEMON_IDLE_S), "--log-file", str(self.log_file)]
        options = [*timeout, "--", *flags]
        process = spawn(self.interpreter, self.place.workdir, self.status_file, options, self.users)
        if process is None:
            self.mirror.hold(texts)
            return
        # Known at once (its session's group is its pid), so a check cancelled while it
        # starts, or lspd killed meanwhile, leaves no server behind.
        self._process, self._group = process, process.pid
        GROUPS.add(process.pid)
        try:
            self.mirror.hold(texts)
            if not await up(process, self.status_file):
                log.info("dmypy of %s did not start by itself: dmypy run", self.project)
                _abandon(self, process)
        except BaseException:
            _abandon(self, process)
            raise
        self._watch()

    async def ask(self, argv: list[str]) -> tuple[int, str, str]:
        """A run of the server with `argv`: asked on its socket when it is up and its mypy
        speaks the protocol `mypy_ipc` knows, else by `dmypy run` (which starts it, restarts
        it when it wants, and is started once more when the server died mid-check)."""
        self.runs += 1
        if self._speaks and self.running and (socket := server_of(self.status_file)[1]) is not None:
            try:
                async with asyncio.timeout(RUN_TIMEOUT_S):
                    answer = await ask_run(socket, self._speaks, argv) or {}
            except TimeoutError:  # a hung server: ended, `dmypy run` starts another
                log.warning("dmypy of %s did not answer in %.0f s", self.project, RUN_TIMEOUT_S)
                await self.end()
                answer = {}
            if all(key in answer for key in ("out", "err", "status")):
                log.debug("dmypy of %s asked on its socket", self.project)
                status = answer["status"]
                return status if isinstance(status, int) else 2, answer["out"], answer["err"]
            if "version" in str(answer.get("restart", "")):  # ours is not its client's
                log.info("dmypy of %s: %s; dmypy run from now on", self.project, answer)
                self._speaks = None
            if self._process is not None and self._process.poll() is not None:
                self._process = None  # it died (reaped): `dmypy run` starts another
        run = ["--status-file", str(self.status_file), "run", "--timeout"]
        run += [str(DAEMON_IDLE_S), "--log-file", str(self.log_file), "--", *argv]
        status, out, err = await self._run_watched(run)
        if status == 2 and died(out + err):
            log.warning("dmypy of %s died mid-check (%s): started again", self.project, err)
            # ended where it is up all the same: mypy's own `can't read file 'x': No such
            # file or directory` reads as a death, and its server was left running (1 h)
            await self.end()
            status, out, err = await self._run_watched(run)
        return status, out, err

    def forget(self) -> None:
        """Drop the answers kept, earlier processes' too (what a re-check costs: bench/mypy.py)."""
        self._answers.clear()
        self.kept.clear()
        self.caches.forget()

    async def stop(self) -> None:
        """Stop lspd's daemon of this project (never one lspd did not start)."""
        async with self._lock, exclusive(self.lock_file):
            await self._stop()

    async def _stop(self) -> None:
        """End the server lspd started (`end`) and the forking mypy; its copy is removed,
        and of mypy's caches (run once) only the one used last is kept (`Caches.keep`), so
        the next start (a one-shot CLI check) is not cold. No `dmypy stop`: a Python start
        and mypy's import, 0.3-0.7 s of a one-shot check."""
        await self.end()
        await self.forks.end()
        self._environment = None
        self._answers.clear()
        self.mirror.forget()  # the copy of the project's files goes with its daemon
        self.caches.keep()

    async def end(self) -> None:
        """End the server: SIGTERM, SIGKILL if it has not ended within `STOP_GRACE_S` (a
        hung or stopped one); its status file and socket go with it, the copy stays."""
        if self.running:
            pid = server_of(self.status_file)[0]
            if pid is not None and ours(pid, self.status_file):
                await ended(pid, self.status_file)
            forget_status(self.status_file)
        if self._process is not None and self._process.poll() is None:
            self._process.kill()  # not up: never known by its status file
        if self._process is not None:
            self._process.wait()  # reaped: lspd started it
            self._process = None
        if self._group is not None:
            GROUPS.discard(self._group)
            self._group = None

    async def _run_watched(self, argv: list[str]) -> tuple[int, str, str]:
        """`dmypy run`, its server told to the watchdog once up (a cold check takes minutes)."""
        running = asyncio.ensure_future(self._run("dmypy", argv))
        try:
            while self._group is None and not running.done():
                await asyncio.wait({running}, timeout=0.1)
                self._watch()
            return await running
        except BaseException:
            running.cancel()
            raise

    def _watch(self) -> None:
        """Tell the daemon's watchdog the server's process group (dmypy starts it in a
        session of its own, which no parent-death signal reaches): it dies with lspd."""
        pid = server_of(self.status_file)[0]
        try:
            group = os.getpgid(pid) if pid is not None else None
        except OSError:
            group = None
        if group == self._group:
            return
        if self._group is not None:
            GROUPS.discard(self._group)
        if group is not None and group != os.getpgid(0):
            GROUPS.add(group)
        self._group = group

    async def _prepare(self) -> bool:
        """The project's mypy's version, read once (`.dist-info`, else asked); `-O json`?"""
        if self.version is None:
            self.version = installed_version(self.interpreter) or await asked_version(
                self.interpreter, self.project
            )
            self._speaks = speaks(self.interpreter)
        return self.version >= (1, 11)

    async def _run(self, tool: str, argv: list[str]) -> tuple[int, str, str]:
        """Run the environment's `tool` in the copy, where the project is in it."""
        return await ran(self.interpreter, tool, argv, self.place.workdir, users=self.users)


def _configs(daemon: Dmypy) -> str:
    """What the mypy lspd runs reads beyond the copy, made: the user's configuration as
    lspd's mypy reads it (`users_config`, its text), and the `sitecustomize` making the
    project's folders on its `sys.path` the copy's (`mypy_site`)."""
    placed(daemon.users, daemon.place.base, daemon.place.copy)
    return users_config(daemon.users)


def _stale(daemon: Dmypy, texts: dict[str, bytes]) -> bool:
    """Whether the server must start again to check `texts`: its plugins read their tables
    at its start alone (`replugged`), its fine-grained update misses a folder without a
    Python file coming or going (`bare_folders`: a namespace package to mypy, a stub's
    folder a `rm` left), and its update of a removal another file names is not mypy's
    answer (`Mirror.removes`): after app/models.py went, `from app import models` kept a
    stale `import-not-found` beside mypy's `attr-defined`, `import app.sub.m` made `Module
    has no attribute "sub"`, and app/sub/__init__.py gone lost `Module "app.sub" has no
    attribute "X"` (mypy 1.19.1 and 2.4.1); a new server's whole build is mypy's
    (test_dmypy_removed). Its additions are mypy's: a module back or a preview's deletion
    undone stays warm, as does a module nothing names going."""
    bare, daemon._bare = daemon._bare, bare_folders(texts)
    if replugged(daemon.state, texts, daemon.place.inside, daemon.version):
        return True
    if bare not in (None, daemon._bare):
        log.info("dmypy of %s: a folder without Python came or went", daemon.project)
        return True
    if daemon.running and daemon.mirror.removes(texts):
        log.info("dmypy of %s: a Python file went: a whole build", daemon.project)
        return True
    return False


def _abandon(daemon: Dmypy, process: subprocess.Popen[bytes]) -> None:
    """The server lspd started, not up (or its check cancelled): gone, forgotten."""
    killed(process)
    GROUPS.discard(process.pid)
    daemon._process = daemon._group = None
    forget_status(daemon.status_file)
