"""The shapes lspd reads from servers, checked where they enter.

A server's answer is JSON: lspd reads ranges, positions, URIs and names out of it. A server
that sends something else (a bug, a version that changed a field) must give an error that
names the server and the request, not a `KeyError` deep in an operation. `check` looks at
the parts lspd uses, cheaply (no lsprotocol: importing its types costs 0.4 s); the
TypedDicts say what those parts are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from lspd.errors import ServerError


class Position(TypedDict):
    line: int
    character: int


class Range(TypedDict):
    start: Position
    end: Position


class Location(TypedDict):
    uri: str
    range: Range


class LocationLink(TypedDict):
    targetUri: str
    targetRange: Range
    targetSelectionRange: Range


class CallHierarchyItem(TypedDict):
    name: str
    kind: int
    uri: str
    range: Range
    selectionRange: Range


class Malformed(ValueError):
    """An answer whose shape is not what its method returns; the message says where."""


def checked(server: str, method: str, answer: Any, log: Path) -> Any:
    """`answer`, or a `ServerError` naming the server, the request and what is wrong."""
    try:
        check(method, answer)
    except Malformed as exc:
        raise ServerError(
            server,
            f"language server {server} answered {method} with a malformed result ({exc}); "
            f"this is the server's fault: try again, or see its log {log}",
        ) from None
    return answer


def check(method: str, answer: Any) -> None:
    """Raise `Malformed` when `answer` is not the shape `method` returns (the parts lspd
    reads); methods lspd does not read structurally pass."""
    shape = _SHAPES.get(method)
    if shape is not None and answer is not None:
        shape(answer, "result")


def _position(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise Malformed(f"{where} is not a position")
    for key in ("line", "character"):
        item = value.get(key)
        if isinstance(item, bool) or not isinstance(item, int) or item < 0:
            raise Malformed(f"{where}.{key} is {item!r}, not a line or character number")


def _range(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise Malformed(f"{where} is not a range")
    _position(value.get("start"), f"{where}.start")
    _position(value.get("end"), f"{where}.end")


def _uri(value: Any, where: str) -> None:
    if not isinstance(value, str) or ":" not in value:
        raise Malformed(f"{where} is {str(value)[:40]!r}, not a URI")


def _location(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise Malformed(f"{where} is not a location")
    if "targetUri" in value:  # a LocationLink
        _uri(value["targetUri"], f"{where}.targetUri")
        _range(value.get("targetSelectionRange", value.get("targetRange")), f"{where}.targetRange")
        return
    _uri(value.get("uri"), f"{where}.uri")
    _range(value.get("range"), f"{where}.range")


def _locations(value: Any, where: str) -> None:
    for index, item in enumerate(value if isinstance(value, list) else [value]):
        _location(item, f"{where}[{index}]")


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Malformed(f"{where} is not a list")
    return value


def _named(value: Any, where: str) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise Malformed(f"{where} has no name")
    if isinstance(value.get("kind"), bool) or not isinstance(value.get("kind"), int):
        raise Malformed(f"{where}.kind is {value.get('kind')!r}, not a symbol kind")


def _document_symbols(value: Any, where: str) -> None:
    for index, item in enumerate(_list(value, where)):
        _named(item, f"{where}[{index}]")
        if "location" in item:  # SymbolInformation
            _location(item["location"], f"{where}[{index}].location")
        else:  # DocumentSymbol
            _range(item.get("range"), f"{where}[{index}].range")
            _range(item.get("selectionRange"), f"{where}[{index}].selectionRange")
            _document_symbols(item.get("children") or [], f"{where}[{index}].children")


def _workspace_symbols(value: Any, where: str) -> None:
    for index, item in enumerate(_list(value, where)):
        _named(item, f"{where}[{index}]")
        location = item.get("location")
        if not isinstance(location, dict):
            raise Malformed(f"{where}[{index}].location is not a location")
        _uri(location.get("uri"), f"{where}[{index}].location.uri")
        if "range" in location:  # a WorkspaceSymbol may leave the range to be resolved
            _range(location["range"], f"{where}[{index}].location.range")


def _call_items(value: Any, where: str) -> None:
    for index, item in enumerate(_list(value, where)):
        _call_item(item, f"{where}[{index}]")


def _call_item(value: Any, where: str) -> None:
    _named(value, where)
    _uri(value.get("uri"), f"{where}.uri")
    _range(value.get("range"), f"{where}.range")
    _range(value.get("selectionRange"), f"{where}.selectionRange")


def _calls(end: str) -> Any:
    def check_calls(value: Any, where: str) -> None:
        for index, call in enumerate(_list(value, where)):
            if not isinstance(call, dict):
                raise Malformed(f"{where}[{index}] is not a call")
            _call_item(call.get(end), f"{where}[{index}].{end}")
            for site, site_range in enumerate(
                _list(call.get("fromRanges"), f"{where}[{index}].fromRanges")
            ):
                _range(site_range, f"{where}[{index}].fromRanges[{site}]")

    return check_calls


def _hover(value: Any, where: str) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("contents"), str | dict | list):
        raise Malformed(f"{where}.contents is not markdown or marked strings")


def _diagnostic_report(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise Malformed(f"{where} is not a diagnostic report")
    for index, item in enumerate(_list(value.get("items", []), f"{where}.items")):
        if not isinstance(item, dict):
            raise Malformed(f"{where}.items[{index}] is not a diagnostic")
        _range(item.get("range"), f"{where}.items[{index}].range")


_SHAPES = {
    "textDocument/hover": _hover,
    "textDocument/definition": _locations,
    "textDocument/typeDefinition": _locations,
    "textDocument/implementation": _locations,
    "textDocument/references": _locations,
    "textDocument/documentSymbol": _document_symbols,
    "workspace/symbol": _workspace_symbols,
    "textDocument/prepareCallHierarchy": _call_items,
    "callHierarchy/incomingCalls": _calls("from"),
    "callHierarchy/outgoingCalls": _calls("to"),
    "textDocument/diagnostic": _diagnostic_report,
}
