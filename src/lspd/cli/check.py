"""`lspd check [PATH|GLOB ...]`: the whole-workspace gate from warm servers.

Every error and warning of the files the project's own gate checks (its pyright and tsconfig
configuration; `--all`: every source file; or the given paths), none left out, as
`path:line:col: severity: message [code]` lines and one summary line (files, errors,
warnings, seconds, the configuration that chose the files); exit 0 without errors, 1 with
errors, 2 when lspd itself failed or a file went unanswered (a check without errors that
could not ask every file is incomplete, not clean). `--errors-only`, `--limit` and
`--offset` show part of the list (the exit code is the whole check's). Through the
workspace's daemon when one runs (its servers are warm), else in-process; progress on
stderr once it takes 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from lspd.cli import log_warnings, render
from lspd.cli.pages import joined
from lspd.cli.progress import Progress
from lspd.daemon.client import call_on, check_everything, check_progress
from lspd.daemon.finding import find_daemon, resolve_root
from lspd.errors import InvalidInput, LspdError

CHECK_TIMEOUT_S = 1800.0  # a cold check of a large project takes minutes


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`lspd check`."""
    help = "every error and warning of the workspace (or PATHs): the gate, from warm servers"
    parser = subparsers.add_parser("check", help=help, description=help)
    parser.add_argument(
        "targets",
        nargs="*",
        metavar="PATH|GLOB",
        help="files, directories or globs (default: what the project's gate checks)",
    )
    parser.add_argument("--root", help="workspace root (default: nearest with a daemon, else .)")
    parser.add_argument("--json", action="store_true", help="print the workspace_diagnostics JSON")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="only what is new since REV (HEAD, a git revision, or `session`): the check "
        "against REV's result, kept per commit; exit 1 when it introduced errors",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="every source file, not only those the project's checker configuration checks "
        "(pyrightconfig.json / pyproject.toml, tsconfig.json)",
    )
    parser.add_argument(
        "--errors-only", action="store_true", help="leave warnings out (list and counts)"
    )
    parser.add_argument("--limit", type=int, help="show at most N diagnostics (default: all)")
    parser.add_argument("--offset", type=int, default=0, help="skip the first N (0-based)")
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
    if args.limit is not None and args.limit < 1:
        raise InvalidInput(f"--limit must be 1 or more, not {args.limit}")
    if args.offset < 0:
        raise InvalidInput(f"--offset must be 0 or more, not {args.offset}")
    whole = args.limit is None and args.offset == 0 and not args.errors_only
    began = time.monotonic()
    try:
        result, text, errors, unanswered = _result(
            root, paths, args.baseline, parse=not (args.json and whole), every=args.all
        )
    except LspdError:
        raise  # exit 2 with its message (lspd.cli.main)
    except Exception as exc:  # exit 1 means "errors in the code": never for a failure of ours
        if os.environ.get("LSPD_DEBUG"):
            traceback.print_exc()
        print(f"lspd: check failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    seconds = time.monotonic() - began
    if args.baseline is not None and args.json:
        return _print_compared(result, args.errors_only)
    if args.baseline is not None:
        return _print_changes(result.get("changes") or {}, args.errors_only)
    if text is not None and args.json and whole:
        print(text)
        return _exit_code(errors, unanswered)
    shown = page(result, args.errors_only, args.offset, args.limit)
    if args.json:
        print(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
    else:
        for d in shown["diagnostics"]:
            print(_line(d))
        for line in render.notes(shown):
            print(line)
        for line in shown.get("stopped", []):  # without it the syntax errors read as the only ones
            print(line)
        print(summary_line(shown, seconds, paths, args.all, args.errors_only))
    return _exit_code(errors, unanswered)


def _exit_code(errors: int, unanswered: int) -> int:
    """1 with errors; else 2 when a file went unanswered (said on stderr: silence is not
    "clean"); else 0."""
    if errors:
        return 1
    if unanswered:
        print(
            f"lspd: check incomplete: {_n(unanswered, 'file')} not checked (listed as "
            "skipped, each with why); no errors in the others",
            file=sys.stderr,
        )
        return 2
    return 0


def page(
    result: dict[str, Any], errors_only: bool, offset: int, limit: int | None
) -> dict[str, Any]:
    """The check's answer as the MCP tool pages it: without warnings (`errors_only`: in the
    list and the counts), `limit` diagnostics from `offset`, `next_offset` when more remain."""
    shown = dict(result)
    listed = result.get("diagnostics", [])
    if errors_only:
        listed = [d for d in listed if d["severity"] == "error"]
        files = [{**f, "warnings": 0} for f in result.get("files", []) if f.get("errors")]
        shown.update(warnings=0, files=files, files_with_problems=len(files))
    if offset > len(listed) or (offset and offset == len(listed)):
        raise InvalidInput(f"--offset {offset} is past the last diagnostic ({len(listed)})")
    end = len(listed) if limit is None else min(len(listed), offset + limit)
    shown.update(diagnostics=listed[offset:end], total=len(listed), offset=offset)
    shown["truncated"] = end < len(listed)
    shown.pop("next_offset", None)
    if end < len(listed):
        shown["next_offset"] = end
    if not offset:
        shown.pop("offset")
    return shown


def summary_line(
    result: dict[str, Any],
    seconds: float,
    paths: list[str] | None,
    every: bool,
    errors_only: bool = False,
) -> str:
    """The one line that ends the text form: files, errors, warnings, seconds, and what chose
    the files; then what was left out, and where the next page starts."""
    counts = f"{_n(result['files_checked'], 'file')}, {_n(result['errors'], 'error')}"
    counts += " (warnings left out)" if errors_only else f", {_n(result['warnings'], 'warning')}"
    line = f"lspd check: {counts}, {seconds:.1f} s; {_chosen(result.get('scope'), paths, every)}"
    if result.get("outside_gate"):
        outside = _n(result["outside_gate"], "source file")
        line += f"; {outside} no gate checks left out (--all checks them)"
    listed = len(result["diagnostics"])
    if listed < result["total"]:
        start = result.get("offset", 0)
        line += f"; shown {start + 1}-{start + listed} of {result['total']}" if listed else ""
        if "next_offset" in result:
            line += f" (next: --offset {result['next_offset']})"
    return line


def _n(count: int, what: str) -> str:
    return f"{count} {what}" + ("" if count == 1 else "s")


def _chosen(scope: list[dict[str, Any]] | None, paths: list[str] | None, every: bool) -> str:
    """Which configuration chose the files: `configuration: pyrightconfig.json, ...`."""
    if paths:
        return "the given paths: " + " ".join(paths)
    if every or scope is None:
        return "every source file (--all)"
    named = [s["config"] for s in scope if s.get("config")]
    loose = sorted({s["language"] for s in scope if not s.get("config") and s["files"]})
    parts = named[:3] + ([f"{len(named) - 3} more (--json lists them)"] if len(named) > 3 else [])
    if loose:
        parts.append(f"no configuration for {'/'.join(loose)}: every file")
    # a project none of whose files is checked, and why (a package not installed); more than
    # two named alone (jotai: 7 examples and its website, each a sentence)
    unchecked = [s for s in scope if not (s["files"] or s.get("config")) and s.get("note")]
    if len(unchecked) > 2:
        names = [s["project"] for s in unchecked]
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        parts.append(f"{len(names)} not checked ({', '.join(names[:3])}{more}: --json says why)")
    else:
        parts += [f"{s['project']} {s['note']}" for s in unchecked]
    return "configuration: " + (", ".join(parts) if parts else "none found, nothing to check")


def _line(d: dict[str, Any]) -> str:
    code = f" [{d['code']}]" if d.get("code") else ""
    return f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{code}"


def _print_compared(result: dict[str, Any], errors_only: bool) -> int:
    """`--baseline --json`: workspace_diagnostics' JSON with every page's introduced
    diagnostics in one (its counts are theirs); with `--errors-only`, the errors alone.
    `fixed` is the first page's (`fixed_total` counts all): `truncated` says when it is cut."""
    changes = dict(result.get("changes") or {})
    if errors_only:
        changes["introduced"] = [d for d in changes["introduced"] if d["severity"] == "error"]
        result = {**result, "warnings": 0, "total": len(changes["introduced"])}
    # Every page is in it: the per-file counts and `fixed` may be cut (defaults left out).
    shown = {k: v for k, v in result.items() if k not in ("next_offset", "truncated")}
    shown["changes"] = changes
    files_cut = len(result.get("files", [])) < int(result.get("files_with_problems", 0))
    if files_cut or len(changes.get("fixed", [])) < changes.get("fixed_total", 0):
        shown["truncated"] = True
    print(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
    return 1 if any(d["severity"] == "error" for d in changes.get("introduced", [])) else 0


def _print_changes(changes: dict[str, Any], errors_only: bool) -> int:
    """What the change introduced, one line each, then a summary; exit 1 on new errors."""
    introduced = changes.get("introduced", [])
    if errors_only:
        introduced = [d for d in introduced if d["severity"] == "error"]
    errors = sum(d["severity"] == "error" for d in introduced)
    for d in introduced:
        print(_line(d))
    for line in render.unsaid(changes):
        print(line)
    fixed = max(changes.get("fixed_total", 0), len(changes.get("fixed", [])))
    print(
        f"{len(introduced)} new since {changes.get('baseline')} ({errors} error(s)), "
        f"{fixed} fixed, {changes.get('unchanged', 0)} unchanged; "
        f"{changes.get('scope', '')}"
    )
    return 1 if errors else 0


def _result(
    root: Path, paths: list[str] | None, baseline: str | None, parse: bool, every: bool
) -> tuple[dict[str, Any], str | None, int, int]:
    """The whole check as workspace_diagnostics JSON, every diagnostic in it; the text the
    daemon sent it as, when it did; its errors and files not answered. Without `parse`, the
    daemon's text is not read into data (an empty dict instead): `--json` prints it as it
    came."""
    found = find_daemon(root)
    if baseline is not None:
        with Progress(f"checking the changes since {baseline}"):
            result = _with_baseline(root, paths, baseline, found, every)
        return result, None, int(result.get("errors", 0)), 0
    if found is not None:
        with Progress(poll=lambda: _counts(check_progress(found))):
            text, errors, unanswered = check_everything(found, paths, CHECK_TIMEOUT_S, every)
        return (json.loads(text) if parse else {}), text, errors, unanswered
    import asyncio  # here: a check through the daemon starts without it (~10 ms)

    log_warnings()
    with Progress() as progress:
        result, unanswered = asyncio.run(_in_process(root, paths, progress, every))
    return result, None, int(result.get("errors", 0)), unanswered


def _counts(answer: dict[str, Any]) -> tuple[int, int] | None:
    done, total = answer.get("done"), answer.get("total")
    return (done, total) if isinstance(done, int) and isinstance(total, int) else None


def _with_baseline(
    root: Path, paths: list[str] | None, baseline: str, found: Any, every: bool
) -> dict[str, Any]:
    """One comparison against the baseline's kept result, warm or cold, with every page of
    what it introduced: each page is cut from the one comparison the daemon keeps (or made
    here once: the result the daemon saved for that commit read back, else made here)."""
    if found is None:
        import asyncio

        log_warnings()
        pages = asyncio.run(_pages_in_process(root, paths, baseline, every))
    else:
        arguments: dict[str, Any] = {"limit": 1000, "baseline": baseline}
        if paths:
            arguments["paths"] = paths
        if every:
            arguments["all"] = True
        pages = [call_on(found, "workspace_diagnostics", arguments)]
        while (at := pages[-1].get("next_offset")) is not None:
            pages.append(call_on(found, "workspace_diagnostics", {**arguments, "offset": at}))
    return joined(pages)


async def _pages_in_process(
    root: Path, paths: list[str] | None, baseline: str, every: bool
) -> list[dict[str, Any]]:
    from lspd.engine.whole_check import selected
    from lspd.ops.budget import compact
    from lspd.ops.changes_page import every_page, workspace_comparison
    from lspd.ops.check import from_kept
    from lspd.workspace import Workspace

    ws = Workspace(root)  # its state directory is the daemon's: a result it saved is read

    def keep(path: Path) -> bool:
        return selected(ws.display(path), paths)

    try:
        kept = from_kept(ws, baseline, paths, every)  # read back, else made here
        compared = await workspace_comparison(ws, baseline, paths, keep, kept, every)
        return [compact(p) for p in every_page(compared)]
    finally:
        await ws.close(polite=False)  # its answer made: nothing is asked of them


async def _in_process(
    root: Path, paths: list[str] | None, progress: Progress, every: bool
) -> tuple[dict[str, Any], int]:
    """The whole check made here, and how many of its files went unanswered. One question
    (`one_question`): the disk is one state throughout, so TypeScript 5's builder's listing of
    its program's JSON files serves the configuration's errors, with no `tsc -p --listFilesOnly`
    of their own (`engine/builders.listed`: 0.8-1.0 s of CPU on a 21-file project)."""
    from lspd.ops.check import check_all, summary
    from lspd.ops.check_models import not_answered
    from lspd.workspace import Workspace
    from lspd.workspace.question import one_question

    ws = Workspace(root)
    try:
        with one_question():
            checked = await check_all(ws, paths, progress.update, all=every)
        result = summary(checked).model_dump(mode="json", exclude_none=True)
        return result, len(not_answered(checked.skipped))
    finally:
        await ws.close(polite=False)  # its answer made: nothing is asked of them
