"""`lspd check [PATH|GLOB ...]`: the whole-workspace gate from warm servers.

Every error and warning of every source file (or of the given paths), none left out, as
`path:line:col: severity: message [code]` lines and a summary; exit 0 without errors, 1 with
errors, 2 when lspd itself failed. Through the workspace's daemon when one runs (its servers
are warm and it pages the answer), else in-process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

from lspd.daemon.client import call_on, check_everything, find_daemon, resolve_root
from lspd.errors import InvalidInput, LspdError

PROGRESS_AFTER_S = 1.0
CHECK_TIMEOUT_S = 1800.0  # a cold check of a large project takes minutes


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    help = "every error and warning of the workspace (or PATHs): the gate, from warm servers"
    parser = subparsers.add_parser("check", help=help, description=help)
    parser.add_argument(
        "targets", nargs="*", metavar="PATH|GLOB", help="files, directories or globs (default: all)"
    )
    parser.add_argument("--root", help="workspace root (default: nearest with a daemon, else .)")
    parser.add_argument("--json", action="store_true", help="print the workspace_diagnostics JSON")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="only what is new since REV (HEAD, a git revision, or `session`): checks the "
        "changed files and those naming what changed; exit 1 when it introduced errors",
    )
    parser.set_defaults(func=_check)


def globs(targets: list[str], root: Path, cwd: Path) -> list[str] | None:
    """Each PATH (a file or directory, from the current directory, else from the root) or
    GLOB as a root-relative glob; None for the whole workspace."""
    here = cwd.resolve()
    inside = here == root or root in here.parents
    out: list[str] = []
    for target in targets:
        found = [p for p in ((here / target).resolve(), (root / target).resolve()) if p.exists()]
        ours = [p for p in found if p == root or root in p.parents]
        if ours:
            relative = ours[0].relative_to(root).as_posix() if ours[0] != root else ""
            out.append(f"{relative}/**" if ours[0].is_dir() and relative else relative or "**")
        elif found:
            raise InvalidInput(
                f"{target} is outside the workspace {root}: give a path under it (from the "
                "current directory or the root), or another --root"
            )
        else:
            base = here.relative_to(root).as_posix() if inside and here != root else ""
            out.append(f"{base}/{target}" if base else target)
    return out or None


def _check(args: argparse.Namespace) -> int:
    root = resolve_root(args.root)
    paths = globs(args.targets, root, Path.cwd())
    try:
        result, text, errors = _result(root, paths, args.baseline, parse=not args.json)
    except LspdError:
        raise  # exit 2 with its message (lspd.cli.main)
    except Exception as exc:  # exit 1 means "errors in the code": never for a failure of ours
        print(f"lspd: check failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(
            text
            if text is not None
            else json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        )
    elif args.baseline is not None:
        return _print_changes(result.get("changes") or {})
    else:
        for d in result["diagnostics"]:
            code = f" [{d['code']}]" if d.get("code") else ""
            print(f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{code}")
        print(
            f"{result['errors']} error(s), {result['warnings']} warning(s) in "
            f"{result['files_with_problems']} of {result['files_checked']} file(s)"
        )
    return 1 if errors else 0


def _print_changes(changes: dict[str, Any]) -> int:
    """What the change introduced, one line each, then a summary; exit 1 on new errors."""
    introduced = changes.get("introduced", [])
    for d in introduced:
        code = f" [{d['code']}]" if d.get("code") else ""
        print(f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{code}")
    errors = sum(d["severity"] == "error" for d in introduced)
    print(
        f"{len(introduced)} new since {changes.get('baseline')} ({errors} error(s)), "
        f"{len(changes.get('fixed', []))} fixed, {changes.get('unchanged', 0)} unchanged; "
        f"{changes.get('scope', '')}"
    )
    return 1 if errors else 0


def _result(
    root: Path, paths: list[str] | None, baseline: str | None, parse: bool
) -> tuple[dict[str, Any], str | None, int]:
    """The whole check as workspace_diagnostics JSON, every diagnostic in it; the text the
    daemon sent it as, when it did; and its errors. Without `parse`, the daemon's text is
    not read into data (an empty dict instead): `--json` prints it as it came."""
    found = find_daemon(root)
    with _Progress() as progress:
        if baseline is not None:
            result = _with_baseline(root, paths, baseline, found)
        elif found is not None:
            progress.say("the daemon's servers")
            text, errors = check_everything(found, paths, CHECK_TIMEOUT_S)
            return (json.loads(text) if parse else {}), text, errors
        else:
            result = asyncio.run(_in_process(root, paths, progress))
    return result, None, int(result.get("errors", 0))


def _with_baseline(
    root: Path, paths: list[str] | None, baseline: str, found: Any
) -> dict[str, Any]:
    """One scoped comparison (the changed files and their dependents), warm or cold."""
    arguments: dict[str, Any] = {"limit": 1000, "baseline": baseline}
    if paths:
        arguments["paths"] = paths
    if found is not None:
        return call_on(found, "workspace_diagnostics", arguments)
    from lspd.cli.query import run_tool

    return run_tool(root, "workspace_diagnostics", arguments)


async def _in_process(root: Path, paths: list[str] | None, progress: _Progress) -> dict[str, Any]:
    from lspd.ops.check import check_all, summary
    from lspd.workspace import Workspace

    ws = Workspace(root)
    try:
        checked = await check_all(ws, paths, lambda done, of: progress.say(f"{done}/{of} files"))
        return summary(checked).model_dump(mode="json", exclude_none=True)
    finally:
        await ws.close()


class _Progress:
    """`lspd: checking ... 120/255 files` on stderr, once the check has taken a second."""

    def __init__(self) -> None:
        self._what = ""
        self._shown = False
        self._timer = threading.Timer(PROGRESS_AFTER_S, self._show)
        self._lock = threading.Lock()

    def __enter__(self) -> _Progress:
        self._timer.daemon = True
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            if self._shown and sys.stderr.isatty():
                sys.stderr.write("\n")

    def say(self, what: str) -> None:
        with self._lock:
            self._what = what
            if self._shown:
                self._write()

    def _show(self) -> None:
        with self._lock:
            self._shown = True
            self._write()

    def _write(self) -> None:
        end = "\r" if sys.stderr.isatty() else "\n"
        if not self._what:
            return
        if sys.stderr.isatty() or not self._what.endswith("files") or self._milestone():
            sys.stderr.write(f"lspd: checking ... {self._what}{end}")
            sys.stderr.flush()

    def _milestone(self) -> bool:
        """Without a terminal, a line per tenth of the files, not one per file."""
        done, _, of = self._what.partition(" ")[0].partition("/")
        return (
            done.isdigit()
            and of.isdigit()
            and (int(done) * 10 // int(of)) != ((int(done) - 1) * 10 // int(of))
        )
