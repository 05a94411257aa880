"""The project's `mypy` forked from a process holding it imported (`mypy_fork`), on a real
mypy: each answer is the `mypy` command's own (its stdout, stderr and status, a refused
flag too), every run starts from the state right after mypy's import (a plugin's counter
of its loads is 1 in each, where a loop of `mypy.api.run` in one process counts on), and a
run cancelled midway ends the holder (the next question starts another)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lspd.workspace.mypy_fork import Forks
from tests.daemon.support import env_for, thread_daemon, wait_dead
from tests.workspace.mypy_env import STRICT, cli_errors, project
from tests.workspace.test_mypy_once import IGNORING

# A plugin counting how many times it was loaded in its process, said as an error at each
# call of `app.probe`.
COUNTING = (
    "from mypy.plugin import Plugin\n"
    "LOADS = []\n\n\n"
    "class Counting(Plugin):\n"
    "    def get_function_hook(self, fullname):\n"
    "        if fullname != 'app.probe':\n"
    "            return None\n"
    "        def hook(ctx):\n"
    "            ctx.api.fail(f'loaded {len(LOADS)} times', ctx.context)\n"
    "            return ctx.default_return_type\n"
    "        return hook\n\n\n"
    "def plugin(version):\n"
    "    LOADS.append(version)\n"
    "    return Counting\n"
)
PROBED = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app.py"]\nplugins = ["counting.py"]\n',
    "counting.py": COUNTING,
    "app.py": "def probe() -> None: ...\n\n\nprobe()\n",
}
NO_CACHE = ["-O", "json", "--cache-dir", os.devnull]


def own_mypy(root: Path, argv: list[str]) -> tuple[int, str, str]:
    """The project's `mypy` command, as lspd ran it before (its script, in `root`)."""
    done = subprocess.run(
        [str(root / ".venv" / "bin" / "mypy"), *argv],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def forks_of(root: Path, tmp_path: Path) -> Forks:
    return Forks(root / ".venv" / "bin" / "python", root, tmp_path / "fork.log")


def test_each_answer_is_the_mypy_commands_own(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    forks = forks_of(root, tmp_path)
    cache = ["-O", "json", "--incremental", "--cache-dir", str(tmp_path / "cache")]
    asked = [cache, cache, [*NO_CACHE, "--no-such-flag"], NO_CACHE]

    async def run() -> tuple[list[tuple[int, str, str] | None], set[int | None]]:
        answers, holders = [], set()
        try:
            for argv in asked:
                answers.append(await forks.run(argv))
                holders.add(forks.pid)
        finally:
            await forks.end()
        return answers, holders

    answers, holders = asyncio.run(run())
    assert len(holders) == 1 and None not in holders  # one holder answered them all
    assert forks.pid is None
    assert answers[0] is not None and answers[0][0] == 1 and answers[0][1].count("\n") == 3
    assert answers[1] == answers[0]  # the same again, from the cache the first one wrote
    refused = own_mypy(root, [*NO_CACHE, "--no-such-flag"])
    assert refused[0] == 2 and "unrecognized arguments" in refused[2]
    assert answers[2] == refused
    assert answers[3] == own_mypy(root, NO_CACHE)


def test_no_run_sees_what_another_left_in_memory(tmp_path: Path) -> None:
    root = project(tmp_path / "p", PROBED)
    forks = forks_of(root, tmp_path)

    async def run() -> list[tuple[int, str, str] | None]:
        try:
            return [await forks.run(NO_CACHE) for _ in range(3)]
        finally:
            await forks.end()

    answers = asyncio.run(run())
    alone = own_mypy(root, NO_CACHE)
    assert '"message": "loaded 1 times"' in alone[1]
    assert answers == [alone] * 3
    # One process running mypy three times (mypy.api.run) loads the plugin module once and
    # its entry point each time: what a resident mypy carries from run to run.
    loop = f"from mypy import api\nfor _ in range(3): print(api.run({NO_CACHE!r})[0], end='')\n"
    python = str(root / ".venv" / "bin" / "python")
    looped = subprocess.run([python, "-c", loop], cwd=root, capture_output=True, text=True)
    said = [line for line in looped.stdout.splitlines() if "loaded" in line]
    assert len(said) == 3 and '"loaded 1 times"' in said[0] and '"loaded 3 times"' in said[2]


def test_a_run_cancelled_midway_ends_the_holder(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    forks = forks_of(root, tmp_path)

    async def run() -> tuple[int | None, tuple[int, str, str] | None, int | None]:
        try:
            asking = asyncio.ensure_future(forks.run(NO_CACHE))
            while forks.pid is None:
                await asyncio.sleep(0.01)
            holder = forks.pid
            asking.cancel()
            await asyncio.gather(asking, return_exceptions=True)
            assert forks.pid is None
            return holder, await forks.run(NO_CACHE), forks.pid
        finally:
            await forks.end()

    holder, answer, again = asyncio.run(run())
    assert holder is not None and again is not None and again != holder
    assert gone(holder)
    assert answer == own_mypy(root, NO_CACHE)


def gone(pid: int) -> bool:
    """Whether `pid` ended (gone, or a zombie not reaped yet), within 5 s of a SIGKILL."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if "(zombie)" in Path(f"/proc/{pid}/status").read_text():
                return True
        except OSError:
            return True
        time.sleep(0.01)
    return False


def test_only_a_daemon_holds_mypy_a_one_shot_check_runs_it_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project run once (`mypy_once`): a one-shot `lspd check` (no daemon) asks mypy once,
    where a holder's start and import save nothing, so it starts none (no holder's log);
    a daemon's first question starts one, its stop ends it."""
    root = project(tmp_path / "p", IGNORING)
    state = tmp_path / "state"
    checked = subprocess.run(
        [sys.executable, "-m", "lspd", "check", "--json"],
        cwd=root,
        env=env_for(state),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 1, checked.stderr
    found = json.loads(checked.stdout)["diagnostics"]
    mypy = cli_errors(root)
    assert sorted((d["path"], d["line"], d["code"]) for d in found) == sorted(
        (e[0], e[1], e[3]) for e in mypy
    )
    assert list(state.rglob("mypy-fork.log")) == []  # no holder was started
    # The disk changed since: the daemon's question runs mypy (the same texts would be
    # answered as that check's run answered them: `mypy_kept`).
    (root / "app" / "main.py").write_text((root / "app" / "main.py").read_text() + "\n")
    monkeypatch.setenv("LSPD_STATE_DIR", str(state))
    with thread_daemon(root, prewarm=False) as running:
        ws = running.daemon.ws
        assert ws is not None
        asked = subprocess.run(
            [sys.executable, "-m", "lspd", "diagnostics", "app/other.py", "--json"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert asked.returncode == 0, asked.stderr
        assert json.loads(asked.stdout)["errors"] == 1  # its unused ignore
        (daemon,) = ws.pool.mypy.values()
        holder = daemon.forks.pid
        assert holder is not None and daemon.pid == holder and daemon.once
        assert [p.name for p in state.rglob("mypy-fork.log")] == ["mypy-fork.log"]
    assert wait_dead(holder, 10)
