"""A mypy-gated library through lspd, side by side with the project's own `mypy` and `dmypy`.

rich 13.9.4's release (78 files, `[tool.mypy] strict = true`, `files = ["rich"]`), in a
virtual environment with mypy 2.4.1 (the tests' one, made once under lspd's cache). One run
each, in this order: `mypy` cold (no cache), `dmypy run` (cold, after a leaf edit, after a
signature change) with a status file of the bench's own, then lspd in process as its daemon
runs it (a workspace with its watcher): the cold `check`, then for each edit `preview` (before
it is written), `check` (the preview's state forgotten first: a re-check with nothing done
ahead) and `check --baseline HEAD`. Memory: the peak RSS of `mypy`, the RSS
of the user's dmypy and of lspd's after the edits (lspd runs the same dmypy: the ratio is
what lspd's own way of running it costs). Targets (issue 44): cold <= 1.3x `mypy`; each edit
<= `dmypy run`'s + 0.3 s; memory <= 1.2x dmypy's.

    .venv/bin/python bench/mypy.py
"""

from __future__ import annotations

import asyncio
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


def timed(command: list[str], cwd: Path) -> tuple[float, str, float]:
    """Seconds, stdout and the peak RSS (MB) of one run."""
    began = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    out = process.stdout.read()
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return time.monotonic() - began, out, usage.ru_maxrss / 1024


def errors(out: str) -> int:
    """Errors in mypy's text or JSON lines."""
    return sum(": error:" in line or '"severity": "error"' in line for line in out.splitlines())


def projects_own(root: Path, rows: list[tuple[str, str, str]]) -> float:
    """`mypy` cold and `dmypy run` through both edits (undone after); dmypy's RSS (MB)."""
    venv = root / ".venv" / "bin"
    took, out, rss = timed([str(venv / "mypy"), "--cache-dir", os.devnull], root)
    rows.append(("mypy (cold, no cache)", f"{took:.2f} s", f"{errors(out)} errors, {rss:.0f} MB"))
    status = Path(tempfile.mkdtemp()) / "dmypy.json"
    dmypy = [str(venv / "dmypy"), "--status-file", str(status)]
    took, out, _ = timed([*dmypy, "run", "--"], root)
    rows.append(("dmypy run (cold)", f"{took:.2f} s", f"{errors(out)} errors"))
    for which in ("leaf", "signature"):
        path, text = edited(root, which)
        before = path.read_text()
        path.write_text(text)
        took, out, _ = timed([*dmypy, "run", "--"], root)
        rows.append((f"dmypy run ({which} edit)", f"{took:.2f} s", f"{errors(out)} errors"))
        path.write_text(before)
    timed([*dmypy, "run", "--"], root)  # back to the release
    pid = int(__import__("json").loads(status.read_text())["pid"])
    rss = tree_rss_mb(pid) or 0.0
    subprocess.run([*dmypy, "stop"], cwd=root, capture_output=True, check=False)
    return rss


async def lspds(root: Path, rows: list[tuple[str, str, str]]) -> float:
    """lspd as its daemon runs it: cold check, then per edit preview, check, --baseline HEAD."""
    ws = Workspace(root, log_dir=root.parent / "logs")
    try:
        assert await ws.watch()

        async def step(label: str, ask: Callable[[], Awaitable[Any]], count: Any) -> None:
            began = time.monotonic()
            answer = await ask()
            rows.append((label, f"{time.monotonic() - began:.2f} s", count(answer)))

        def check_count(c: Any) -> str:
            return f"{sum(r.errors for r in c.results)} errors"

        await step("lspd check (cold)", lambda: check_all(ws), check_count)
        for which in ("leaf", "signature"):
            path, text = edited(root, which)
            shown = ws.display(path)

            def introduced(answer: Any) -> str:
                return f"{len(answer.changes.introduced)} introduced"

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
            path.write_text(text)
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
        own = project(rich_release(base / "own"), {})
        ours = committed(project(rich_release(base / "lspd"), {}))
        rows: list[tuple[str, str, str]] = []
        dmypy_rss = projects_own(own, rows)
        lspd_rss = asyncio.run(lspds(ours, rows))
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
