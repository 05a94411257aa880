"""Edit → hook message, preview and baseline latency: what "what did my change break?" costs.

    .venv/bin/python bench/hooks.py [--rounds N] [--json FILE]

A daemon serves a git copy of the Python fixture with a 2,000-line module added. Each round
edits a file (a signature change that breaks a caller, then back), runs `lspd hook
claude-code` with the payload Claude Code sends, and checks the message names the broken
caller. The floor is `lspd diagnostics FILE --json` of the same version (the server's own
time for it, through the same CLI start-up). Target (issue 14.5): hook ≤ floor + 100 ms.
Also `lspd preview` of a two-file change and `lspd check --baseline HEAD`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from latency import print_table

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"
LSPD = [sys.executable, "-m", "lspd"]
OLD, NEW = "(name: str) -> Greeter:", "(name: str, loud: bool) -> Greeter:"


def big_module(lines: int = 2000) -> str:
    """A 2,000-line module calling `make_greeter` at its end."""
    body = [
        f"def helper_{i}(value: int) -> int:\n    return value + {i}\n\n" for i in range(lines // 3)
    ]
    return (
        "from pkg.greeting import make_greeter\n\n"
        + "".join(body)
        + ("\ndef last() -> object:\n    return make_greeter('x')\n")
    )


def timed(
    command: list[str], root: Path, env: dict[str, str], stdin: str = ""
) -> tuple[float, str]:
    began = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, input=stdin, capture_output=True, text=True)
    return (time.perf_counter() - began) * 1000, done.stdout


def main(rounds: int, json_path: Path | None) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "py"
        shutil.copytree(FIXTURE, root)
        (root / "pkg" / "big_module.py").write_text(big_module())
        author = ["-c", "user.name=b", "-c", "user.email=b@example.com"]
        for args in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
            subprocess.run(["git", "-C", str(root), *args], check=True)
        env = {**os.environ, "LSPD_STATE_DIR": str(Path(temp) / "state")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        serve = [*LSPD, "serve", str(root), "--detach"]
        subprocess.run(serve, env=env, check=True, stdout=subprocess.DEVNULL)
        rows: dict[str, list[float]] = {}
        try:
            greeting = root / "pkg" / "greeting.py"
            for name, edited in (("small file (30 lines)", greeting), ("2,000-line file", None)):
                hook_ms, floor_ms = [], []
                for i in range(rounds + 1):
                    target = greeting if edited else root / "pkg" / "big_module.py"
                    if edited:
                        text = greeting.read_text()
                        greeting.write_text(
                            text.replace(OLD, NEW) if i % 2 == 0 else text.replace(NEW, OLD)
                        )
                    else:
                        text = target.read_text()
                        call, extra = "make_greeter('x')", "make_greeter('x', 1, 2)"
                        target.write_text(
                            text.replace(call, extra) if i % 2 == 0 else text.replace(extra, call)
                        )
                    payload = json.dumps({"tool_name": "Edit", "cwd": str(root),
                                          "tool_input": {"file_path": str(target)}})  # fmt: skip
                    took, out = timed([*LSPD, "hook", "claude-code"], root, env, payload)
                    floor, _ = timed([*LSPD, "diagnostics", str(target), "--json"], root, env)
                    if i == 0:
                        continue  # warm-up
                    if i % 2 == 0 and "new error" not in out:
                        raise SystemExit(f"the hook missed the break: {out!r}")
                    hook_ms.append(took)
                    floor_ms.append(floor)
                rows[f"hook, {name}"] = hook_ms
                rows[f"floor, {name}"] = floor_ms
            greeting.write_text(greeting.read_text().replace(NEW, OLD))
            app = (root / "pkg" / "app.py").read_text().replace('("world")', '("world", True)')
            changes = json.dumps([
                {"path": "pkg/greeting.py", "content": greeting.read_text().replace(OLD, NEW)},
                {"path": "pkg/app.py", "content": app},
            ])  # fmt: skip
            preview = [*LSPD, "preview", "--changes", "-", "--json"]
            rows["preview, two files"] = [
                timed(preview, root, env, changes)[0] for _ in range(rounds)
            ]
            greeting.write_text(greeting.read_text().replace(OLD, NEW))
            check = [*LSPD, "check", "--baseline", "HEAD"]
            rows["check --baseline HEAD"] = [timed(check, root, env)[0] for _ in range(rounds)]
        finally:
            subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    print_table(
        f"edit → hook message, preview and baseline, {rounds} rounds (ms, wall time)",
        rows,
        json_path,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="edits per file")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    main(args.rounds, args.json)
