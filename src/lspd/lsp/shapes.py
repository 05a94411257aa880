"""The shapes of what lspd sends to language servers and reads from them, as TypedDicts.

Only the parts lspd uses, cheap at runtime (importing lsprotocol's types costs 0.4 s). The
fields lspd reads are checked in every answer by `lspd.lsp.answers` (a comment says where
a check is partial); a field the protocol leaves optional, or that lspd reads with a
default, is `NotRequired`. A `@final` shape can be told from its alternatives by a key
(`"targetUri" in item`).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict, final


class Position(TypedDict):
    """A zero-based line and character (in the session's position encoding)."""

    line: int
    character: int


class Range(TypedDict):
    """From `start` to `end` (exclusive)."""

    start: Position
    end: Position


class TextDocument(TypedDict):
    """A document named by its URI."""

    uri: str


class PositionParams(TypedDict):
    """`TextDocumentPositionParams`: what every position question sends."""

    textDocument: TextDocument
    position: Position


class ReferenceContext(TypedDict):
    """Whether `textDocument/references` lists the declaration too."""

    includeDeclaration: bool


class ReferenceParams(PositionParams):
    """What `textDocument/references` sends."""

    context: ReferenceContext


class DocumentParams(TypedDict):
    """What a whole-document question sends (`documentSymbol`, `diagnostic`)."""

    textDocument: TextDocument


class WorkspaceSymbolParams(TypedDict):
    """What `workspace/symbol` sends."""

    query: str


@final
class Location(TypedDict):
    """A range in a document."""

    uri: str
    range: Range


@final
class LocationLink(TypedDict):
    """A location as a link (servers that offer `linkSupport` may answer these)."""

    targetUri: str
    targetRange: Range  # checked and read when targetSelectionRange is left out
    targetSelectionRange: NotRequired[Range]


# `textDocument/definition` and its kin: one location, a list of either kind, or nothing.
Locations = Location | list[Location] | list[LocationLink] | None


class MarkupContent(TypedDict):
    """Markdown or plain text."""

    kind: str
    value: str


class LanguageString(TypedDict):
    """A code block of a `MarkedString` (deprecated, still sent)."""

    language: str
    value: str


MarkedString = str | LanguageString
HoverContents = MarkupContent | MarkedString | list[MarkedString]


class Hover(TypedDict):
    """A `textDocument/hover` answer."""

    contents: HoverContents  # checked to be text or one of the dicts or a list, not deeper
    range: NotRequired[Range]


@final
class DocumentSymbol(TypedDict):
    """A symbol of a document with its members (the hierarchical form)."""

    name: str
    kind: int
    range: Range
    selectionRange: Range
    detail: NotRequired[str]  # not checked
    children: NotRequired[list[DocumentSymbol]]


@final
class SymbolInformation(TypedDict):
    """A symbol of a document, flat (the older form)."""

    name: str
    kind: int
    location: Location
    containerName: NotRequired[str]  # not checked


class WorkspaceLocation(TypedDict):
    """Where a workspace symbol is."""

    uri: str
    range: NotRequired[Range]  # a `WorkspaceSymbol` may leave it to be resolved


class WorkspaceSymbol(TypedDict):
    """A `workspace/symbol` answer's item."""

    name: str
    kind: int
    location: WorkspaceLocation
    containerName: NotRequired[str]  # not checked


class CallHierarchyItem(TypedDict):
    """A function of a call hierarchy."""

    name: str
    kind: int
    uri: str
    range: Range
    selectionRange: Range
    detail: NotRequired[str]  # not checked


class CallHierarchyParams(TypedDict):
    """What `callHierarchy/incomingCalls` and `outgoingCalls` send."""

    item: CallHierarchyItem


# `from` is a keyword: the functional form.
IncomingCall = TypedDict("IncomingCall", {"from": CallHierarchyItem, "fromRanges": list[Range]})


class OutgoingCall(TypedDict):
    """A callee and the call sites in the caller."""

    to: CallHierarchyItem
    fromRanges: list[Range]


class Diagnostic(TypedDict):
    """A diagnostic as lspd reads it."""

    range: Range
    message: NotRequired[str]  # required by LSP; read as empty when a server leaves it out
    severity: NotRequired[int | None]  # 1 error, 2 warning, 3 information, 4 hint
    code: NotRequired[object]  # a number or a string; read as text whatever it is
    source: NotRequired[str | None]


class DiagnosticReport(TypedDict):
    """A `textDocument/diagnostic` answer (full or unchanged)."""

    kind: str
    items: NotRequired[list[Diagnostic]]
