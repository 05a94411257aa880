"""The type aliases a hover names, unfolded one level: `auth: AuthTypes | None` says what
`AuthTypes` is, so an agent needs no second hover (at most 3, each cut to one line).

Only a name that may be an alias costs anything (issue 43: every hover had paid a lexical
scan of its file and a definition request per capitalized name, 6-100 ms on click). The file
asked about is read once per version for what it declares and imports: a name it declares
as a class or function is no alias, one it declares as an alias is read from its line, one
it imports is asked of the server once (a library's alias). A name it neither declares nor
imports is looked up in the workspace's symbol index; those answers are kept until the
watcher sees a file change.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from lspd.lsp import answers
from lspd.lsp.documents import Document
from lspd.ops.convert import Converter
from lspd.ops.resolve import find_nodes
from lspd.ops.target import Target
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import statement_end

MAX_ALIASES = 3
MAX_NAMES = 8  # names of a hover looked up, at most
WIDTH = 160  # characters of one alias's line
_CODE = re.compile(r"```\w*\n(.*?)```", re.S)
# Capitalized names not after a dot: an alias's name by convention. Not `V@invoke` (a type
# variable as pyright shows it).
_NAME = re.compile(r"(?<![\w$.])[A-Z][\w$]*(?![\w$@])")
_SPACE = re.compile(r"\s+")
_GOES_ON = re.compile(r"[=|&,]\s*\n|\n\s*[|&]")
_NOT_TYPES = {"None", "Any", "True", "False", "Self", "Literal", "Optional", "Union"}
_PYTHON = {"python"}
# The languages whose alias declarations `_alias` reads: elsewhere (C++ `using`, Go `type`)
# the lookups would cost every hover a definition request per name and find nothing, and
# the files they open change what the server answers next (clangd's definition moved from
# a header's declaration to the .cpp once a hover had opened it).
_READ = _PYTHON | {"typescript", "typescriptreact", "javascript", "javascriptreact"}
# What a file declares, by kind: `alias` (or a Python assignment, read by `_alias`), `type`
# (class, function, interface: never an alias), `import` (the name as an import binds it).
_DECLARED = {
    "python": re.compile(
        r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(?P<type>\w+)"
        r"|^[ \t]*(?:type[ \t]+)?(?P<alias>\w+)[ \t]*(?::[^=\n]*)?=(?!=)"
        r"|^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(?P<imports>\([^)]*\)|[^\n]*)",
        re.M,
    ),
    "script": re.compile(
        r"^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?"
        r"(?:(?P<alias_kw>type)|class|interface|enum|function\*?|namespace|const|let|var)"
        r"[ \t]+(?P<name>[\w$]+)"
        r"|^[ \t]*import[ \t]+(?:type[ \t]+)?(?P<imports>[^;'\"]*?)[ \t]*from\b",
        re.M,
    ),
}
_IMPORTED = re.compile(r"(?:[\w$]+[ \t]+as[ \t]+)?(?P<bound>[\w$]+)[ \t]*(?=[,)}\n]|$)")


@dataclass
class _Declared:
    """What one version of a file declares and imports, and the aliases found for names
    (None: no alias) while no file changed (`changes`: the watcher's count)."""

    text: str
    changes: int | None = None
    kinds: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # kind, line, column
    found: dict[str, str | None] = field(default_factory=dict)


MAX_FILES = 64  # files whose declarations are kept
_FILES: dict[str, _Declared] = {}  # by URI, the most recently asked last
_INDEXED: weakref.WeakKeyDictionary[Workspace, tuple[int, dict[str, str | None]]] = (
    weakref.WeakKeyDictionary()
)


async def unfolded(ws: Workspace, target: Target, contents: str) -> list[str]:
    """One line per type alias the hover's code names (`AuthTypes = Union[...]`)."""
    code = _CODE.search(contents)
    if code is None or target.document.language_id not in _READ:
        return []
    names = [n for n in dict.fromkeys(_NAME.findall(code.group(1))) if n not in _NOT_TYPES]
    if not names:
        return []
    declared = _declared(target.document, ws.changes_seen)
    found: list[str] = []
    for name in names[:MAX_NAMES]:
        if len(found) == MAX_ALIASES:
            break
        if name not in declared.found:
            declared.found[name] = await _unfold(ws, target, declared, name)
        alias = declared.found[name]
        if alias is not None:
            found.append(alias)
    return found


async def _unfold(ws: Workspace, target: Target, declared: _Declared, name: str) -> str | None:
    """The alias `name` stands for, as one line; None when it is none."""
    kind, line, column = declared.kinds.get(name, ("", 0, 0))
    if kind == "type":
        return None
    if kind == "alias":
        return _alias(target.document.lines, line, name)
    convert = Converter(ws, target.session.encoding)
    if kind == "import":  # declared elsewhere, maybe in a library: its server knows where
        at = Target(target.session, target.document, line, column)
        answer = await target.session.request(answers.DEFINITION, at.params())
        places = [(loc.path, loc.line) for loc in convert.locations(answer)]
        return _alias_at(ws, convert, places, name)
    changes = ws.changes_seen  # not named here: the workspace's declarations of the name
    kept = _INDEXED.get(ws)
    if changes is None or kept is None or kept[0] != changes:
        kept = (changes or 0, {})
        if changes is not None:
            _INDEXED[ws] = kept
    if name not in kept[1]:
        nodes = [n for n in await find_nodes(ws, name) if n.name == name]
        kept[1][name] = _alias_at(ws, convert, [(n.path, n.line) for n in nodes], name)
    return kept[1][name]


def _alias_at(
    ws: Workspace, convert: Converter, places: list[tuple[str, int]], name: str
) -> str | None:
    """The alias declared at the first of `places` (paths as shown)."""
    for shown, line in places[:1]:
        path = Path(shown) if shown.startswith("/") else ws.root / shown
        return _alias(convert.lines(path), line, name)
    return None


def _declared(document: Document, changes: int | None) -> _Declared:
    """What the document's text declares and imports, read once per version."""
    kept = _FILES.pop(document.uri, None)
    if kept is not None and kept.text is document.text:
        if changes is None or kept.changes != changes:  # a file changed: ask again
            kept.found.clear()
        kept.changes = changes
        _FILES[document.uri] = kept
        return kept
    text = document.text
    declared = _FILES[document.uri] = _Declared(text, changes)
    while len(_FILES) > MAX_FILES:
        del _FILES[next(iter(_FILES))]
    python = document.language_id in _PYTHON
    for match in _DECLARED["python" if python else "script"].finditer(text):
        imports = match.group("imports")
        if imports is not None:
            start = match.start("imports")
            for bound in _IMPORTED.finditer(imports):
                _add(declared, bound.group("bound"), "import", text, start + bound.start("bound"))
        elif python:
            kind = "type" if match.group("type") else "alias"
            _add(declared, match.group(kind), kind, text, match.start(kind))
        else:
            kind = "alias" if match.group("alias_kw") else "type"
            _add(declared, match.group("name"), kind, text, match.start("name"))
    return declared


def _add(declared: _Declared, name: str, kind: str, text: str, offset: int) -> None:
    """The first declaration of a name counts (a later `X = ...` rebinds a class `X`)."""
    if name not in declared.kinds and name not in ("as", "import"):
        line_start = text.rfind("\n", 0, offset) + 1
        line = text.count("\n", 0, offset) + 1
        declared.kinds[name] = (kind, line, offset - line_start + 1)


def _alias(lines: list[str], line: int, name: str) -> str | None:
    """The alias declared at a 1-based line, as one line; None when it declares no alias
    (a class, a function, an import)."""
    if not 0 < line <= len(lines):
        return None
    first = re.escape(name)
    start = lines[line - 1].lstrip()
    typescript = re.match(rf"(?:export\s+)?(?:declare\s+)?type\s+{first}\b", start)
    python = re.match(rf"(?:type\s+)?{first}\s*(?::\s*(?:\w+\.)?TypeAlias\s*)?=", start)
    if typescript is None and python is None:
        return None
    end = statement_end(lines, line)
    while end < len(lines) and _GOES_ON.search(lines[end - 1] + "\n" + lines[end]):
        end = statement_end(lines, end + 1)  # `type A =` then `| B` lines
    whole = " ".join(lines[line - 1 : end])
    one = _SPACE.sub(" ", whole).strip().rstrip(";").replace("= | ", "= ")
    one = re.sub(r"([(\[{<]) ", r"\1", re.sub(r",? ([)\]}>])", r"\1", one))
    return one if len(one) <= WIDTH else one[: WIDTH - 1] + "…"
