"""LSP answers to lspd's models: 1-based code-point positions, relative paths, source lines."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from lspd.lsp import shapes
from lspd.lsp.positions import Encoding, from_units, to_units
from lspd.lsp.text import split_lines, uri_to_path
from lspd.ops.models import Diagnostic, Location, Severity, Span
from lspd.workspace import Workspace

_SEVERITIES: dict[int, Severity] = {1: "error", 2: "warning"}
MAX_MESSAGE_CHARS = 2000  # of one diagnostic's message
# Every field's name: the set pydantic keeps per instance of the fields given to it (728
# bytes of a Diagnostic's 1,216), one set shared by the diagnostics converted. Nothing
# reads it (no `exclude_unset`); a field assigned later (`checked.stamp` sets `path`) adds
# a name already in it, and a copy takes a set of its own.
_FIELDS_SET = set(Diagnostic.model_fields)


class Converter:
    """Converts ranges of any file, reading each file's lines once per answer."""

    def __init__(self, ws: Workspace, encoding: Encoding) -> None:
        self.ws = ws
        self.encoding = encoding
        self._lines: dict[Path, list[str]] = {}

    def lines(self, path: Path) -> list[str]:
        """The file's lines: an open document's text, else the disk's."""
        cached = self._lines.get(path)
        if cached is not None:
            return cached
        document = self.ws.document(path)
        if document is not None:
            lines = document.lines
        else:
            try:
                lines = split_lines(path.read_text("utf-8-sig", errors="replace"))
            except OSError:
                lines = []
        self._lines[path] = lines
        return lines

    def line_text(self, path: Path, line: int) -> str:
        """One 0-based line of the file, empty past its end."""
        lines = self.lines(path)
        return lines[line] if 0 <= line < len(lines) else ""

    def column(self, path: Path, line: int, units: int) -> int:
        """The 1-based code-point column of an LSP character offset."""
        return from_units(self.line_text(path, line), units, self.encoding) + 1

    def point(self, path: Path, position: shapes.Position) -> tuple[int, int]:
        """An LSP position as a 1-based (line, code-point column).

        Past the end of the last line that has a line break, it is the end of the file,
        where tsc puts it: tsserver's open document (its ScriptVersionCache has no line
        after the last break) says the end of a file ending in one as the last line's
        length plus the break (`'}' expected` at 912:26 of a file of 912 lines whose last
        is 25 long; tsc: 913:1). Elsewhere a character past the end is the line's end (LSP).
        """
        line, units = position["line"], position["character"]
        lines = self.lines(path)
        last = line == len(lines) - 2 and lines[-1] == ""
        if last and units > to_units(lines[line], len(lines[line]), self.encoding):
            return line + 2, 1
        return line + 1, self.column(path, line, units)

    def span(self, path: Path, lsp_range: shapes.Range) -> Span:
        """An LSP range as a 1-based span."""
        line, column = self.point(path, lsp_range["start"])
        end_line, end_column = self.point(path, lsp_range["end"])
        return Span(line=line, column=column, end_line=end_line, end_column=end_column)

    def location(self, uri: str, lsp_range: shapes.Range) -> Location | None:
        """An LSP location with its source line; None for a URI that is not a file."""
        path = uri_to_path(uri)
        if path is None:
            return None
        span = self.span(path, lsp_range)
        return Location(
            path=self.ws.display(path),
            text=self.line_text(path, span.line - 1).strip(),
            **span.model_dump(),
        )

    def locations(self, result: shapes.Locations) -> list[Location]:
        """`Location | Location[] | LocationLink[] | null` to a list, duplicates dropped."""
        if result is None:
            return []
        items = result if isinstance(result, list) else [result]
        out: list[Location] = []
        seen: set[tuple[str, int, int]] = set()
        for item in items:
            if "targetUri" in item:  # a LocationLink: its name's range, else the whole
                target = item.get("targetSelectionRange") or item["targetRange"]
                location = self.location(item["targetUri"], target)
            else:
                location = self.location(item["uri"], item["range"])
            if location is None:
                continue
            key = (location.path, location.line, location.column)
            if key not in seen:
                seen.add(key)
                out.append(location)
        return out


def convert_items(convert: Converter, path: Path, raw: list[shapes.Diagnostic]) -> list[Diagnostic]:
    """The errors and warnings of a server's diagnostics (hints and information dropped)."""
    out: list[Diagnostic] = []
    for item in raw:
        severity = _SEVERITIES.get(item.get("severity") or 1)
        if severity is None:
            continue  # hints and information are not problems
        line, column = convert.point(path, item["range"]["start"])  # no Span made: 350,000
        end_line, end_column = convert.point(path, item["range"]["end"])  # on SQLAlchemy
        code, source = item.get("code"), item.get("source")
        # One string object per distinct text: a large check repeats its messages, codes and
        # source by the thousand (SQLAlchemy: 84,000 diagnostics, most of them kept).
        diagnostic = Diagnostic(
            severity=severity,
            message=sys.intern(_shorten(item.get("message", "").replace("\xa0", " "))),
            code=None if code is None else sys.intern(str(code)),
            source=None if source is None else sys.intern(source),
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
        )
        object.__setattr__(diagnostic, "__pydantic_fields_set__", _FIELDS_SET)
        out.append(diagnostic)
    return out


def _shorten(message: str) -> str:
    """A message quoting a huge identifier or type must not blow the answer's budget."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    cut = len(message) - MAX_MESSAGE_CHARS
    return f"{message[:MAX_MESSAGE_CHARS]}… ({cut} more characters)"


class HeldConverter(Converter):
    """Converts positions in texts never written (`texts`; the disk's for the other files)."""

    def __init__(self, ws: Workspace, encoding: Encoding, texts: Mapping[Path, str | None]) -> None:
        super().__init__(ws, encoding)
        self.texts = texts

    def lines(self, path: Path) -> list[str]:
        if path in self.texts:
            return split_lines(self.texts[path] or "")
        return super().lines(path)
