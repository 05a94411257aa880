"""Run every benchmark in bench/ and write docs/benchmarks.md with a plot of the latencies.

    scripts/bench [--quick] [--only NAME ...]

Every script in bench/ (a `bench/*.py` with a `__main__` block) but this one runs in turn,
on this machine, with `--json FILE` when its `--help` offers it (the samples for the plot).
Its printed tables go into the document as they are, with the machine, the load average
while it ran (other work on the machine shows there) and how long it took. The
distributions of every sampled latency go into docs/benchmarks.png. Every result is also
kept in docs/benchmarks.json, so `--only NAME` reruns one script and keeps the others' last
results. `--quick` runs shorter versions (for checking the scripts, not for publishing
figures; they are written to a temp dir unless `--out DIR` says where).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kept import Kept, read

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DOCS = REPO / "docs"
NAME = "benchmarks"  # .md, .png and .json in the output directory

ORDER = ["ops", "mcp", "languages", "freshness", "soak"]  # others follow by name
QUICK = {
    "ops": ["--rounds", "5"],
    "mcp": ["--iterations", "30"],
    "languages": ["--iterations", "5"],
    "freshness": ["--rounds", "4", "--idle", "5"],
    "soak": ["--calls", "1000"],
    "symbols": ["--rounds", "2"],
    "feedback": ["--only", "ts7"],
    "navigation": ["--only", "shipped", "--warm", "1"],
    "rename": ["--rounds", "2"],
    "status_page": ["--seconds", "10", "--rounds", "1", "--hovers", "50"],
}


@dataclass
class Result:
    name: str
    command: list[str]
    summary: str
    output: str
    errors: str
    code: int
    seconds: float
    load: tuple[float, float]  # 1-minute load average at start and at the end
    data: dict[str, Any] | None
    when: str  # UTC, minutes
    commit: str = ""  # of lspd, when the script ran


def rounded(value: Any) -> Any:
    """Samples to 10 µs: the kept results stay a few hundred kB."""
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(item) for item in value]
    return value


def kept(out: Path) -> dict[str, Result]:
    """The results of the last runs, by script name."""
    try:
        return {r["name"]: Result(**r) for r in json.loads((out / f"{NAME}.json").read_text())}
    except (OSError, ValueError, TypeError):
        return {}


def scripts(only: list[str]) -> list[Path]:
    found = {
        p.stem: p
        for p in BENCH.glob("*.py")
        if p.name != Path(__file__).name and '__name__ == "__main__"' in p.read_text()
    }  # scripts, not the helpers they share
    names = [n for n in ORDER if n in found] + sorted(set(found) - set(ORDER))
    return [found[n] for n in names if not only or n in only]


def summary(script: Path) -> str:
    """The docstring of the script without its usage line (the command is shown apart)."""
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    lines = [line for line in doc.splitlines() if not line.strip().startswith(".venv/")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def run(script: Path, quick: bool, temp: Path) -> Result:
    python = sys.executable
    help_text = subprocess.run(
        [python, str(script), "--help"], capture_output=True, text=True, cwd=REPO, check=False
    ).stdout
    args = QUICK.get(script.stem, []) if quick else []
    json_path = temp / f"{script.stem}.json"
    if "--json" in help_text:
        args += ["--json", str(json_path)]
    command = [python, str(script.relative_to(REPO)), *args]
    print(f"running {' '.join(command[1:])} ...", file=sys.stderr, flush=True)
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, check=False)
    seconds = time.monotonic() - started
    data = json.loads(json_path.read_text()) if json_path.exists() else None
    shown = [c for c in command[1:] if not c.startswith(str(temp))]
    shown = [c for c in shown if c != "--json"]
    return Result(
        name=script.stem,
        command=["python", *shown],
        summary=summary(script),
        output=done.stdout.rstrip(),
        errors=done.stderr.rstrip(),
        code=done.returncode,
        seconds=seconds,
        load=(load_before, os.getloadavg()[0]),
        data=data,
        when=f"{datetime.now(UTC):%Y-%m-%d %H:%M}",
        commit=head(),
    )


def head() -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()


# -- the plot --------------------------------------------------------------------------------


def plot(results: list[Result], path: Path) -> bool:
    """One panel per benchmark that kept samples: a box per tool or operation, log scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    panels = [(r, r.data["samples_ms"]) for r in results if r.data and r.data.get("samples_ms")]
    panels = [(r, {k: v for k, v in s.items() if v}) for r, s in panels]
    if not panels:
        return False
    heights = [max(2.0, 0.32 * len(samples) + 1.0) for _, samples in panels]
    figure, axes = plt.subplots(
        len(panels), 1, figsize=(10, sum(heights)), gridspec_kw={"height_ratios": heights}
    )
    for axis, (result, samples) in zip(axes if len(panels) > 1 else [axes], panels, strict=True):
        labels = list(samples)[::-1]
        axis.boxplot(
            [samples[label] for label in labels],
            orientation="horizontal",
            whis=(1, 99),
            showfliers=True,
            flierprops={"markersize": 2, "alpha": 0.3},
        )
        axis.set_yticks(range(1, len(labels) + 1), labels, fontsize=8)
        axis.set_xscale("log")
        axis.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        axis.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        axis.xaxis.set_minor_formatter(NullFormatter())
        axis.set_xlabel("ms (box: p25-p75, line: p50, whiskers: p1-p99)", fontsize=8)
        title = f"bench/{result.name}.py"
        if result.data and result.data.get("clients", 1) > 1:
            title += f" ({result.data['clients']} concurrent clients, time in line included)"
        axis.set_title(title, fontsize=10, loc="left")
        axis.grid(axis="x", which="both", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    return True


# -- the document ----------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    memory_kb = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal:")
    )
    versions = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    installed = {p["name"].lower(): p["version"] for p in json.loads(versions or "[]")}
    names = [name for name in ("mcp", "basedpyright", "uvicorn") if name in installed]
    tools = ", ".join(f"{name} {installed[name]}" for name in names)
    return [
        f"- CPU: {cpu}, {os.cpu_count()} cores; memory {memory_kb / 1024 / 1024:.1f} GB; "
        f"{platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}; {tools}",
    ]


WRITTEN = {"Soak", "MCP round trip", "Symbols by name"}  # the headlines rendered from results


def headlines(results: list[Result]) -> list[str]:
    lines = []
    by_name = {r.name: r for r in results}
    soak = by_name.get("soak")
    if soak and soak.data:
        samples = [s for v in soak.data["samples_ms"].values() for s in v]
        samples.sort()
        failures = sum(soak.data["failures"].values())
        rss = soak.data["rss_mb"]
        growth = ", ".join(
            f"{name} {rss['warm'][name]:.0f} → {rss['end'][name]:.0f} MB" for name in rss["warm"]
        )
        lines.append(
            f"- **Soak**: {soak.data['calls']} mixed calls from {soak.data['clients']} clients "
            f"in {soak.data['seconds']:.0f} s, **{failures} failures**, p50 "
            f"{samples[len(samples) // 2]:.1f} ms, p99 {samples[int(len(samples) * 0.99)]:.0f} ms; "
            f"memory after warm-up → end: {growth}."
        )
    mcp = by_name.get("mcp")
    if mcp and mcp.data:
        hover = sorted(mcp.data["samples_ms"].get("hover", []))
        if hover:
            bursts = mcp.data.get("bursts", {})
            p99 = bursts.get("lspd hover", {}).get("p99_ms")
            sdk = mcp.data.get("sdk_trivial_calls_per_s_8_clients")
            lines.append(
                f"- **MCP round trip** (SDK client → daemon → basedpyright), hover p50 "
                f"{hover[len(hover) // 2]:.2f} ms; 8 clients: "
                f"{mcp.data['hover_calls_per_s_8_clients']:.0f} hovers/s"
                + (f", p99 {p99:.0f} ms" if p99 is not None else "")
                + (f" (the SDK alone, a trivial tool: {sdk:.0f} calls/s)" if sdk else "")
                + f"; daemon start → sentinel {mcp.data['start_to_sentinel_ms']:.0f} ms."
            )
    symbols = by_name.get("symbols")
    if symbols and symbols.data:
        lines.append(symbols_headline(symbols.data))
    return lines


def symbols_headline(data: dict[str, Any]) -> str:
    def p50(row: str) -> float:
        return statistics.median(data["samples_ms"][row])

    cold = {name: statistics.median(runs) for name, runs in data["cold_s"].items()}
    _, tree = data["rss_mb"]["after references"]
    return (
        f"- **Symbols by name** (click 8.1.7, basedpyright): definition p50 "
        f"{p50('definition by name'):.1f} ms by name, {p50('definition by position'):.1f} ms "
        f"by position; cold serve → first by-name answer {cold['lspd']:.2f} s, basedpyright "
        f"alone {cold['server']:.2f} s"
        + (
            f" ({cold['server_given']:.2f} s handed lspd's interpreter)"
            if "server_given" in cold
            else ""
        )
        + f"; tree RSS after the run {tree:.0f} MB."
    )


def document(
    results: list[Result],
    quick: bool,
    plotted: bool,
    started: datetime,
    hand: Kept,
    fresh: set[str],
) -> str:
    """The page: the results rendered, around what a person wrote by hand (`hand`); a kept
    result (not run now, not in `fresh`) no newer than its section on the page leaves that
    section as it is."""
    parts = [
        "# Benchmarks",
        "",
        f"Written at {started:%Y-%m-%d %H:%M} UTC by `scripts/bench`"
        + (" **--quick (shortened runs, not for comparison)**" if quick else "")
        + ", which runs every script in `bench/` on this machine and rewrites this page, "
        "its plot and `benchmarks.json` (`scripts/bench --only NAME` reruns one script); "
        "sections and headlines written here by hand (runs of a script by hand) are kept.",
        "",
        *machine(),
        f"- Each section gives the 1-minute load average while its script ran: above "
        f"{os.cpu_count()} (the cores) the machine was also busy with other work, and the "
        "figures are slower than on an idle machine.",
        "",
    ]
    bullets = headlines(results) + hand.headlines
    if bullets:
        parts += ["## Headlines", "", *"\n".join(bullets).splitlines(), ""]
    if plotted:
        parts += [
            "## Latency distributions",
            "",
            "![latency distributions of every benchmark](benchmarks.png)",
            "",
        ]
    if "freshness" not in {r.name for r in results}:
        parts += [
            "## Freshness",
            "",
            "> **Missing:** `bench/freshness.py` is not in this checkout yet. `scripts/bench` runs "
            "every `bench/*.py`, so its table (and its samples, if it offers `--json`) appear "
            "here the next time it runs.",
            "",
        ]
    rendered = {r.name: r for r in results}
    for name in [s.stem for s in scripts([])]:
        stale = name not in fresh and name in rendered and hand.holds(name, rendered[name].when)
        if name not in rendered or stale:
            if name in hand.sections:  # run by hand only: kept as written
                parts += [*hand.sections[name].splitlines(), ""]
            continue
        result = rendered[name]
        status = "" if result.code == 0 else f", **exit code {result.code}**"
        parts += [
            f"## bench/{result.name}.py",
            "",
            result.summary,
            "",
            f"`{' '.join(result.command)}` at {result.when} UTC on commit `{result.commit}` — "
            f"{result.seconds:.0f} s, load "
            f"{result.load[0]:.1f} at start, {result.load[1]:.1f} at the end{status}",
            "",
            "```",
            result.output or "(no output)",
            "```",
            "",
        ]
        if result.code != 0:
            last = result.errors.splitlines()[-15:]
            parts += ["Its last error lines:", "", "```", *last, "```", ""]
        if hand.prose.get(name):
            parts += [*hand.prose[name].splitlines(), ""]
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="shorter runs into a temp dir, to check the scripts"
    )
    parser.add_argument("--out", type=Path, help="write here instead of docs/")
    parser.add_argument("--only", nargs="*", default=[], help="only these scripts (by name)")
    parser.add_argument(
        "--render", action="store_true", help="run nothing: rewrite the page from the last results"
    )
    args = parser.parse_args()
    started = datetime.now(UTC)
    out: Path = args.out or (Path(tempfile.mkdtemp(prefix="lspd-bench-")) if args.quick else DOCS)
    previous = kept(out) if args.only or args.render else {}
    page = out / f"{NAME}.md"
    hand = read(page.read_text() if page.is_file() and not args.quick else "", WRITTEN)
    fresh: dict[str, Result] = {}
    if not args.render:
        with tempfile.TemporaryDirectory(prefix="lspd-bench-") as temp:
            fresh = {s.stem: run(s, args.quick, Path(temp)) for s in scripts(args.only)}
    names = [s.stem for s in scripts([]) if s.stem in fresh or s.stem in previous]
    results = [fresh.get(name) or previous[name] for name in names]
    kept_json = json.dumps([rounded(asdict(r)) for r in results], separators=(",", ":"))
    (out / f"{NAME}.json").write_text(kept_json)
    plotted = plot(results, out / f"{NAME}.png")
    page.write_text(document(results, args.quick, plotted, started, hand, set(fresh)))
    print(f"wrote {out}/{NAME}.md, .json" + (" and .png" if plotted else ""))
    return max((r.code for r in fresh.values()), default=0)


if __name__ == "__main__":
    sys.exit(main())
