"""Readable text for each result, from its wire form; `--json` prints the wire form itself.

The wire form is the JSON data MCP answers with (`lspd.ops.budget.compact`): fields at
their default are left out, so each renderer reads them with the model's default
(`lspd.ops.models`). Rendering from the data rather than the models keeps pydantic out of
the CLI: `lspd diagnostics FILE` through a daemon is what a hook runs after every edit.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]


def render(result: str, answer: Answer) -> str:
    """`answer`, the wire form of a `result` model (its name, as the table of operations
    gives it: `DiagnosticsResult`, `state_models:StatusResult`), as text."""
    renderer = _RENDERERS.get(result.rpartition(":")[2])
    return renderer(answer) if renderer else json.dumps(answer, ensure_ascii=False, indent=2)


def _changes(c: Answer, r: Answer | None = None) -> list[str]:
    """What a change introduced, one line each, and a summary: with a baseline these are
    the answer (what was there before is counted as unchanged, never listed). `r`, the
    answer holding `c`, pages `introduced`: its counts are complete, and it says where the
    rest starts."""
    introduced = c.get("introduced", [])
    fixed = max(c.get("fixed_total", 0), len(c.get("fixed", [])))
    errors = sum(d["severity"] == "error" for d in introduced)
    new = len(introduced)
    if r is not None:
        new, errors = r.get("total", 0), r.get("errors", 0)
    lines = [_problem(d) for d in introduced] + unsaid(c)
    lines.append(
        f"{new} new since {c['baseline']} ({errors} error(s), "
        f"{new - errors} warning(s)), {fixed} fixed, "
        f"{c.get('unchanged', 0)} unchanged ({c['scope']})"
    )
    following = None if r is None else r.get("next_offset")
    shown = f"{following - len(introduced) + 1}-{following}" if following else len(introduced)
    if following is not None:
        lines.append(f"… {shown} of {new} shown; `--offset {following}` for the rest")
    elif len(introduced) < new:  # the last page of a paged answer (`--offset` asked)
        lines.append(f"… the last {len(introduced)} of {new}")
    return lines


def unsaid(c: Answer) -> list[str]:
    """What a comparison could not say, one line each: files not checked, a checker's stop
    now, and one at the baseline that hid diagnostics (one that hid nothing changes no count:
    not said, as by the hooks); a part of the gate not compared there always (`why`): what
    it fixed is not known either, even where none of its errors now is hidden."""
    lines = [
        f"{u['path']}:{u['lines'][0]}: not checked: {u['why']}" for u in c.get("unchecked", [])
    ]
    lines += [stopped_line(s) for s in c.get("stopped", [])]
    baseline = c.get("baseline_stopped", [])
    hid = [s for s in baseline if s.get("why") or s.get("not_checked") or s.get("files")]
    return lines + [stopped_line(s, "baseline") for s in hid]


def stopped_line(s: Answer, state: str = "") -> str:
    """A checker stopped at syntax errors (`Changes.stopped`; in the `baseline` state:
    `baseline_stopped`), as one line; a part not made there (`why`), as its own."""
    if s.get("why"):
        files = ", ".join(s["files"]) + (", …" if len(s["files"]) >= 10 else "")
        unknown = f": {s['not_checked']} diagnostic(s) of {files} not known new" if files else ""
        return f"at the {state}, {s['checker']} were not compared ({s['why']}){unknown}"
    stopped = f"{s['checker']} stopped at {', '.join(s['at'])} and checked nothing else"
    if state:
        stopped = f"at the {state}, {stopped}"
    if not s.get("files"):
        return stopped
    files = ", ".join(s["files"]) + (", …" if len(s["files"]) >= 10 else "")
    if state:
        # unknown there, so not counted new: a change fixing the stop may have made them
        unknown = f"{s['not_checked']} diagnostic(s) of {files} not checked there"
        return f"{stopped}: {unknown} (not counted new: unknown there, maybe new)"
    unknown = f"{s['not_checked']} baseline diagnostic(s) of {files} not checked (not fixed)"
    return f"{stopped}: {unknown}"


def _code(d: Answer) -> str:
    return f" [{d['code']}]" if d.get("code") else ""


def _problem(d: Answer) -> str:
    return f"{d.get('path')}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{_code(d)}"


def _preview(r: Answer) -> str:
    return "\n".join(_changes(r["changes"], r))


def _edit_lines(r: Answer) -> list[str]:
    """What an edit would introduce and fix (or why that is unknown), then its diff: the
    text before the diff is skipped by `git apply` and `patch`, so the output applies."""
    check = r.get("check")
    lines = _changes(check) if check is not None else []
    lines += [f"note: {r['note']}"] if r.get("note") else []
    return [*lines, r["diff"].rstrip("\n")]


def _rename(r: Answer) -> str:
    files = r.get("files", [])
    head = (
        f"rename `{r['old_name']}` to `{r['new_name']}`: {r['edits']} edit(s) in "
        f"{r.get('total', 0)} file(s) (not applied; `git apply` the diff)"
    )
    following = r.get("next_offset")
    if following is not None:  # said before the diff: after it, `git apply` would read it
        head += f"\n… the diff of {len(files)} file(s); `--offset {following}` for the rest"
    return "\n".join([head, *_edit_lines(r)])


def _fixes(r: Answer) -> str:
    fixes = r.get("fixes", [])
    lines = [f"{r['path']}: {len(fixes)} fix(es) for {r['diagnostics']} problem(s) ({r['server']})"]
    for index, fix in enumerate(fixes, 1):
        d = fix.get("diagnostic")
        answers = f" for {r['path']}:{d['line']}:{d['column']}: {d['message']}" if d else ""
        preferred = " (preferred)" if fix.get("preferred") else ""
        lines += [f"fix {index}: {fix['title']}{preferred}{answers}", *_edit_lines(fix)]
    if r.get("next_offset") is not None:
        lines.append(
            f"{len(fixes)} of {r['total']} fixes shown; `--offset {r['next_offset']}` for the rest"
        )
    lines += [f"skipped: {s}" for s in r.get("skipped", [])]
    return "\n".join(lines)


def _diagnostics(r: Answer) -> str:
    if r.get("changes") is not None:
        return "\n".join(_changes(r["changes"], r))
    items, server = r.get("diagnostics", []), r["server"]
    if not items and " stopped at " in (r.get("checker") or ""):  # not checked: never clean
        return f"{r['path']}: none said ({server}): {r['checker']}"
    if not items and (r.get("checker") or "").endswith("did not check it"):  # never clean
        return f"{r['path']}: not checked ({server}): {r['checker'].rsplit('; ', 1)[-1]}"
    if not items:
        return f"{r['path']}: no errors or warnings ({server})"
    lines = [
        f"{r['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{_code(d)}"
        for d in items
    ]
    lines.append(f"{r['errors']} error(s), {r['warnings']} warning(s) ({server})")
    lines += [f"hint: {r['environment']}"] if r.get("environment") else []
    return "\n".join(lines + _more(r, len(items)))


def _workspace_diagnostics(r: Answer) -> str:
    if r.get("changes") is not None:
        return "\n".join(_changes(r["changes"], r))
    files = r.get("files", [])
    lines = [f"{c['path']}: {c['errors']} error(s), {c['warnings']} warning(s)" for c in files]
    lines += [
        f"{d.get('path')}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}"
        for d in r.get("diagnostics", [])
    ]
    with_problems = r.get("files_with_problems", 0)
    if len(files) < with_problems:
        lines.append(f"... {with_problems - len(files)} more file(s) with problems")
    lines += notes(r)
    lines += r.get("stopped", [])  # without it, the syntax errors read as the only errors
    lines.append(
        f"{r['files_checked']} file(s) checked: {r['errors']} error(s), {r['warnings']} warning(s)"
    )
    for scope in r.get("scope") or []:  # which configuration chose the files, per project
        chose = scope.get("config") or "no configuration"
        note = f" ({scope['note']})" if scope.get("note") else ""
        lines.append(f"scope: {scope['project']}: {chose}, {scope['files']} file(s){note}")
    if r.get("outside_gate"):
        lines.append(f"{r['outside_gate']} source file(s) no gate checks left out (--all)")
    following = r.get("next_offset")
    if following is not None:
        shown = f"diagnostics {r.get('offset', 0) + 1}-{following} of {r['total']}"
        lines.append(f"{shown}; `--offset {following}` for the rest (`lspd check` lists all)")
    return "\n".join(lines)


def notes(r: Answer) -> list[str]:
    """The files a workspace-wide answer left out, one line each (at most 10), and how to
    fix imports that did not resolve (once per interpreter)."""
    hints = [f"hint: {hint}" for hint in r.get("environment") or []]
    left = r.get("skipped") or []
    lines = [f"skipped {s['path']}: {s['reason']}" for s in left[:10]]
    if len(left) > 10:
        lines.append(f"... {len(left) - 10} more file(s) skipped (--json lists them)")
    return lines + hints


def _more(r: Answer, shown: int) -> list[str]:
    """The paging line: how many of how many, and the offset of the rest."""
    following = r.get("next_offset")
    if following is None:
        return []
    return [f"… {shown} of {r['total']} shown; `--offset {following}` for the rest"]


def _hover(r: Answer) -> str:
    where = f"{r['path']}:{r.get('line')}:{r.get('column')}: " if r.get("path") else ""
    return str(r.get("contents", "")).strip() if r.get("found", True) else f"{where}nothing to show"


def _locations(r: Answer) -> str:
    locations, outside = r.get("locations", []), r.get("outside") or []
    asked = r.get("asked")
    lines = [
        f"{loc['path']}:{loc['line']}:{loc['column']}: {loc['text']}"
        + (f"  [{loc['symbol']}]" if loc.get("symbol") else "")
        + ("  (asked)" if i == asked else "")
        for i, loc in enumerate(locations)
    ] or ["no location found"]
    lines += _uses(outside, "outside", "  (outside)")
    if r.get("outside_total"):
        lines.append(
            f"{r['outside_total']} use(s) of the name in files the gate does not check "
            "(`--all` asks about them)"
        )
    shown = max(len(locations), sum(len(f.get("references", [])) for f in outside))
    return "\n".join(lines + _more(r, shown))


def _references(r: Answer) -> str:
    files, unresolved = r.get("files", []), r.get("unresolved", [])
    outside = r.get("outside") or []
    lines = _uses(files, "reference(s)") + _uses(unresolved, "unresolved", "  (unresolved)")
    lines += _uses(outside, "outside", "  (outside)")
    lines.append(r.get("summary") or f"{r['total']} reference(s) in {len(files)} file(s)")
    groups = (files, unresolved, outside)
    shown = max(sum(len(f.get("references", [])) for f in group) for group in groups)
    return "\n".join(lines + _more(r, shown))


def _uses(files: list[Answer], counted: str, mark: str = "") -> list[str]:
    """One line per use of this page, `path: N counted` for a file with none on it."""
    lines: list[str] = []
    for f in files:
        uses = f.get("references", [])
        if not uses:
            lines.append(f"{f['path']}: {f['count']} {counted}")
        for ref in uses:
            where = f"  [{ref['symbol']}]" if ref.get("symbol") else ""
            lines.append(f"{f['path']}:{ref['line']}:{ref['column']}: {ref['text']}{where}{mark}")
    return lines


def _symbol_lines(symbols: list[Answer], indent: int = 0) -> list[str]:
    lines: list[str] = []
    for s in symbols:
        lines.append(f"{'  ' * indent}{s['kind']} {s['name_path']}  :{s['line']}:{s['column']}")
        lines += _symbol_lines(s.get("children", []), indent + 1)
    return lines


def _document_symbols(r: Answer) -> str:
    symbols = r.get("symbols", [])
    return "\n".join([r["path"], *_symbol_lines(symbols, 1), *_more(r, _count(symbols))])


def _count(symbols: list[Answer]) -> int:
    return sum(1 + _count(s.get("children", [])) for s in symbols)


def _workspace_symbols(r: Answer) -> str:
    symbols = r.get("symbols", [])
    if not symbols:
        return "no symbol matches"
    lines = [
        f"{s['kind']} {s['name_path']}  {s['path']}:{s['line']}:{s['column']}" for s in symbols
    ]
    return "\n".join(lines + _more(r, len(symbols)))


def _call_hierarchy(r: Answer) -> str:
    word = "called by" if r["direction"] == "incoming" else "calls"
    item, calls, unresolved = r["item"], r.get("calls", []), r.get("unresolved", [])
    outside = r.get("outside") or []
    lines = [f"{item['kind']} {item['symbol']} ({item['path']}:{item['line']}) {word}:"]
    for index, call in enumerate(calls + unresolved + outside):
        defined = f" (defined {call['defined']})" if call.get("defined") else ""
        mark = "" if index < len(calls) else "  (unresolved)"
        mark = "  (outside)" if index >= len(calls) + len(unresolved) else mark
        lines.append(
            f"  {call['kind']} {call['symbol']}{defined} at {call['path']}:{call['line']}:"
            f"{call['column']}: {call['text']}{mark}"
        )
    if not calls:
        lines.append("  nothing")
    if r.get("summary"):
        lines.append(r["summary"])
    return "\n".join(lines + _more(r, max(len(calls), len(unresolved), len(outside))))


def _status(r: Answer) -> str:
    """The daemon, then one line per server: its state, process, projects, toolchain, memory."""
    mode = ", restricted: no project code runs" if r.get("restricted") else ""
    lines = [
        f"lspd {r['version']} for {r['workspace']} (pid {r['pid']}, up {r['uptime_s']:.0f} s{mode})"
    ]
    if r.get("watch_problem"):
        lines.append(f"  watching: {r['watch_problem']}")
    elif r.get("watches") is not None:
        lines.append(f"  watching {r['watches']} directories")
    for s in r["servers"]:
        rss = s.get("rss_mb")
        projects = s.get("projects") or [s.get("project", ".")]
        lines.append(
            f"  {s['language']}: {s['server']} [{', '.join(projects)}] {s['state']} "
            f"pid={s['pid']} open={s.get('open_documents', 0)}"
            + (f" {rss:.0f} MB" if rss is not None else "")
        )
        if s.get("toolchain"):
            lines.append(f"    runs {s['toolchain']}")
        lines += [f"    {s[k]}" for k in ("busy", "restarted", "environment") if s.get(k)]
        if s.get("kept_for"):
            lines.append(f"    kept for {s['kept_for']}")
    lines += [f"  {a['path']}: {a['reason']}" for a in r.get("set_aside") or []]
    if not r["servers"]:
        lines.append("  no language server running (they start on first use)")
    return "\n".join(lines)


def _servers(r: Answer) -> str:
    """One line per server under its language; `*` marks the one answering the language."""
    lines = []
    for s in r["servers"]:
        language = s["language"] if s["selected"] else ""
        mark = "*" if s["selected"] else " "
        if s["found"]:
            state = f"found {s['version'] or '(version unknown)'}"
        else:
            state = f"missing ({s['missing']}); install: {s['install'] or 'see docs'}"
        runs = f"; runs {s['toolchain']}" if s.get("toolchain") else ""
        lines.append(f"{language:11} {mark} {s['server']:27} {state}{runs}")
    return "\n".join(lines)


_RENDERERS: dict[str, Callable[[Answer], str]] = {
    "DiagnosticsResult": _diagnostics,
    "WorkspaceDiagnosticsResult": _workspace_diagnostics,
    "HoverResult": _hover,
    "PreviewResult": _preview,
    "RenameResult": _rename,
    "FixesResult": _fixes,
    "LocationsResult": _locations,
    "ImplementationResult": _locations,
    "ReferencesResult": _references,
    "DocumentSymbolsResult": _document_symbols,
    "WorkspaceSymbolsResult": _workspace_symbols,
    "CallHierarchyResult": _call_hierarchy,
    "StatusResult": _status,
    "ServersResult": _servers,
}
