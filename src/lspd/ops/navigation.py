"""Position questions: hover, definition, type definition, implementation, references, calls."""

from __future__ import annotations

from typing import Any

from lspd.errors import InvalidInput
from lspd.lsp.capabilities import symbol_kind_name
from lspd.lsp.text import uri_to_path
from lspd.ops.budget import fit_calls, fit_references
from lspd.ops.checks import check_positive
from lspd.ops.convert import Converter
from lspd.ops.models import (
    Call,
    CallHierarchyResult,
    CallItem,
    Direction,
    FileReferences,
    HoverResult,
    Location,
    LocationsResult,
    ReferencesResult,
)
from lspd.ops.target import Target, resolve_target
from lspd.workspace import Workspace


async def _target(
    ws: Workspace, path: str | None, line: int | None, column: int | None, symbol: str | None
) -> Target:
    target = await resolve_target(ws, path, line, column, symbol)
    await ws.refresh_open_documents()
    return target


async def hover(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
) -> HoverResult:
    """The type, signature and docs at a position (or at the symbol named), as markdown."""
    target = await _target(ws, path, line, column, symbol)
    answer = await target.session.request("textDocument/hover", target.params())
    shown = ws.display(target.document.path)
    contents = _markdown(answer.get("contents")) if answer else ""
    span = None
    if answer and answer.get("range"):
        span = Converter(ws, target.session.encoding).span(target.document.path, answer["range"])
    return HoverResult(
        path=shown,
        line=target.line,
        column=target.column,
        found=bool(contents.strip()),
        contents=contents,
        range=span,
    )


def _markdown(contents: Any) -> str:
    if contents is None:
        return ""
    if isinstance(contents, str):
        return contents
    if isinstance(contents, list):
        return "\n\n".join(part for part in (_markdown(item) for item in contents) if part)
    if "kind" in contents:  # MarkupContent
        return str(contents.get("value", ""))
    if "language" in contents:  # MarkedString with a language
        return f"```{contents['language']}\n{contents.get('value', '')}\n```"
    return str(contents.get("value", ""))


async def _locations(
    method: str,
    capability: str,
    ws: Workspace,
    path: str | None,
    line: int | None,
    column: int | None,
    symbol: str | None,
    limit: int,
) -> LocationsResult:
    check_positive("limit", limit)
    target = await _target(ws, path, line, column, symbol)
    if not target.session.supports(capability):
        raise InvalidInput(
            f"{target.session.name} does not offer {method.split('/')[-1]}; "
            "try `definition` instead"
        )
    answer = await target.session.request(method, target.params())
    found = Converter(ws, target.session.encoding).locations(answer)
    return LocationsResult(locations=found[:limit], total=len(found), truncated=len(found) > limit)


async def definition(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
) -> LocationsResult:
    """Where the name at a position is defined."""
    return await _locations(
        "textDocument/definition", "definitionProvider", ws, path, line, column, symbol, limit
    )


async def type_definition(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
) -> LocationsResult:
    """Where the type of the name at a position is defined."""
    return await _locations(
        "textDocument/typeDefinition",
        "typeDefinitionProvider",
        ws,
        path,
        line,
        column,
        symbol,
        limit,
    )


async def implementation(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    limit: int = 50,
) -> LocationsResult:
    """The implementations of the interface or method at a position."""
    return await _locations(
        "textDocument/implementation",
        "implementationProvider",
        ws,
        path,
        line,
        column,
        symbol,
        limit,
    )


async def references(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    include_declaration: bool = True,
    limit: int = 200,
) -> ReferencesResult:
    """Every use of the name at a position, grouped by file, shortened to fit the budget."""
    check_positive("limit", limit)
    if not isinstance(include_declaration, bool):
        raise InvalidInput("`include_declaration` must be true or false")
    target = await _target(ws, path, line, column, symbol)
    answer = await target.session.request(
        "textDocument/references",
        target.params(context={"includeDeclaration": include_declaration}),
    )
    found = Converter(ws, target.session.encoding).locations(answer)
    found.sort(key=lambda loc: (loc.path.startswith("/"), loc.path, loc.line, loc.column))
    by_file: dict[str, list[Location]] = {}
    for location in found[:limit]:
        by_file.setdefault(location.path, []).append(location)
    files = [
        FileReferences(path=p, count=len(refs), references=refs) for p, refs in by_file.items()
    ]
    result = ReferencesResult(files=files, total=len(found), truncated=len(found) > limit)
    return fit_references(result, found)


async def call_hierarchy(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    direction: Direction = "incoming",
    limit: int = 100,
) -> CallHierarchyResult:
    """The callers (`incoming`) or callees (`outgoing`) of the function at a position."""
    check_positive("limit", limit)
    if direction not in ("incoming", "outgoing"):
        raise InvalidInput(f"`direction` must be 'incoming' or 'outgoing', not {direction!r}")
    target = await _target(ws, path, line, column, symbol)
    session = target.session
    if not session.supports("callHierarchyProvider"):
        raise InvalidInput(f"{session.name} does not offer a call hierarchy; try `references`")
    items = await session.request("textDocument/prepareCallHierarchy", target.params())
    if not items:
        return CallHierarchyResult(
            item=None, direction=direction, calls=[], total=0, truncated=False
        )
    convert = Converter(ws, session.encoding)
    root_item = items[0]
    calls_answer = (
        await session.request(f"callHierarchy/{direction}Calls", {"item": root_item}) or []
    )
    calls: list[Call] = []
    for call in calls_answer:
        other = call["from"] if direction == "incoming" else call["to"]
        sites_uri = other["uri"] if direction == "incoming" else root_item["uri"]
        sites = [convert.location(sites_uri, r) for r in call.get("fromRanges", [])]
        calls.append(
            Call(item=_call_item(convert, other), call_sites=[s for s in sites if s is not None])
        )
    result = CallHierarchyResult(
        item=_call_item(convert, root_item),
        direction=direction,
        calls=calls[:limit],
        total=len(calls),
        truncated=len(calls) > limit,
    )
    return fit_calls(result)


def _call_item(convert: Converter, item: dict[str, Any]) -> CallItem:
    path = uri_to_path(item["uri"])
    selection = item.get("selectionRange") or item["range"]
    start = selection["start"]
    line_text = convert.line_text(path, start["line"]) if path else ""
    return CallItem(
        name=item["name"],
        kind=symbol_kind_name(item.get("kind", 0)),
        detail=item.get("detail") or None,
        path=convert.ws.display(path) if path else item["uri"],
        line=start["line"] + 1,
        column=convert.column(path, start["line"], start["character"]) if path else 1,
        text=line_text.strip(),
    )
