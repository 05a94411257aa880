"""The uses of a name that the checker ties to no declaration: what `references` cannot see.

On dynamically typed code a type-based search misses the calls on receivers the checker
cannot type (`queryset.filter(q)` with `queryset` unannotated): measured on Django, 7 uses
of `.filter` resolve to `QuerySet.filter` and 82 resolve to nothing. So `references` (and
incoming `call_hierarchy`) add them, found in two steps:

1. `prepare` (`lspd.ops.candidates`), in a thread while the server answers the
   references: the gate's files of the server's language that may hold the name (the
   workspace's word index), each read and scanned for the name in code (`lspd.ops.uses`:
   never comments or strings, except Python's getattr/setattr/hasattr names). Over
   `MAX_CANDIDATES` places in their text the scan is not done, and the answer says so and why.
2. `confirm`: the server is asked the definition of every use found that is not already a
   reference (`lspd.ops.confirm`: concurrently, within a deadline).
   No definition: unresolved. A definition elsewhere: another symbol, left out. The symbol
   asked about: already a reference. A name as a getattr string is always unresolved.

The files are those the project's gate checks, as `lspd check` chooses them
(`lspd.workspace.scope`): a project's tests that its checker configuration leaves out are
not scanned, as they are not checked.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from lspd.errors import LspdError
from lspd.lsp import answers
from lspd.lsp.text import split_lines
from lspd.ops import confirm as confirming
from lspd.ops.candidates import Found, Prepared, name_at, prepare
from lspd.ops.confirm import definitions
from lspd.ops.convert import Converter
from lspd.ops.target import Target
from lspd.ops.uses import Use
from lspd.workspace import Workspace
from lspd.workspace.symbols.naming import Namer
from lspd.workspace.symbols.tree import flatten

MEMBER_KINDS = {"method", "property", "field", "constructor", "enumMember", "event"}
CLASS_KINDS = {"class", "interface", "struct", "enum", "object"}

Place = tuple[str, int, int]  # (path as shown, line, column)
_NOT_WANTED = "`unresolved: false` was sent"
_UNTIED = "the checker ties to no declaration"


@dataclass
class Scan:
    """What the scan found: the unresolved uses (unnamed yet), or why it was not done."""

    name: str
    member: bool = False
    uses: list[Place] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # each use's source line
    literals: int = 0  # of them, names in getattr/setattr/hasattr strings
    candidates: int | None = None
    resolved_elsewhere: int = 0
    unasked: int = 0  # uses the deadline left unasked
    skipped: str | None = None
    confirmed: list[tuple[Place, str]] = field(default_factory=list)  # tied to the symbol,
    # not among the server's references (a file outside its program, asked with `all`)
    outside: list[Place] = field(default_factory=list)  # uses in files the gate leaves out
    outside_texts: list[str] = field(default_factory=list)
    outside_skipped: str | None = None

    def page(self, offset: int, limit: int) -> list[tuple[Place, str]]:
        """The uses from `offset`, at most `limit`, each with its source line."""
        end = offset + limit
        return list(zip(self.uses[offset:end], self.texts[offset:end], strict=True))

    def outside_page(self, offset: int, limit: int) -> list[tuple[Place, str]]:
        """The uses outside the gate from `offset`, at most `limit`, with their lines."""
        end = offset + limit
        return list(zip(self.outside[offset:end], self.outside_texts[offset:end], strict=True))

    @property
    def shown(self) -> str:
        """The name as the answer writes it: `.filter` for a member."""
        return f".{self.name}" if self.member else self.name


async def confirm(
    ws: Workspace, target: Target, prepared: Prepared, known: set[Place], namer: Namer
) -> Scan:
    """The uses the server ties to no declaration, of those `prepare` found, leaving out
    `known` places (the references)."""
    name = prepared.name
    scan = Scan(name, candidates=prepared.candidates, skipped=prepared.skipped)
    if scan.skipped is not None and not prepared.outside:
        return scan  # (a name too common in the gate's files may still stand outside)
    session = target.session
    convert = Converter(ws, session.encoding)
    declared = convert.locations(await session.request(answers.DEFINITION, target.params()))
    asked = {(d.path, d.line) for d in declared}
    at = {(d.path, d.line, d.column) for d in declared}
    scan.member = _after_dot(target.document.lines[target.line - 1], target.column)
    for d in declared:
        full = Path(d.path) if d.path.startswith("/") else ws.root / d.path
        line_text = convert.line_text(full, d.line - 1)
        member = _after_dot(line_text, d.column) or await _is_member(namer, d.path, d.line, name)
        scan.member = scan.member or member
    _outside(ws, prepared, scan)
    if scan.skipped is not None:
        return scan
    by_file: dict[Path, list[Use]] = {}
    literal: list[Found] = []
    for item in prepared.found:
        use = item.use
        if scan.member and not use.member:
            continue  # a member is used after a dot: `filter(...)` alone is another name
        if use.keyword:
            continue  # `f(name=…)` names a parameter
        shown = ws.display(item.path)
        if (shown, use.line, use.column) in known or (shown, use.line, use.column) in at:
            continue
        if use.literal:
            literal.append(item)
        else:
            by_file.setdefault(item.path, []).append(use)
    server = session.definition.name
    answered = await definitions(ws, server, name, by_file, prepared.texts)
    scan.unasked = answered.unasked
    places: list[tuple[Place, str]] = []
    for (path, line, column), (defined, text) in answered.places.items():
        if not defined:
            places.append(((ws.display(path), line, column), text))
        elif not defined & asked:
            scan.resolved_elsewhere += 1
        else:  # the symbol's, in a file the server's search left out
            scan.confirmed.append(((ws.display(path), line, column), text))
    for item in literal:
        line_text = source_line(prepared.texts[item.path], item.use.line)
        places.append(((ws.display(item.path), item.use.line, item.use.column), line_text))
    places.sort()
    scan.uses = [place for place, _ in places]
    scan.texts = [text for _, text in places]
    scan.literals = len(literal)
    return scan


def _outside(ws: Workspace, prepared: Prepared, scan: Scan) -> None:
    """The uses found outside the gate that may be the symbol's, as the scan lists them."""
    scan.outside_skipped = prepared.outside_skipped
    places: list[tuple[Place, str]] = []
    for item in prepared.outside:
        use = item.use
        if (scan.member and not use.member) or use.keyword:
            continue
        line_text = source_line(prepared.outside_texts[item.path], use.line)
        places.append(((ws.display(item.path), use.line, use.column), line_text))
    places.sort()
    scan.outside = [place for place, _ in places]
    scan.outside_texts = [text for _, text in places]


async def _is_member(namer: Namer, shown: str, line: int, name: str) -> bool:
    """Whether the declaration at the place is a member of a class (a method, property,
    attribute): its uses then stand after a dot."""
    tree = await namer.tree(shown)
    if tree is None:
        return False
    nodes = flatten(tree)
    node = next((n for n in nodes if n.line == line and n.name == name), None)
    if node is None:  # `self.name = ...` is not a symbol of its own
        return False
    if node.kind in MEMBER_KINDS:
        return True
    container = node.name_path.rpartition(".")[0]
    return any(n.name_path == container and n.kind in CLASS_KINDS for n in nodes)


def _after_dot(line_text: str, column: int) -> bool:
    """Whether the name at the 1-based column of the line follows a dot (`.`, `->`, `::`)."""
    start = column - 1
    while start > 0 and (line_text[start - 1].isalnum() or line_text[start - 1] in "_$"):
        start -= 1
    before = line_text[:start].rstrip()
    return before.endswith((".", "->", "::"))


def source_line(text: str, line: int) -> str:
    lines = split_lines(text)
    return lines[line - 1].strip() if line <= len(lines) else ""


def start(
    ws: Workspace, target: Target, unresolved: bool, everywhere: bool = False
) -> asyncio.Task[Prepared] | None:
    """`prepare` as a task, to run while the server looks for the references: for the
    `unresolved` uses, and with `everywhere` for the uses outside the gate the server is
    asked about (those alone without `unresolved`); None when neither is wanted."""
    if not (unresolved or everywhere):
        return None
    return asyncio.create_task(prepare(ws, target, everywhere, unresolved))


async def finish(
    ws: Workspace,
    target: Target,
    task: asyncio.Task[Prepared] | None,
    known: set[Place],
    namer: Namer,
) -> Scan:
    """The started scan, confirmed (see `confirm`); why not, when it was not wanted."""
    if task is None:
        return Scan(name_at(target), skipped=_NOT_WANTED)
    try:
        prepared = await task
        scan = await confirm(ws, target, prepared, known, namer)
    except LspdError as exc:  # the references stand; say why the rest is not known
        return Scan(name_at(target), skipped=f"the scan failed: {exc}")
    if prepared.unresolved:
        return scan
    # `all` alone: the uses tied to the symbol join the answer, the others are not listed
    skipped = scan.skipped or _NOT_WANTED
    return replace(  # `unasked` stays: uses the deadline left may be the symbol's too
        scan, uses=[], texts=[], literals=0, candidates=None, resolved_elsewhere=0, skipped=skipped
    )


async def stop(task: asyncio.Task[Prepared] | None) -> None:
    """Cancel a started scan whose answer will not be asked for (the question failed)."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def plural(count: int, word: str) -> str:
    """`1 use`, `2 uses`: a count with its noun, as the one-line answers say it."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(head: str, scan: Scan) -> str:
    """The answer in one line: `head` (the references), then what the scan found, then
    what stands outside the gate's files."""
    return _inside(head, scan) + outside_phrase(scan)


def outside_phrase(scan: Scan) -> str:
    """`; 2 more uses of `.fetch` in 1 file the gate does not check (`outside` …)`."""
    if scan.outside_skipped is not None:
        return f"; uses in files the gate does not check not listed: {scan.outside_skipped}"
    if not scan.outside:
        return ""
    files = len({path for path, _, _ in scan.outside})
    count = f"{plural(len(scan.outside), 'more use')} of `{scan.shown}`"
    return (
        f"; {count} in {plural(files, 'file')} the gate does not check, not asked "
        "(`outside`; `all` asks about them)"
    )


def _inside(head: str, scan: Scan) -> str:
    shown = f"`{scan.shown}`"
    deadline = f"{confirming.DEADLINE_S:g} s"  # confirm's as it is now, the one it kept to
    if scan.skipped is not None:
        late = f"; {scan.unasked} other uses not asked within {deadline}, ask again"
        return f"{head}; uses the checker cannot resolve not looked for: {scan.skipped}" + (
            late if scan.unasked else ""
        )
    total = len(scan.uses)
    if scan.unasked:  # the deadline came first: say how much is missing
        found = f"{total} more {'use' if total == 1 else 'uses'} of {shown} (`unresolved`)"
        return (
            f"{head}; {found} so far: {scan.unasked} other uses were not asked within "
            f"{deadline}, ask again to go on"
        )
    if total:
        why = "whose receiver the checker cannot type" if scan.member else _UNTIED
        by_name = f", {scan.literals} by name in getattr/setattr/hasattr" if scan.literals else ""
        return f"{head}; {plural(total, 'more use')} of {shown} {why}{by_name} (`unresolved`)"
    if scan.resolved_elsewhere:
        others = plural(scan.resolved_elsewhere, "other use")
        return f"{head}; no `unresolved` use of {shown}: {others} resolve to other declarations"
    return f"{head}; no other use of {shown} in the checked files (no `unresolved`)"
