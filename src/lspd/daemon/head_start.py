"""The language servers of the last run, started before lspd's own modules are imported
(issue 43: the cold start).

`lspd serve` imports lspd's workspace and LSP layers (0.4-0.7 s of one core, loaded) before
it can choose its first server; that server's own start (node reading basedpyright's 8.6 MB
bundle: 0.5-1 s) needs none of it, and there are 2 cores. So the daemon remembers how its
prewarm started each server (`settle`: command, directory, log and the environment it set
over its own) and the next `serve` of the workspace starts those first (`start`), on the
event loop the daemon then runs on (`runner`). A session starting its server is given that
process by `lsp.process.spawn` when it asks exactly what was started (the same command,
directory, environment and log), else starts its own as ever; one that no session took is
killed once prewarm has started its servers (`settle`): what runs is what this start chose.
The `python3` shims those servers' sessions asked which interpreter they run are asked again
beside them (`lsp/interpreter_ask`: the session waits for that answer before `initialized`,
0.25-0.35 s), and the answers no session took are dropped there too. With no record (a
workspace never served, a fresh state directory), the starts the workspace's markers make
certain are made instead (`head_start_markers`), under the same rules.

Only lspd's own servers start ahead: nothing is remembered or started whose command,
arguments or environment name a path inside the workspace, and nothing for a workspace with
an lspd.toml (its server entries are code that came with the repository, which
`--restricted` ignores), with `--restricted`, or without prewarm. A command read from the
file is run, so the file is read only when it and its folder are this user's alone (owned,
writable by no one else) and the state directory is outside the workspace, and each start
only when it is one lspd makes (words without NUL, its log in the state directory): a
review showed a shared LSPD_STATE_DIR's file start anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import subprocess
from collections.abc import Collection
from pathlib import Path
from typing import Any

from lspd.daemon import head_start_markers
from lspd.dirs import state_dir
from lspd.lsp import interpreter_ask, process

log = logging.getLogger(__name__)

FILE = "head-start.json"  # in the workspace's state directory
CONFIG = "lspd.toml"  # the workspace's (workspace/config.py: not imported here, it is slow)

_runner: asyncio.Runner | None = None
_started: list[process.Spawn] = []  # started ahead by this process


def start(root: Path) -> None:
    """Start the servers the last run of `root` prewarmed, as it started them; none when
    it remembered none or they may not start ahead (module docstring)."""
    global _runner
    spawns, asks = _remembered(root)
    if spawns:
        _runner = asyncio.Runner()
        _runner.run(_start(spawns))
        for ask in asks:
            with contextlib.suppress(Exception):  # its session asks it, or says why
                interpreter_ask.ahead(ask)


async def _start(spawns: list[process.Spawn]) -> None:
    for spawn in spawns:
        # Gone since, or a file that says nonsense: its session starts it, or says why.
        with contextlib.suppress(Exception):
            started = await process.ahead(
                list(spawn.command), Path(spawn.cwd), dict(spawn.env), Path(spawn.log_path)
            )
            _started.append(dataclasses.replace(spawn, pid=started.pid))


def runner() -> asyncio.Runner:
    """The loop the servers were started ahead on (their pipes and exits are watched
    there), for the daemon to run on; a new one when none was."""
    return _runner or asyncio.Runner()


def settle(root: Path, pids: Collection[int]) -> None:
    """Once prewarm has started its servers (`pids`): kill what was started ahead and not
    taken, and remember how those servers were started, for the next start."""
    for left in process.unclaimed():
        process.kill_group(left.pid)
        log.info("a server started ahead (pid %d) was not asked for: killed", left.pid)
    for asking in _dropped():
        log.info("a shim asked ahead (pid %d) was not asked for: dropped", asking.pid)
    for spawn in _started:
        if spawn.pid in pids:
            log.info("%s started ahead (pid %d): taken", spawn.command[0], spawn.pid)
    _started.clear()
    _remember(root, pids)


def close() -> None:
    """Kill what was started ahead and not taken (a `serve` that did not run the daemon)
    and close its loop."""
    global _runner
    left = process.unclaimed()
    for started in left:
        process.kill_group(started.pid)
    _dropped()
    if _runner is not None:
        if left:
            with contextlib.suppress(RuntimeError):  # the daemon ran on it and closed it
                _runner.run(_reaped(left))
        _runner.close()
        _runner = None
    _started.clear()


def _dropped() -> list[subprocess.Popen[str]]:
    """The shims asked ahead that no session took, killed and reaped (they answer within a
    second: the wait is short)."""
    left = interpreter_ask.unclaimed()
    for asking in left:
        asking.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            asking.communicate(timeout=5)
    return left


async def _reaped(killed: list[asyncio.subprocess.Process]) -> None:
    await asyncio.wait([asyncio.create_task(process.exited(p)) for p in killed], timeout=5)


def _remember(root: Path, pids: Collection[int]) -> None:
    """Write how the processes `pids` were started (the environment as set over this
    process's own) and the shims the workspace's sessions were made to ask; remove the file
    when one of them may not start ahead."""
    servers: dict[int, dict[str, Any]] = {}
    for spawn in process.SPAWNED:
        if spawn.pid in pids:
            servers[spawn.pid] = {
                "command": list(spawn.command),
                "cwd": spawn.cwd,
                "env": _over_own(spawn.env),
                "log_path": spawn.log_path,
            }
    asks = [
        {"ask": ask.shim, "cwd": ask.cwd, "env": _over_own(ask.env)}
        for ask in dict.fromkeys(interpreter_ask.ASKED)
        if Path(ask.cwd) == root or root in Path(ask.cwd).parents
    ]
    records = [*servers.values(), *asks]
    path = state_dir(root) / FILE
    try:
        if servers and all(_may_start(root, r) for r in records):
            path.parent.mkdir(parents=True, exist_ok=True)
            temp = path.with_name(f".{FILE}.{os.getpid()}")
            temp.write_text(json.dumps(records), encoding="utf-8")
            os.replace(temp, path)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        log.warning("how the servers started could not be kept in %s", path, exc_info=True)


def _over_own(env: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """What `env` sets over this process's environment."""
    return {name: value for name, value in env if os.environ.get(name) != value}


def remembered(root: Path) -> list[process.Spawn]:
    """The spawns the last run remembered (with no file: those the workspace's markers
    make certain), with this process's environment under theirs; none when any start may
    not be made ahead, or the file is unreadable or not trusted (`_trusted`)."""
    return _remembered(root)[0]


def _remembered(root: Path) -> tuple[list[process.Spawn], list[interpreter_ask.Ask]]:
    """The spawns and the shims' questions the last run remembered (`remembered`); with
    no file, those the workspace's markers make certain (`head_start_markers`)."""
    path = state_dir(root) / FILE
    try:
        if _inside(root, path.parent):
            return [], []
        guessed = not path.exists()
        if guessed:
            records = head_start_markers.records(root)
        elif _trusted(path):
            records = json.loads(path.read_text(encoding="utf-8"))
        else:
            return [], []
        if not all(_may_start(root, r) and _well_formed(root, r) for r in records):
            if not guessed:  # a guess naming the workspace (its PATH) is no one's fault
                log.warning("%s holds a start lspd would not make: nothing starts ahead", path)
            return [], []
        spawns, asks = [], []
        for r in records:
            env = {**os.environ, **r["env"]}
            if "ask" in r:
                asks.append(interpreter_ask.asked(Path(r["ask"]), Path(r["cwd"]), env))
            else:
                command = tuple(str(word) for word in r["command"])
                spawns.append(
                    process.Spawn(
                        0, command, str(r["cwd"]), tuple(sorted(env.items())), str(r["log_path"])
                    )
                )
        return spawns, asks
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return [], []


def _inside(root: Path, folder: Path) -> bool:
    """Whether the state directory `folder` is inside the workspace (a repository's files
    are not the user's: nothing starts ahead)."""
    return folder.resolve() == root or root in folder.resolve().parents


def _trusted(path: Path) -> bool:
    """Whether the file of starts is this user's own: a command read from it is run, so it
    and its folder must be owned by this user and writable by no one else."""
    for held in (path, path.parent):
        status = held.stat()
        if status.st_uid != os.getuid() or status.st_mode & 0o022:
            log.warning("%s is not only this user's: nothing starts ahead", held)
            return False
    return True


def _well_formed(root: Path, record: dict[str, Any]) -> bool:
    """Whether a remembered start is one lspd makes: a command of words (a shim's question:
    an absolute path), an environment of names and values without NUL, and a server's log
    in the workspace's state directory."""
    command, env, asks = _command(record), record["env"], "ask" in record
    words = [*command, *env, *env.values(), record["cwd"], *([] if asks else [record["log_path"]])]
    if not isinstance(command, list) or not command:
        return False
    if not all(isinstance(w, str) and "\0" not in w for w in words):
        return False
    if asks:
        return Path(command[0]).is_absolute()
    logs = Path(record["log_path"]).resolve()
    return state_dir(root).resolve() in logs.parents


def _may_start(root: Path, record: dict[str, Any]) -> bool:
    """Whether a remembered start is lspd's own: no lspd.toml in the workspace, and no
    word of its command nor value it sets in the environment naming a path in it."""
    if (root / CONFIG).exists():
        return False
    inside = str(root)
    words = [*_command(record), *record["env"].values()]
    return all(isinstance(w, str) and inside not in w for w in words)


def _command(record: dict[str, Any]) -> list[Any]:
    """A remembered start's command: a server's, or the shim a question is asked of."""
    return [record["ask"]] if "ask" in record else record["command"]
