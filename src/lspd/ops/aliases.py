"""The type aliases a hover names, unfolded one level: `auth: AuthTypes | None` says what
`AuthTypes` is, so an agent needs no second hover (at most 3, each cut to one line)."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.lsp import answers
from lspd.ops.convert import Converter
from lspd.ops.resolve import find_nodes
from lspd.ops.target import Target
from lspd.ops.uses import dialect_for, find_uses
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import statement_end

MAX_ALIASES = 3
MAX_NAMES = 8  # names of a hover looked up, at most (a definition request each)
WIDTH = 160  # characters of one alias's line
_CODE = re.compile(r"```\w*\n(.*?)```", re.S)
# Capitalized names not after a dot: an alias's name by convention; looking up every name
# of a signature would cost a definition request each.
_NAME = re.compile(r"(?<![\w$.])[A-Z][\w$]*")
_SPACE = re.compile(r"\s+")
_GOES_ON = re.compile(r"[=|&,]\s*\n|\n\s*[|&]")
_NOT_TYPES = {"None", "Any", "True", "False", "Self", "Literal", "Optional", "Union"}
# The languages whose alias declarations `_alias` reads: elsewhere (C++ `using`, Go `type`)
# the lookups would cost every hover a definition request per name and find nothing, and
# the files they open change what the server answers next (clangd's definition moved from
# a header's declaration to the .cpp once a hover had opened it).
_READ = {"python", "typescript", "typescriptreact", "javascript", "javascriptreact"}


async def unfolded(ws: Workspace, target: Target, contents: str) -> list[str]:
    """One line per type alias the hover's code names (`AuthTypes = Union[...]`), each
    found from the name's first use in the file asked about, else by the workspace's index."""
    code = _CODE.search(contents)
    dialect = dialect_for(target.document.language_id)
    if code is None or dialect is None or target.document.language_id not in _READ:
        return []
    text = "\n".join(target.document.lines)
    names = [n for n in dict.fromkeys(_NAME.findall(code.group(1))) if n not in _NOT_TYPES]
    convert = Converter(ws, target.session.encoding)
    found: list[str] = []
    for name in names[:MAX_NAMES]:
        if len(found) == MAX_ALIASES:
            break
        uses = [u for u in find_uses(text, name, dialect) if not u.member]
        if uses:
            at = Target(target.session, target.document, uses[0].line, uses[0].column)
            answer = await target.session.request(answers.DEFINITION, at.params())
            places = [(loc.path, loc.line) for loc in convert.locations(answer)[:1]]
        else:  # not named in this file: the workspace's declarations of the name
            places = [(n.path, n.line) for n in await find_nodes(ws, name) if n.name == name]
        for shown, line in places[:1]:
            path = Path(shown) if shown.startswith("/") else ws.root / shown
            alias = _alias(convert.lines(path), line, name)
            if alias is not None:
                found.append(alias)
    return found


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
