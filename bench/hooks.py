"""Edit → hook message, preview and baseline latency: what "what did my change break?" costs.

    .venv/bin/python bench/hooks.py [--rounds N] [--json FILE]

A daemon serves a git copy of the Python fixture with a 2,000-line module added. Each round
edits a file (a signature change that breaks a caller, then back), runs `lspd hook
claude-code` with the payload Claude Code sends, and checks the message names the broken
caller. The floor is `lspd diagnostics FILE --json` of the same version (the server's own
time for it, through the same CLI start-up). Target (issue 14.5): hook ≤ floor + 100 ms.
Also `lspd preview` of a two-file change and `lspd check --baseline HEAD`.

Then the breaking cases, as Claude Code runs the hooks (issue 25): the post-edit hook with its
3 s budget and, beside it, the background `--late` hook. Per case: in how many breaking edits
the hook said nothing at all (target 0), in how many its answer named an error, and the time
from the edit to the first error reported to the model by either. The cases: the fixture's
signature change (a caller breaks), and SQLAlchemy 2.0.36's `util._collections.to_list` with
its `default` made required (33 call sites break; `--sqlalchemy DIR` for an unpacked sdist,
else it is fetched as bench/gate.py does).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from latency import print_table

SA_CORE = "lib/sqlalchemy/util/_collections.py"
SA_OLD = "def to_list(x: Any, default: Optional[List[Any]] = None) -> List[Any]:"
SA_NEW = "def to_list(x: Any, default: Optional[List[Any]]) -> List[Any]:"

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "py"
LSPD = [sys.executable, "-m", "lspd"]
OLD, NEW = "(name: str) -> Greeter:", "(name: str, loud: bool) -> Greeter:"
THINK_S = 1.0  # from a prompt to the model's first edit (a model's reply takes seconds)


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


def payload(root: Path, target: Path, session: str) -> str:
    """Claude Code's PostToolUse payload for an Edit of `target`."""
    return json.dumps({"session_id": session, "hook_event_name": "PostToolUse",
                       "tool_name": "Edit", "cwd": str(root),
                       "tool_input": {"file_path": str(target)}})  # fmt: skip


def breaking(
    name: str, root: Path, env: dict[str, str], target: Path, old: str, new: str, rounds: int
) -> dict[str, object]:
    """`rounds` breaking edits of `target` (`old` -> `new`), each undone after; the first
    is a warm-up. Returns the case's row."""
    silent = named = 0
    first: list[float] = []
    harmless_said = 0
    for i in range(rounds + 1):
        session = f"bench-{name}-{i}"
        target.write_text(target.read_text().replace(old, new))
        began = time.perf_counter()
        late = subprocess.Popen(
            [*LSPD, "hook", "claude-code", "--late"], cwd=root, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert late.stdin is not None and late.stderr is not None
        late.stdin.write(payload(root, target, session))  # at once, as Claude Code starts both
        late.stdin.close()
        took, out = timed([*LSPD, "hook", "claude-code"], root, env, payload(root, target, session))
        stderr = late.stderr.read()
        late.wait(600)
        late_took = (time.perf_counter() - began) * 1000
        target.write_text(target.read_text().replace(new, old))
        settle = {**env, "LSPD_HOOK_TIMEOUT": "300"}
        undo = payload(root, target, session)
        _, back = timed([*LSPD, "hook", "claude-code"], root, settle, undo)
        if i == 0:
            continue  # warm-up
        silent += not out.strip()
        harmless_said += bool(back.strip())
        if "new error" in out:
            named += 1
            first.append(took)
        elif late.returncode == 2 and "new error" in stderr:
            first.append(late_took)
    return {"case": name, "rounds": rounds, "silent": silent, "named": named,
            "first_ms": first, "undo_said": harmless_said}  # fmt: skip


def print_cases(cases: list[dict[str, object]]) -> None:
    print("\nbreaking edits, as Claude Code runs the hooks (3 s budget + the --late hook)\n")
    head = f"{'case':30}  {'rounds':>6}  {'silent':>6}  {'named':>5}  {'first p50':>9}  {'max':>7}"
    print(head + f"  {'undo said':>9}")
    for c in cases:
        first = c["first_ms"]
        assert isinstance(first, list)
        p50 = f"{statistics.median(first):9.0f}" if first else f"{'-':>9}"
        most = f"{max(first):7.0f}" if first else f"{'-':>7}"
        print(f"{c['case']!s:30}  {c['rounds']!s:>6}  {c['silent']!s:>6}  {c['named']!s:>5}  "
              f"{p50}  {most}  {c['undo_said']!s:>9}")  # fmt: skip


def sqlalchemy(into: Path, given: Path | None) -> Path:
    """SQLAlchemy 2.0.36's sources committed to git in a fresh directory."""
    from gate import pyright_only, sdist

    root = into / "sqlalchemy"
    if given is not None:
        shutil.copytree(given, root)
    else:
        root = sdist("sqlalchemy==2.0.36", into / "sa")
    pyright_only(root)  # before the commit: its hooks see a clean tree
    author = ["-c", "user.name=b", "-c", "user.email=b@example.com"]
    for args in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *args], check=True)
    return root


def cases(rounds: int, given: Path | None, json_path: Path | None) -> None:
    """The breaking cases: silence, errors named, time to the first error reported."""
    found = []
    with tempfile.TemporaryDirectory() as temp:
        env = {**os.environ, "LSPD_STATE_DIR": str(Path(temp) / "state")}
        fixture = Path(temp) / "py"
        shutil.copytree(FIXTURE, fixture)
        author = ["-c", "user.name=b", "-c", "user.email=b@example.com"]
        for args in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
            subprocess.run(["git", "-C", str(fixture), *args], check=True)
        projects = [("fixture: a caller breaks", fixture, fixture / "pkg" / "greeting.py",
                     OLD, NEW),
                    ("sqlalchemy: to_list required", sqlalchemy(Path(temp), given),
                     None, SA_OLD, SA_NEW)]  # fmt: skip
        for name, root, target, old, new in projects:
            subprocess.run([*LSPD, "serve", str(root), "--detach"], env=env, check=True,
                           stdout=subprocess.DEVNULL)  # fmt: skip
            try:
                path = target or root / SA_CORE
                found.append(breaking(name, root, env, path, old, new, rounds))
            finally:
                subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    print_cases(found)
    if json_path is not None:
        json_path.with_suffix(".cases.json").write_text(json.dumps(found, indent=1))


def turns(root: Path, env: dict[str, str], target: Path, rounds: int) -> dict[str, list[float]]:
    """Turns as Claude Code runs them: the prompt hook (UserPromptSubmit: the daemon takes
    what the work tree holds then, in the background), `THINK_S` later a breaking edit and
    its hook, then the stop hook; the edit undone after. The work tree holds another error
    from before every turn: the stop must set it aside (an edit made before the daemon had
    taken it would count it: then the bench stops, saying so)."""
    app = root / "pkg" / "app.py"
    held = app.read_text()
    app.write_text(held + '\n\nCOUNT: int = "many"\n')  # another's error, before the prompts
    rows: dict[str, list[float]] = {"prompt hook": [], "hook, edit right after the prompt": []}
    rows["stop hook, that turn"] = []
    try:
        for i in range(rounds + 1):
            session = f"bench-turn-{i}"
            prompt = json.dumps({"session_id": session, "hook_event_name": "UserPromptSubmit",
                                 "cwd": str(root), "prompt": "make greetings loud"})  # fmt: skip
            took_prompt, _ = timed([*LSPD, "hook", "claude-code"], root, env, prompt)
            time.sleep(THINK_S)  # the model reads the prompt: its first edit comes after
            target.write_text(target.read_text().replace(OLD, NEW))
            took, out = timed(
                [*LSPD, "hook", "claude-code"], root, env, payload(root, target, session)
            )
            stop = json.dumps({"session_id": session, "hook_event_name": "Stop", "cwd": str(root),
                               "stop_hook_active": False})  # fmt: skip
            took_stop, said = timed([*LSPD, "hook", "claude-code"], root, env, stop)
            target.write_text(target.read_text().replace(NEW, OLD))
            timed([*LSPD, "check"], root, env)  # the undo taken in before the next turn
            if "new error" not in out or "new error" not in said or "not counted" not in said:
                raise SystemExit(f"the turn's hooks missed the break: {out!r} {said!r}")
            if i == 0:
                continue  # warm-up
            rows["prompt hook"].append(took_prompt)
            rows["hook, edit right after the prompt"].append(took)
            rows["stop hook, that turn"].append(took_stop)
    finally:
        app.write_text(held)
    return rows


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
            big = root / "pkg" / "big_module.py"
            big.write_text(big.read_text().replace("make_greeter('x', 1, 2)", "make_greeter('x')"))
            rows.update(turns(root, env, greeting, rounds))
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
    parser.add_argument("--cases", type=int, default=5, help="breaking edits per case")
    parser.add_argument("--sqlalchemy", type=Path, help="an unpacked SQLAlchemy 2.0.36 sdist")
    parser.add_argument("--only-cases", action="store_true", help="skip the latency table")
    args = parser.parse_args()
    if not args.only_cases:
        main(args.rounds, args.json)
    cases(args.cases, args.sqlalchemy, args.json)
