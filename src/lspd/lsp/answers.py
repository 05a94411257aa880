"""The shapes lspd reads from servers, checked where they enter.

A server's answer is JSON: lspd reads ranges, positions, URIs and names out of it. A server
that sends something else (a bug, a version that changed a field) must give an error that
names the server and the request, not a `KeyError` deep in an operation. `check` looks at
the parts lspd uses, cheaply (no lsprotocol: importing its types costs 0.4 s); the
TypedDicts of `lspd.lsp.shapes` say what those parts are.

Each request lspd reads is declared once, as a `Method`: its name, the type of its answer
and the check of that answer's shape, the server capability that offers it, and what lspd
tells servers it can do with it (`lspd.lsp.capabilities` reads that). `session.request(HOVER,
params)` is a `Hover | None` that has been checked, so mypy checks the fields an operation
reads. A method sent by name (a string) answers `Any`, checked all the same.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, cast

from typing_extensions import TypeVar

from lspd.errors import ServerError
from lspd.lsp.shapes import (
    CallHierarchyItem,
    CallHierarchyParams,
    Diagnostic,
    DiagnosticReport,
    DocumentParams,
    DocumentSymbol,
    Hover,
    IncomingCall,
    Location,
    Locations,
    OutgoingCall,
    PositionParams,
    ReferenceParams,
    SymbolInformation,
    WorkspaceSymbol,
    WorkspaceSymbolParams,
)

# What a request sends and what it answers; `Any` for a method named by a plain string.
P = TypeVar("P", default=Any)
T = TypeVar("T", default=Any)


class Method(Generic[P, T]):
    """An LSP method whose request sends `P` and whose answer, once `shape` has checked
    it, is a `T`. `provider`: the server capability saying the server answers it (None:
    every server does, or it is not asked of the server). `client`: the `textDocument`
    client capability lspd declares for it, as (key, value)."""

    def __init__(
        self,
        name: str,
        shape: Callable[[Any, str], None],
        provider: str | None = None,
        client: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        self.name = name
        self.shape = shape
        self.provider = provider
        self.client = client
        _DECLARED.append(self)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Method({self.name!r})"


_DECLARED: list[Method[Any, Any]] = []

# What a session sends: a `Method`, answered with its type, or a method's name, with `Any`.
Request = Method[P, T] | str


class Malformed(ValueError):
    """An answer whose shape is not what its method returns; the message says where."""


def checked(server: str, method: Method[Any, T] | str, answer: Any, log: Path) -> T:
    """`answer`, or a `ServerError` naming the server, the request and what is wrong."""
    try:
        check(method, answer)
    except Malformed as exc:
        raise ServerError(
            server,
            f"language server {server} answered {method} with a malformed result ({exc}); "
            f"this is the server's fault: try again, or see its log {log}",
        ) from None
    return cast(T, answer)


def check(method: Method[Any, Any] | str, answer: Any) -> None:
    """Raise `Malformed` when `answer` is not the shape `method` returns (the parts lspd
    reads); methods lspd does not read structurally pass."""
    shape = method.shape if isinstance(method, Method) else _SHAPES.get(method)
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
    _diagnostics(value.get("items", []), f"{where}.items")


def _diagnostics(value: Any, where: str) -> None:
    for index, item in enumerate(_list(value, where)):
        here = f"{where}[{index}]"
        if not isinstance(item, dict):
            raise Malformed(f"{here} is not a diagnostic")
        _range(item.get("range"), f"{here}.range")
        severity = item.get("severity")
        if severity is not None and (isinstance(severity, bool) or not isinstance(severity, int)):
            raise Malformed(f"{here}.severity is {severity!r}, not a severity number")
        message, source = item.get("message", ""), item.get("source")
        if not isinstance(message, str) or not isinstance(source, str | None):
            wrong = "message" if not isinstance(message, str) else "source"
            raise Malformed(f"{here}.{wrong} is {str(item[wrong])[:40]!r}, not text")


_LINKS = {"linkSupport": True}
_KINDS = {"valueSet": list(range(1, 27))}  # SymbolKind 1..26 (`capabilities.SYMBOL_KINDS`)

HOVER = Method[PositionParams, Hover | None](
    "textDocument/hover",
    _hover,
    "hoverProvider",
    ("hover", {"contentFormat": ["markdown", "plaintext"]}),
)
DEFINITION = Method[PositionParams, Locations](
    "textDocument/definition", _locations, "definitionProvider", ("definition", _LINKS)
)
TYPE_DEFINITION = Method[PositionParams, Locations](
    "textDocument/typeDefinition",
    _locations,
    "typeDefinitionProvider",
    ("typeDefinition", _LINKS),
)
IMPLEMENTATION = Method[PositionParams, Locations](
    "textDocument/implementation",
    _locations,
    "implementationProvider",
    ("implementation", _LINKS),
)
REFERENCES = Method[ReferenceParams, list[Location] | None](
    "textDocument/references", _locations, "referencesProvider", ("references", {})
)
DOCUMENT_SYMBOLS = Method[DocumentParams, list[DocumentSymbol] | list[SymbolInformation] | None](
    "textDocument/documentSymbol",
    _document_symbols,
    "documentSymbolProvider",
    ("documentSymbol", {"hierarchicalDocumentSymbolSupport": True, "symbolKind": _KINDS}),
)
WORKSPACE_SYMBOLS = Method[WorkspaceSymbolParams, list[WorkspaceSymbol] | None](
    "workspace/symbol", _workspace_symbols, "workspaceSymbolProvider"
)
PREPARE_CALL_HIERARCHY = Method[PositionParams, list[CallHierarchyItem] | None](
    "textDocument/prepareCallHierarchy",
    _call_items,
    "callHierarchyProvider",
    ("callHierarchy", {}),
)
INCOMING_CALLS = Method[CallHierarchyParams, list[IncomingCall] | None](
    "callHierarchy/incomingCalls", _calls("from"), "callHierarchyProvider"
)
OUTGOING_CALLS = Method[CallHierarchyParams, list[OutgoingCall] | None](
    "callHierarchy/outgoingCalls", _calls("to"), "callHierarchyProvider"
)
# basedpyright offers pull diagnostics only to a client that can register them.
PULL_DIAGNOSTICS = Method[DocumentParams, DiagnosticReport | None](
    "textDocument/diagnostic",
    _diagnostic_report,
    "diagnosticProvider",
    ("diagnostic", {"dynamicRegistration": True, "relatedDocumentSupport": False}),
)


def _read_where_used(value: Any, where: str) -> None:
    """No check here: the operation reads these answers field by field, defensively
    (`lspd.ops.rename`, `lspd.ops.fixes`), and says what it could not use."""


# The code action kinds lspd asks for: quick fixes and source actions (organize imports).
CODE_ACTION_KINDS = ["quickfix", "source", "source.organizeImports", "source.fixAll"]

PREPARE_RENAME = Method[PositionParams, Any](
    "textDocument/prepareRename", _read_where_used, "renameProvider"
)
RENAME = Method[Any, Any](
    "textDocument/rename", _read_where_used, "renameProvider", ("rename", {"prepareSupport": True})
)
CODE_ACTIONS = Method[Any, Any](
    "textDocument/codeAction",
    _read_where_used,
    "codeActionProvider",
    (
        "codeAction",
        {
            # Literal code actions (else tsserver sends commands only), lazy edits
            # resolved by `codeAction/resolve`.
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": CODE_ACTION_KINDS}},
            "isPreferredSupport": True,
            "disabledSupport": True,
            "dataSupport": True,
            "resolveSupport": {"properties": ["edit"]},
        },
    ),
)
RESOLVE_CODE_ACTION = Method[Any, Any]("codeAction/resolve", _read_where_used)

_SHAPES = {method.name: method.shape for method in _DECLARED}
"""The shape of each request by its name, for a request sent by name."""

# Not a request: the diagnostics a session gives, pushed, pulled or from tsserver.
DIAGNOSTICS = Method[None, list[Diagnostic]]("textDocument/publishDiagnostics", _diagnostics)

CLIENT = dict(method.client for method in _DECLARED if method.client is not None)
"""What lspd tells servers it can do with the requests it sends (`textDocument` capabilities)."""
