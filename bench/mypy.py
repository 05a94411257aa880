"""A mypy-gated library through lspd, side by side with the project's own `mypy` and `dmypy`.

rich 13.9.4's release (78 files, `[tool.mypy] strict = true`, `files = ["rich"]`), in a
virtual environment with mypy 2.4.1 (the tests' one, made once under lspd's cache). One run
each, the project's own tool right before lspd's step (the load of a shared machine moves):
`mypy` cold (no cache), `dmypy run` cold (a status file of the bench's own), lspd's cold
`check` (in process as its daemon runs it: a workspace with its watcher) and `lspd check`
as a user first runs it (the CLI with no daemon: one process, imports and all, on a copy
of its own), and that CLI again (its daemon's stop kept one cache); then per edit (a
leaf, then a signature change, kept) lspd's `preview` before it is written, the edit
written in both trees, `dmypy run`, lspd's `check` (the preview's state forgotten first: a
re-check with nothing done ahead) and `check --baseline HEAD`. Memory: the peak RSS of
`mypy`, the RSS of the user's dmypy and of lspd's after the edits (lspd runs the same
dmypy: the ratio is what lspd's own way of running it costs); where lspd runs `mypy` once
per check instead, the peak RSS of those runs (each one's VmHWM, sampled every 20 ms while
it runs: `OncePeak`) and the RSS of the process holding mypy imported between them
(`workspace/mypy_fork.py`) against the user's dmypy's. Targets (issue 44): cold
<= 1.3x `mypy`; each edit <= `dmypy run`'s + 0.3 s; memory <= 1.2x dmypy's; at every step
lspd's errors are those of the project's `mypy` run cold on the same texts (the set: path,
line, column, code, message), checked here beside `dmypy run`'s.

`--project sqlalchemy`: SQLAlchemy 2.0.36's sdist (`[tool.mypy]` strict with
`warn_unused_ignores` on `sqlalchemy.*`, and `[tool.pyright]`: lspd.toml chooses mypy, the
gate measured here), checked as its tox runs it (`mypy ./lib/sqlalchemy`), in the same
environment; its leaf edit goes to `util/tool_support.py`, its signature change makes
`warn_deprecated`'s `version` keyword-only (every caller through `util` breaks). Its `#
type: ignore` comments under `warn_unused_ignores` send lspd to `mypy` run once with its
cache (`workspace/mypy_once.py`), forked from a process holding mypy imported.

    .venv/bin/python bench/mypy.py [--project rich|sqlalchemy]
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.options import arguments  # noqa: E402
from tests.ops.test_baseline import committed  # noqa: E402
from tests.workspace.mypy_env import project as with_env  # noqa: E402
from tests.workspace.mypy_env import rich_release, source_release  # noqa: E402

from lspd.dirs import cache_dir, state_dir  # noqa: E402
from lspd.ops.check import check_all, workspace_diagnostics  # noqa: E402
from lspd.ops.mypy_answers import mypy_diagnosed  # noqa: E402
from lspd.ops.preview import preview  # noqa: E402
from lspd.workspace import Workspace  # noqa: E402
from lspd.workspace.memory import tree_rss_mb  # noqa: E402


@dataclass(frozen=True)
class Setup:
    """A mypy-gated project of the bench: its release, mypy's targets as its CI gives
    them, a leaf edit (a file and the text appended) and a signature change (a file, the
    text replaced and its replacement)."""

    name: str
    targets: tuple[str, ...]
    leaf: tuple[str, str]
    signature: tuple[str, str, str]


RICH = Setup(
    "rich 13.9.4",
    (),
    ("rich/diagnose.py", "\n\nbroken: int = 'leaf'\n"),  # a module nobody imports
    (  # render_lines' `options` made keyword-only: its positional callers break
        "rich/console.py",
        "        renderable: RenderableType,\n        options: Optional[ConsoleOptions] = None,\n"
        "        *,\n        style: Optional[Style] = None,",
        "        renderable: RenderableType,\n        *,\n        options: "
        "Optional[ConsoleOptions] = None,\n        style: Optional[Style] = None,",
    ),
)
SQLALCHEMY = Setup(
    "SQLAlchemy 2.0.36",
    ("./lib/sqlalchemy",),  # its tox: `mypy ./lib/sqlalchemy`
    ("lib/sqlalchemy/util/tool_support.py", "\n\nbroken: int = 'leaf'\n"),
    (  # warn_deprecated's `version` made keyword-only: 42 callers through `util` break
        "lib/sqlalchemy/util/deprecations.py",
        "    msg: str, version: str, stacklevel: int = 3",
        "    msg: str, *, version: str, stacklevel: int = 3",
    ),
)
SETUPS = {"rich": RICH, "sqlalchemy": SQLALCHEMY}
SQLALCHEMY_PINNED = "2.0.36"


def sqlalchemy_release(destination: Path) -> Path:
    """SQLAlchemy's source release (its sdist, kept under lspd's cache), unpacked under
    `destination`, its lspd.toml choosing mypy (it also configures pyright)."""
    kept = cache_dir() / "bench"
    root = source_release("sqlalchemy", SQLALCHEMY_PINNED, kept, destination, timeout=600)
    (root / "lspd.toml").write_text('python_checker = "mypy"\n')
    return root


def release(setup: Setup, destination: Path) -> Path:
    """The setup's project unpacked under `destination`."""
    return rich_release(destination) if setup is RICH else sqlalchemy_release(destination)


def edited(setup: Setup, root: Path, which: str) -> tuple[Path, str]:
    """The file an edit changes and its text after it."""
    if which == "leaf":
        path = root / setup.leaf[0]
        return path, path.read_text() + setup.leaf[1]
    path = root / setup.signature[0]
    text = path.read_text()
    assert setup.signature[1] in text
    return path, text.replace(setup.signature[1], setup.signature[2])


def timed(
    command: list[str], cwd: Path, parses: Callable[[str], bool] | None = None
) -> tuple[float, str, float]:
    """Seconds, stdout and the peak RSS (MB) of one run; a run that exits non-zero with an
    output `parses` cannot read (default: no mypy error in it) prints its command and
    stderr, so a broken tool is seen, not counted as 0 errors."""
    began = time.monotonic()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=err, text=True)
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        took = time.monotonic() - began
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0 and not (parses or (lambda text: errors(text) > 0))(out):
            err.seek(0)
            said = err.read().decode("utf-8", "replace")
            print(f"{' '.join(command)} exited {code}:\n{out}{said}", file=sys.stderr)
    return took, out, usage.ru_maxrss / 1024


def parsed_json(out: str) -> bool:
    """Whether `out` is one JSON document (`lspd check --json`'s)."""
    try:
        json.loads(out)
    except ValueError:
        return False
    return True


def errors(out: str) -> int:
    """Errors in mypy's text or JSON lines."""
    return sum(": error:" in line or '"severity": "error"' in line for line in out.splitlines())


Errors = set[tuple[str, int, int, str | None, str]]  # path, line, column, code, message


def mypy_errors(out: str) -> Errors:
    """The errors of mypy's `-O json` lines, as lspd shows them (1-based columns)."""
    found = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {
        (e["file"], e["line"], max(e["column"] + 1, 1), e["code"], e["message"])
        for e in found
        if e["severity"] == "error"
    }


def lspd_errors(checked: Any) -> Errors:
    """The errors of lspd's whole check."""
    return {
        (r.path, d.line, d.column, d.code, d.message)
        for r in checked.results
        for d in r.diagnostics
        if d.severity == "error"
    }


class Own:
    """The project's own `mypy` and `dmypy`, the latter with a status file of the bench's."""

    def __init__(self, root: Path, targets: tuple[str, ...], directory: Path) -> None:
        self.root = root
        self.targets = list(targets)
        venv = root / ".venv" / "bin"
        self.venv = venv
        self.status = directory / "dmypy.json"  # and its cache: in the bench's temp dir
        self.dmypy = [str(venv / "dmypy"), "--status-file", str(self.status)]
        self.cache = str(self.status.parent / "cache")  # its mypy's, as its CI keeps one

    def mypy(self, label: str, rows: list[tuple[str, str, str]], cache: str) -> Errors:
        """`mypy` with `cache` (the user's own, kept: incremental after its first run; none:
        `os.devnull`), timed into `rows`; its errors."""
        command = [str(self.venv / "mypy"), "-O", "json", "--cache-dir", cache, *self.targets]
        took, out, rss = timed(command, self.root)
        found = mypy_errors(out)
        rows.append((f"mypy ({label})", f"{took:.2f} s", f"{len(found)} errors, {rss:.0f} MB"))
        return found

    def run(self, label: str, rows: list[tuple[str, str, str]]) -> Errors:
        command = [*self.dmypy, "run", "--", "-O", "json", *self.targets]
        took, out, _ = timed(command, self.root)
        found = mypy_errors(out)
        rows.append((f"dmypy run ({label})", f"{took:.2f} s", f"{len(found)} errors"))
        return found

    def rss(self) -> float:
        pid = int(json.loads(self.status.read_text())["pid"])
        return tree_rss_mb(pid) or 0.0

    def stop(self) -> None:
        subprocess.run([*self.dmypy, "stop"], cwd=self.root, capture_output=True, check=False)


class OncePeak:
    """The peak RSS (MB) of lspd's `mypy` runs (run once: `workspace/mypy_once.py`): each
    run's high-water mark (VmHWM), read every 20 ms while it runs (a run's last 20 ms of
    growth can be missed). A run is a child of the process holding mypy imported
    (`workspace/mypy_fork.py`; forked, it shares the holder's pages, so its own peak is
    the whole of lspd's mypy meanwhile), or, where none is held, a `mypy` child of this
    process whose command line names `marker` (the state directory its `--cache-dir` is
    in). The holder's own RSS, kept between the runs, is `held`."""

    def __init__(self, marker: str) -> None:
        self.marker = marker.encode()
        self.peak = 0.0
        self.held = 0.0
        self.runs: set[str] = set()  # their pids
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            for pid in _children(os.getpid()):
                command = _read(Path(f"/proc/{pid}/cmdline")).encode()
                if b"mypy_fork_script" in command:
                    self.held = max(self.held, _status_mb(pid, "VmRSS:"))
                    runs = _children(int(pid))
                elif self.marker in command and b"--cache-dir" in command:
                    runs = [pid]
                else:
                    continue
                for run in runs:
                    self.peak = max(self.peak, _status_mb(run, "VmHWM:"))
                    self.runs.add(run)


def _children(pid: int) -> list[str]:
    """The pids of a process's children (of each of its threads)."""
    tasks = Path(f"/proc/{pid}/task")
    try:
        threads = list(tasks.iterdir())
    except OSError:
        return []
    return [c for t in threads for c in _read(t / "children").split()]


def _status_mb(pid: str, field: str) -> float:
    """A field of /proc/<pid>/status in MB (0 when the process is gone)."""
    for line in _read(Path(f"/proc/{pid}/status")).splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    return 0.0


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:  # a thread or process gone meanwhile
        return ""


def cli(root: Path, rows: list[tuple[str, str, str]], label: str = "cold") -> None:
    """`lspd check` as a user first runs it: no daemon, so in one process of its own (its
    imports, the workspace, dmypy started and stopped), on a copy nothing checked before;
    `again`: the same once more (where mypy runs once, on the cache the first one kept)."""
    lspd = str(Path(sys.executable).parent / "lspd")
    took, out, _ = timed([lspd, "check", "--json"], root, parsed_json)
    found = json.loads(out)["errors"]
    rows.append((f"lspd check, the CLI ({label})", f"{took:.2f} s", f"{found} errors"))


def exact(label: str, mypy: Errors, lspd: Errors, dmypy: Errors) -> tuple[str, str, str]:
    """A row saying whether lspd's and dmypy's errors are `mypy`'s, and how far off."""

    def said(found: Errors) -> str:
        if found == mypy:
            return "= mypy's"
        return f"{len(mypy - found)} of mypy's missing, {len(found - mypy)} not mypy's"

    return (f"errors ({label})", f"{len(mypy)}", f"lspd {said(lspd)}; dmypy {said(dmypy)}")


async def side_by_side(
    setup: Setup, own: Own, root: Path, fresh: Path, rows: list[tuple[str, str, str]]
) -> float:
    """Each step of the project's own tools right before lspd's (the machine's load moves):
    cold, then per edit lspd's preview, the edit written in both trees, `dmypy run`, lspd's
    check and --baseline HEAD, and (not timed) the project's `mypy` cold on the same texts
    that lspd's and dmypy's errors are compared with. Returns lspd's dmypy's RSS (MB), 0
    when it ran mypy once (no process kept: `OncePeak` measures those runs)."""
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        assert await ws.watch()

        async def step(label: str, ask: Callable[[], Awaitable[Any]], count: Any) -> Any:
            began = time.monotonic()
            answer = await ask()
            rows.append((label, f"{time.monotonic() - began:.2f} s", count(answer)))
            return answer

        def check_count(c: Any) -> str:
            return f"{sum(r.errors for r in c.results)} errors"

        def introduced(answer: Any) -> str:
            return f"{len(answer.changes.introduced)} introduced"

        mypy = own.mypy("cold, its cache written", rows, own.cache)
        dmypy = own.run("cold", rows)
        checked = await step("lspd check (cold)", lambda: check_all(ws), check_count)
        rows.append(exact("cold", mypy, lspd_errors(checked), dmypy))
        cli(fresh, rows)
        cli(fresh, rows, "again")
        for which in ("leaf", "signature"):
            path, text = edited(setup, root, which)
            shown = ws.display(path)
            await step(
                f"lspd preview ({which})",
                lambda: preview(ws, [{"path": shown, "content": text}]),  # noqa: B023
                introduced,
            )
            # The preview's state is kept: the check of the same texts would be answered at
            # once. To time a re-check with nothing done ahead, the kept answers go and the
            # daemon's copy is put back to the disk's texts first (not timed); run once, only
            # the disk's cache is kept.
            for daemon in ws.pool.mypy.values():
                daemon.forget()
            await mypy_diagnosed(ws, [path], {})
            for daemon in ws.pool.mypy.values():
                daemon.forget()
            own_path, own_text = edited(setup, own.root, which)
            own_path.write_text(own_text)
            path.write_text(text)
            dmypy = own.run(f"{which} edit", rows)
            own.mypy(f"{which} edit, incremental", rows, own.cache)
            checked = await step(f"lspd check ({which})", lambda: check_all(ws), check_count)
            await step(
                f"lspd check --baseline HEAD ({which})",
                lambda: workspace_diagnostics(ws, baseline="HEAD"),
                introduced,
            )
            cold = own.mypy(f"{which} edit, cold: the reference", rows, os.devnull)
            rows.append(exact(which, cold, lspd_errors(checked), dmypy))
        pids = [d.pid for d in ws.pool.mypy.values() if d.pid is not None]
        return sum(tree_rss_mb(pid) or 0.0 for pid in pids)
    finally:
        await ws.close()


def main(project: Annotated[str, "rich or sqlalchemy"] = "rich") -> None:
    setup = SETUPS[project]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="lspd-bench-mypy-") as temporary:
        base = Path(temporary)
        # lspd's state of the copies (mypy's caches): in the bench's temp dir, so even a
        # bench killed mid-run leaves nothing in the user's state directory.
        os.environ["LSPD_STATE_DIR"] = str(base / "state")
        (base / "own").mkdir()
        (base / "lspd").mkdir()
        ours = committed(with_env(release(setup, base / "lspd"), {}))
        (base / "cli").mkdir()
        fresh = committed(with_env(release(setup, base / "cli"), {}))
        rows: list[tuple[str, str, str]] = []
        own = Own(with_env(release(setup, base / "own"), {}), setup.targets, base)
        once = OncePeak(str(state_dir(ours)))
        try:
            lspd_rss = asyncio.run(side_by_side(setup, own, ours, fresh, rows))
            dmypy_rss = own.rss()
        finally:
            once.stop()
            own.stop()
        rows.append(("RSS: the user's dmypy", f"{dmypy_rss:.0f} MB", ""))
        if once.runs:
            ratio = once.peak / dmypy_rss if dmypy_rss else 0.0
            runs = f"peak of {len(once.runs)} runs; {ratio:.2f}x dmypy's"
            rows.append(("RSS: lspd's mypy run once", f"{once.peak:.0f} MB", runs))
        if once.held:
            ratio = once.held / dmypy_rss if dmypy_rss else 0.0
            held = f"between runs; {ratio:.2f}x dmypy's"
            rows.append(("RSS: lspd's mypy held (forking)", f"{once.held:.0f} MB", held))
        elif lspd_rss:
            ratio = lspd_rss / dmypy_rss if dmypy_rss else 0.0
            rows.append(("RSS: lspd's dmypy", f"{lspd_rss:.0f} MB", f"{ratio:.2f}x dmypy's"))
    after = os.getloadavg()
    print(f"{setup.name}, mypy 2.4.1; load average before {load[0]:.1f}, after {after[0]:.1f}")
    width = max(len(r[0]) for r in rows)
    for label, value, note in rows:
        print(f"{label:<{width}}  {value:>9}  {note}")


if __name__ == "__main__":
    main(**arguments(main, __doc__))
