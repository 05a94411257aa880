"""The lists a `references` answer pages: the server's references, the `unresolved` uses and
the uses `outside` the gate's files, each grouped by file with complete counts; and which of
them are calls, for `kind: "calls"`.

A call is the name followed by its arguments (`f(`, `obj.f (`, `f<T>(`, `` f`…` ``,
`f?.(`) or under `@` (a decorator): never a declaration (a symbol of the file's tree starts
there: `def f(`, a method `f(x) {`), an import, a re-export or a name handed on as a value.
The arguments may begin on a later line where the language goes on with the call there:
in TypeScript, JavaScript, C or Rust always (`f\n(x)`); in Python only where it joins the
lines (within brackets, after a backslash: its tokenizer says), in Go never (a name ending
a line ends the statement).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from pathlib import Path

from lspd.ops.convert import Converter
from lspd.ops.models import Location
from lspd.ops.navigation_models import FileReferences, Reference
from lspd.ops.unresolved import Place
from lspd.workspace.symbols.naming import Namer

Kind = str  # "all" or "calls"
KINDS = ("all", "calls")
_ARGUMENTS = re.compile(r"\s*(?:\?\.)?\s*(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?\s*[(`]")
_DECORATOR = re.compile(r"\s*@[\w.$\s]*$")
_PYTHON = (".py", ".pyi")
_LINE_ENDS_STATEMENT = (".go",)
_LINES_ON = 3  # lines after a name's own where its arguments may begin


def counts(paths: Iterable[str]) -> dict[str, int]:
    """How many places each file has, files in the order they come."""
    found: dict[str, int] = {}
    for path in paths:
        found[path] = found.get(path, 0) + 1
    return found


def by_file(
    counted: dict[str, int], places: list[Place], uses: list[Reference]
) -> list[FileReferences]:
    """Each file with its complete count and the uses of this page (`places` and `uses`
    in step; `uses` may run past the page)."""
    grouped: dict[str, list[Reference]] = {path: [] for path in counted}
    for (path, _, _), use in zip(places, uses, strict=False):
        grouped[path].append(use)
    return [FileReferences(path=p, count=counted[p], references=grouped[p]) for p in counted]


async def named(namer: Namer, items: list[tuple[Place, str]]) -> list[Reference]:
    """Each use with its source line, named by its enclosing symbol."""
    return [
        Reference(line=line, column=column, text=text, symbol=await namer.name(path, line, column))
        for (path, line, column), text in items
    ]


def located(place: Place, text: str, name: str) -> Location:
    """A use found by the scan as a location, its range the name."""
    path, line, column = place
    end = column + len(name)
    return Location(path=path, text=text, line=line, column=column, end_line=line, end_column=end)


class Calls:
    """Tells the calls among uses of `name` (see the module's docstring)."""

    def __init__(self, convert: Converter, namer: Namer, name: str) -> None:
        self.convert, self.namer, self.name = convert, namer, name
        self._python: dict[Path, set[tuple[int, int]]] = {}

    async def is_call(self, place: Place) -> bool:
        path, line, column = place
        full = Path(path) if path.startswith("/") else self.convert.ws.root / path
        text = self.convert.line_text(full, line - 1)
        before, after = text[: column - 1], text[column - 1 + len(self.name) :]
        if not (self._arguments(full, line, column, after) or _DECORATOR.fullmatch(before)):
            return False
        node = await self.namer.at(path, line, column)
        return node is None or (node.line, node.column) != (line, column)  # not declared here

    async def keep(self, places: list[Place]) -> set[Place]:
        """The places of `places` that are calls."""
        return {place for place in places if await self.is_call(place)}

    def _arguments(self, full: Path, line: int, column: int, after: str) -> bool:
        """Whether arguments follow the name: on its line (`after` it), or on the next
        lines where the language goes on with the call there."""
        if _ARGUMENTS.match(after):
            return True
        if full.suffix in _PYTHON:
            if full not in self._python:
                self._python[full] = _python_callees("\n".join(self.convert.lines(full)))
            return (line, column) in self._python[full]
        if full.suffix in _LINE_ENDS_STATEMENT:
            return False
        following = self.convert.lines(full)[line : line + _LINES_ON]
        return bool(_ARGUMENTS.match("\n".join([after, *following])))


def _python_callees(text: str) -> set[tuple[int, int]]:
    """The (line, 1-based column) of each name Python's tokenizer reads right before a `(`:
    lines apart only where Python joins them (comments and lines within brackets between)."""
    found: set[tuple[int, int]] = set()
    previous: tokenize.TokenInfo | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.NL, tokenize.COMMENT):
                continue
            if token.string == "(" and previous is not None and previous.type == tokenize.NAME:
                found.add((previous.start[0], previous.start[1] + 1))
            previous = token
    except (tokenize.TokenError, SyntaxError):
        pass  # a file Python cannot read to its end: the calls before that
    return found
