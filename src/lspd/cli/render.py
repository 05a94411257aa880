"""Readable text for each result; `--json` prints the model itself instead."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from lspd.ops import models as m
from lspd.ops import state_models as st


def render(result: BaseModel) -> str:
    renderer = _RENDERERS.get(type(result))
    return renderer(result) if renderer else result.model_dump_json(indent=2)


def _truncation(total: int, shown: int, truncated: bool) -> list[str]:
    return [f"… {shown} of {total} shown (raise --limit for more)"] if truncated else []


def _changes(c: m.Changes | None) -> list[str]:
    """What a change introduced (in full) and a one-line summary."""
    if c is None:
        return []
    lines = [f"new: {_problem(d)}" for d in c.introduced]
    lines.append(
        f"{len(c.introduced)} new since {c.baseline}, {len(c.fixed)} fixed, {c.unchanged} "
        f"unchanged ({c.scope})"
    )
    return lines


def _problem(d: m.Diagnostic) -> str:
    code = f" [{d.code}]" if d.code else ""
    return f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message}{code}"


def _preview(r: m.PreviewResult) -> str:
    lines = [_problem(d) for d in r.diagnostics]
    if r.truncated:
        lines.append("… more diagnostics of the proposed files (see `files` in --json)")
    return "\n".join(lines + _changes(r.changes))


def _diagnostics(r: m.DiagnosticsResult) -> str:
    if not r.diagnostics:
        return "\n".join([f"{r.path}: no errors or warnings ({r.server})", *_changes(r.changes)])
    lines = [
        f"{r.path}:{d.line}:{d.column}: {d.severity}: {d.message}"
        + (f" [{d.code}]" if d.code else "")
        for d in r.diagnostics
    ]
    lines.append(f"{r.errors} error(s), {r.warnings} warning(s) ({r.server})")
    lines += _truncation(r.total, len(r.diagnostics), r.truncated)
    return "\n".join(lines + _changes(r.changes))


def _workspace_diagnostics(r: m.WorkspaceDiagnosticsResult) -> str:
    lines = [f"{c.path}: {c.errors} error(s), {c.warnings} warning(s)" for c in r.files]
    lines += [
        f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message}"
        for d in r.diagnostics
        if isinstance(d, m.FileDiagnostic)
    ]
    if len(r.files) < r.files_with_problems:
        lines.append(f"... {r.files_with_problems - len(r.files)} more file(s) with problems")
    lines.append(f"{r.files_checked} file(s) checked: {r.errors} error(s), {r.warnings} warning(s)")
    if r.next_offset is not None:
        shown = f"diagnostics {r.offset + 1}-{r.next_offset} of {r.total}"
        lines.append(f"{shown}; the rest: --offset {r.next_offset}, or `lspd check` for all")
    return "\n".join(lines + _changes(r.changes))


def _more(r: m.Paged, shown: int) -> list[str]:
    """The paging line: how many of how many, and the offset of the rest."""
    if r.next_offset is None:
        return []
    return [f"… {shown} of {r.total} shown; the rest: --offset {r.next_offset}"]


def _hover(r: m.HoverResult) -> str:
    where = f"{r.path}:{r.line}:{r.column}: " if r.path else ""
    return r.contents.strip() if r.found else f"{where}nothing to show"


def _locations(r: m.LocationsResult) -> str:
    if not r.locations:
        return "no location found"
    lines = [
        f"{loc.path}:{loc.line}:{loc.column}: {loc.text}"
        + (f"  [{loc.symbol}]" if loc.symbol else "")
        + ("  (asked)" if i == r.asked else "")
        for i, loc in enumerate(r.locations)
    ]
    return "\n".join(lines + _more(r, len(r.locations)))


def _references(r: m.ReferencesResult) -> str:
    lines: list[str] = []
    for f in r.files:
        if not f.references:
            lines.append(f"{f.path}: {f.count} reference(s)")
        for ref in f.references:
            where = f"  [{ref.symbol}]" if ref.symbol else ""
            lines.append(f"{f.path}:{ref.line}:{ref.column}: {ref.text}{where}")
    shown = sum(len(f.references) for f in r.files)
    lines.append(f"{r.total} reference(s) in {len(r.files)} file(s)")
    return "\n".join(lines + _more(r, shown))


def _symbol_lines(symbols: list[m.Symbol], indent: int = 0) -> list[str]:
    lines: list[str] = []
    for s in symbols:
        lines.append(f"{'  ' * indent}{s.kind} {s.name_path}  :{s.line}:{s.column}")
        lines += _symbol_lines(s.children, indent + 1)
    return lines


def _document_symbols(r: m.DocumentSymbolsResult) -> str:
    shown = _count(r.symbols)
    return "\n".join([r.path, *_symbol_lines(r.symbols, 1), *_more(r, shown)])


def _count(symbols: list[m.Symbol]) -> int:
    return sum(1 + _count(s.children) for s in symbols)


def _workspace_symbols(r: m.WorkspaceSymbolsResult) -> str:
    if not r.symbols:
        return "no symbol matches"
    lines = [f"{s.kind} {s.name_path}  {s.path}:{s.line}:{s.column}" for s in r.symbols]
    return "\n".join(lines + _more(r, len(r.symbols)))


def _call_hierarchy(r: m.CallHierarchyResult) -> str:
    word = "called by" if r.direction == "incoming" else "calls"
    lines = [f"{r.item.kind} {r.item.symbol} ({r.item.path}:{r.item.line}) {word}:"]
    for call in r.calls:
        defined = f" (defined {call.defined})" if call.defined else ""
        lines.append(
            f"  {call.kind} {call.symbol}{defined} at {call.path}:{call.line}:{call.column}: "
            f"{call.text}"
        )
    if not r.calls:
        lines.append("  nothing")
    return "\n".join(lines + _more(r, len(r.calls)))


def _status(r: st.StatusResult) -> str:
    lines = [f"lspd {r.version} for {r.workspace} (pid {r.pid}, up {r.uptime_s:.0f} s)"]
    for s in r.servers:
        lines.append(
            f"  {s.language}: {s.server} [{s.project}] {s.state} pid={s.pid} "
            f"open={s.open_documents}" + (f" {s.rss_mb:.0f} MB" if s.rss_mb is not None else "")
        )
    if not r.servers:
        lines.append("  no language server running")
    return "\n".join(lines)


def _servers(r: st.ServersResult) -> str:
    """One line per server under its language; `*` marks the one answering the language."""
    lines = []
    for s in r.servers:
        language = s.language if s.selected else ""
        mark = "*" if s.selected else " "
        if s.found:
            state = f"found {s.version or '(version unknown)'}"
        else:
            state = f"missing ({s.missing}); install: {s.install or 'see docs'}"
        runs = f"; runs {s.toolchain}" if s.toolchain else ""
        lines.append(f"{language:11} {mark} {s.server:27} {state}{runs}")
    return "\n".join(lines)


_RENDERERS: dict[type[BaseModel], Callable[..., str]] = {
    m.DiagnosticsResult: _diagnostics,
    m.WorkspaceDiagnosticsResult: _workspace_diagnostics,
    m.HoverResult: _hover,
    m.PreviewResult: _preview,
    m.LocationsResult: _locations,
    m.ReferencesResult: _references,
    m.DocumentSymbolsResult: _document_symbols,
    m.WorkspaceSymbolsResult: _workspace_symbols,
    m.CallHierarchyResult: _call_hierarchy,
    st.StatusResult: _status,
    st.ServersResult: _servers,
}
