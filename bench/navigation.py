"""What TypeScript navigation costs in memory and in answer time, per way of running it.

    .venv/bin/python bench/navigation.py [--only NAME ...] [--warm N] [--json FILE]

effect 3.10.0 (fetched as bench/feedback.py fetches it: 360 files, TypeScript 5.6.3). For
each variant a daemon serves the project (a copy of lspd's `src/` with the variant's
servers.toml, run with it first on PYTHONPATH), then, as an agent's session goes: `lspd
check src` (the builder checks; typescript-language-server and its tsservers only wait for
navigation), the resident MB of each process of the daemon's tree, then the first
document symbols, hover, definition and references (each a new `lspd` CLI process, as an
agent's tool call reaches the daemon), then `--warm` more rounds of the four, and the
memory again. Variants:
- `shipped`: servers.toml as it is;
- `syntax-auto` / `syntax-never`: typescript-language-server's `tsserver.useSyntaxServer`
  set to "auto" (a second, partial-semantic tsserver answers syntax requests and those
  asked while the project loads) or "never" (one tsserver answers everything);
- `node-default`: without the entry's `NODE_OPTIONS=--max-semi-space-size=8` (node 24's
  young generation grows to two 64 MB semi-spaces);
- `no-prewarm`: the shipped servers.toml, the daemon started with `--no-prewarm` (the
  TypeScript server starts at the first question).
Every answer is checked (the hover names `succeed`, the definition is in core.ts, the
references hold one in Option.ts, the symbols hold `EffectTypeId`). The machine's load is
printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.feedback import Lspd, effect

SRC = Path(__file__).resolve().parent.parent / "src" / "lspd"
LSPD = [sys.executable, "-m", "lspd"]
HOVER = "src/Effect.ts:2241:57"  # `core.succeed`
REFERENCES = "src/Option.ts:169:14"  # `isSome`
# (name, CLI arguments, a fact the answer must hold)
QUESTIONS = [
    ("symbols", ["document-symbols", "src/Effect.ts"], "EffectTypeId"),
    ("hover", ["hover", HOVER], "succeed"),
    ("definition", ["definition", HOVER], "internal/core.ts"),
    ("references", ["references", REFERENCES, "--limit", "500"], "src/Option.ts"),
]
SYNTAX = re.compile(r'(tsserver = \{ path = "[^"]+")(, useSyntaxServer = "\w+")?( \})')


@dataclass
class Variant:
    name: str
    servers_toml: Callable[[str], str]
    prewarm: bool = True


def _syntax(mode: str) -> Callable[[str], str]:
    def patch(text: str) -> str:
        patched, count = SYNTAX.subn(rf'\1, useSyntaxServer = "{mode}"\3', text)
        assert count == 1, "the typescript-language-server entry's tsserver options moved"
        return patched

    return patch


def _node_default(text: str) -> str:
    """Without the entry's NODE_OPTIONS: node's own young generation."""
    line = 'env = { NODE_OPTIONS = "--max-semi-space-size=8" }\n'
    assert text.count(line) == 1, "the typescript-language-server entry's env moved"
    return text.replace(line, "")


VARIANTS = [
    Variant("shipped", lambda text: text),
    Variant("syntax-auto", _syntax("auto")),
    Variant("syntax-never", _syntax("never")),
    Variant("node-default", _node_default),
    Variant("no-prewarm", lambda text: text, prewarm=False),
]


def source(variant: Variant, base: Path) -> Path:
    """A copy of lspd's package with the variant's servers.toml; its parent goes on
    PYTHONPATH."""
    top = base / f"src-{variant.name}"
    shutil.copytree(SRC, top / "lspd", ignore=shutil.ignore_patterns("__pycache__"))
    toml = top / "lspd" / "servers" / "servers.toml"
    toml.write_text(variant.servers_toml(toml.read_text()))
    return top


def ask(root: Path, env: dict[str, str], argv: list[str], fact: str) -> float:
    """One CLI call, timed; its answer must hold `fact`."""
    began = time.perf_counter()
    done = subprocess.run(
        [*LSPD, *argv, "--root", str(root), "--json"],
        cwd=root, env=env, capture_output=True, text=True,
    )  # fmt: skip
    took = time.perf_counter() - began
    if done.returncode != 0 or fact not in done.stdout:
        answer = f"{done.stdout[:300]}{done.stderr[-300:]}"
        raise SystemExit(f"{argv} answered {done.returncode}: {answer}")
    return took


def measure(variant: Variant, root: Path, base: Path, warm: int) -> dict[str, object]:
    state = base / f"state-{variant.name}"
    env = {**os.environ, "PYTHONPATH": str(source(variant, base)), "LSPD_STATE_DIR": str(state)}
    serve = [*LSPD, "serve", str(root), *([] if variant.prewarm else ["--no-prewarm"])]
    daemon = subprocess.Popen(
        serve, env=env, cwd=base, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    row: dict[str, object] = {"load before": os.getloadavg()[0]}
    try:
        assert daemon.stdout is not None
        url = daemon.stdout.readline().strip()
        if not url.startswith("http"):
            raise SystemExit(f"the daemon of {variant.name} did not start: {url!r}")
        lspd = Lspd(root, ["src"], state)
        lspd.env = env
        row["check s"], row["errors"], _ = lspd.check()
        row["parts after check"] = lspd.parts()
        for name, argv, fact in QUESTIONS:
            row[f"first {name} s"] = ask(root, env, argv, fact)
        samples: dict[str, list[float]] = {name: [] for name, _, _ in QUESTIONS}
        for _ in range(warm):
            for name, argv, fact in QUESTIONS:
                samples[name].append(ask(root, env, argv, fact))
        for name, taken in samples.items():
            row[f"warm {name} s"] = sorted(taken)[len(taken) // 2]
        row["warm samples"] = samples
        row["parts after navigation"] = lspd.parts()
        row["load after"] = os.getloadavg()[0]
    finally:
        subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
        try:
            daemon.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(daemon.pid, signal.SIGKILL)
            daemon.wait()
    return row


def _navigation_mb(parts: object) -> float:
    """The resident MB of typescript-language-server and its tsservers."""
    assert isinstance(parts, dict)
    return sum(mb for name, mb in parts.items() if "tsserver" in name or "language-server" in name)


def table(rows: dict[str, dict[str, object]]) -> str:
    names = [name for name, _, _ in QUESTIONS]
    head = ["variant", "nav MB checked", "nav MB used", *[f"1st {n}" for n in names]]
    head += [f"warm {n}" for n in names] + ["load"]
    lines = [" | ".join(head), " | ".join("---" for _ in head)]
    for variant, row in rows.items():
        cells = [
            variant,
            f"{_navigation_mb(row['parts after check']):.0f}",
            f"{_navigation_mb(row['parts after navigation']):.0f}",
        ]
        cells += [f"{row[f'first {n} s']:.2f}" for n in names]  # type: ignore[str-format]
        cells += [f"{row[f'warm {n} s']:.2f}" for n in names]  # type: ignore[str-format]
        cells.append(f"{row['load before']:.1f}-{row['load after']:.1f}")
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=[v.name for v in VARIANTS])
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="fetch effect here (kept for another run)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    chosen = [v for v in VARIANTS if not args.only or v.name in args.only]
    with tempfile.TemporaryDirectory(prefix="lspd-navigation-") as temp:
        base = Path(temp)
        keep = args.keep or base
        root = keep / "effect" if (keep / "effect" / "node_modules").is_dir() else effect(keep)
        rows: dict[str, dict[str, object]] = {}
        for variant in chosen:
            rows[variant.name] = measure(variant, root, base, args.warm)
            print(variant.name, json.dumps(rows[variant.name]["parts after check"]), flush=True)
            print(variant.name, json.dumps(rows[variant.name]["parts after navigation"]))
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
