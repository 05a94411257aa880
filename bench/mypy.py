"""A mypy-gated library through lspd, side by side with the project's own `mypy` and `dmypy`.

rich 13.9.4's release (78 files, `[tool.mypy] strict = true`, `files = ["rich"]`), in a
virtual environment with mypy 2.4.1 (the tests' one, made once under lspd's cache). One run
each, the project's own tool right before lspd's step (the load of a shared machine moves):
`mypy` cold (no cache), `dmypy run` cold (a status file of the bench's own), lspd's cold
`check` (in process as its daemon runs it: a workspace with its watcher) and `lspd check`
as a user first runs it (the CLI with no daemon: one process, imports and all, on a copy
of its own); then per edit (a leaf, then a signature change, kept) lspd's `preview`
before it is written, the edit
written in both trees, `dmypy run`, lspd's `check` (the preview's state forgotten first: a
re-check with nothing done ahead) and `check --baseline HEAD`. Memory: the peak RSS of
`mypy`, the RSS of the user's dmypy and of lspd's after the edits (lspd runs the same
dmypy: the ratio is what lspd's own way of running it costs). Targets (issue 44): cold
<= 1.3x `mypy`; each edit <= `dmypy run`'s + 0.3 s; memory <= 1.2x dmypy's.

    .venv/bin/python bench/mypy.py
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ops.test_baseline import committed  # noqa: E402
from tests.workspace.mypy_env import project, rich_release  # noqa: E402

from lspd.ops.check import check_all, workspace_diagnostics  # noqa: E402
from lspd.ops.mypy_step import mypy_diagnosed  # noqa: E402
from lspd.ops.preview import preview  # noqa: E402
from lspd.workspace import Workspace  # noqa: E402
from lspd.workspace.memory import tree_rss_mb  # noqa: E402

LEAF = ("rich/diagnose.py", "\n\nbroken: int = 'leaf'\n")  # a module nobody imports
SIGNATURE = (  # render_lines' `options` made keyword-only: its positional callers break
    "rich/console.py",
    "        renderable: RenderableType,\n        options: Optional[ConsoleOptions] = None,\n"
    "        *,\n        style: Optional[Style] = None,",
    "        renderable: RenderableType,\n        *,\n        options: Optional[ConsoleOptions] "
    "= None,\n        style: Optional[Style] = None,",
)


def edited(root: Path, which: str) -> tuple[Path, str]:
    """The file an edit changes and its text after it."""
    if which == "leaf":
        path = root / LEAF[0]
        return path, path.read_text() + LEAF[1]
    path = root / SIGNATURE[0]
    text = path.read_text()
    assert SIGNATURE[1] in text
    return path, text.replace(SIGNATURE[1], SIGNATURE[2])


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


class Own:
    """The project's own `dmypy`, with a status file of the bench's own."""

    def __init__(self, root: Path) -> None:
        self.root = root
        venv = root / ".venv" / "bin"
        self.venv = venv
        self.status = Path(tempfile.mkdtemp()) / "dmypy.json"
        self.dmypy = [str(venv / "dmypy"), "--status-file", str(self.status)]

    def mypy_cold(self, rows: list[tuple[str, str, str]]) -> None:
        took, out, rss = timed([str(self.venv / "mypy"), "--cache-dir", os.devnull], self.root)
        note = f"{errors(out)} errors, {rss:.0f} MB"
        rows.append(("mypy (cold, no cache)", f"{took:.2f} s", note))

    def run(self, label: str, rows: list[tuple[str, str, str]]) -> None:
        took, out, _ = timed([*self.dmypy, "run", "--"], self.root)
        rows.append((f"dmypy run ({label})", f"{took:.2f} s", f"{errors(out)} errors"))

    def rss(self) -> float:
        pid = int(json.loads(self.status.read_text())["pid"])
        return tree_rss_mb(pid) or 0.0

    def stop(self) -> None:
        subprocess.run([*self.dmypy, "stop"], cwd=self.root, capture_output=True, check=False)


def cli(root: Path, rows: list[tuple[str, str, str]]) -> None:
    """`lspd check` as a user first runs it: no daemon, so in one process of its own (its
    imports, the workspace, dmypy started and stopped), on a copy nothing checked before."""
    lspd = str(Path(sys.executable).parent / "lspd")
    took, out, _ = timed([lspd, "check", "--json"], root, parsed_json)
    found = json.loads(out)["errors"]
    rows.append(("lspd check, the CLI (cold)", f"{took:.2f} s", f"{found} errors"))


async def side_by_side(
    own: Own, root: Path, fresh: Path, rows: list[tuple[str, str, str]]
) -> float:
    """Each step of the project's own tools right before lspd's (the machine's load moves):
    cold, then per edit lspd's preview, the edit written in both trees, `dmypy run`, lspd's
    check and --baseline HEAD. Returns lspd's dmypy's RSS (MB)."""
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        assert await ws.watch()

        async def step(label: str, ask: Callable[[], Awaitable[Any]], count: Any) -> None:
            began = time.monotonic()
            answer = await ask()
            rows.append((label, f"{time.monotonic() - began:.2f} s", count(answer)))

        def check_count(c: Any) -> str:
            return f"{sum(r.errors for r in c.results)} errors"

        def introduced(answer: Any) -> str:
            return f"{len(answer.changes.introduced)} introduced"

        own.mypy_cold(rows)
        own.run("cold", rows)
        await step("lspd check (cold)", lambda: check_all(ws), check_count)
        cli(fresh, rows)
        for which in ("leaf", "signature"):
            path, text = edited(root, which)
            shown = ws.display(path)
            await step(
                f"lspd preview ({which})",
                lambda: preview(ws, [{"path": shown, "content": text}]),  # noqa: B023
                introduced,
            )
            # The preview's state is kept: the check of the same texts would be answered at
            # once. To time a re-check with nothing done ahead, the kept answers go and the
            # daemon's copy is put back to the disk's texts first (not timed).
            for daemon in ws.pool.mypy.values():
                daemon.forget()
            await mypy_diagnosed(ws, [path], {})
            own_path, own_text = edited(own.root, which)
            own_path.write_text(own_text)
            path.write_text(text)
            own.run(f"{which} edit", rows)
            await step(f"lspd check ({which})", lambda: check_all(ws), check_count)
            await step(
                f"lspd check --baseline HEAD ({which})",
                lambda: workspace_diagnostics(ws, baseline="HEAD"),
                introduced,
            )
        pids = [d.pid for d in ws.pool.mypy.values() if d.pid is not None]
        return sum(tree_rss_mb(pid) or 0.0 for pid in pids)
    finally:
        await ws.close()


def main() -> None:
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="lspd-bench-mypy-") as temporary:
        base = Path(temporary)
        (base / "own").mkdir()
        (base / "lspd").mkdir()
        ours = committed(project(rich_release(base / "lspd"), {}))
        (base / "cli").mkdir()
        fresh = committed(project(rich_release(base / "cli"), {}))
        rows: list[tuple[str, str, str]] = []
        own = Own(project(rich_release(base / "own"), {}))
        try:
            lspd_rss = asyncio.run(side_by_side(own, ours, fresh, rows))
            dmypy_rss = own.rss()
        finally:
            own.stop()
        rows.append(("RSS: the user's dmypy", f"{dmypy_rss:.0f} MB", ""))
        ratio = lspd_rss / dmypy_rss if dmypy_rss else 0.0
        rows.append(("RSS: lspd's dmypy", f"{lspd_rss:.0f} MB", f"{ratio:.2f}x dmypy's"))
    after = os.getloadavg()
    print(f"rich 13.9.4, mypy 2.4.1; load average before {load[0]:.1f}, after {after[0]:.1f}")
    width = max(len(r[0]) for r in rows)
    for label, value, note in rows:
        print(f"{label:<{width}}  {value:>9}  {note}")


if __name__ == "__main__":
    main()
