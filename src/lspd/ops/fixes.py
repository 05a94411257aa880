"""The fixes a language server knows for the errors at a place, as checked diffs, never applied.

For each error or warning there (the whole file without a line) the server is asked for its
quick fixes; `source` asks for the file's source actions instead (organize imports, add all
missing imports, ...). A fix is an edit, a lazy edit (`codeAction/resolve`), or a command
whose only effect is an edit the server sends back (captured by `lspd.lsp.edits`, never
applied). A command that may do more (install a package, run a tool) is never run.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lspd.errors import InvalidInput, ServerError
from lspd.lsp import answers, shapes
from lspd.lsp.documents import Document
from lspd.lsp.edits import EDIT_ONLY_COMMANDS, SOURCE_COMMANDS
from lspd.lsp.positions import to_units
from lspd.lsp.session import Session
from lspd.ops import workspace_edit
from lspd.ops.arguments import check_flag, check_int
from lspd.ops.budget import Window, check_paging, item_sizes, page
from lspd.ops.convert import Converter, convert_items
from lspd.ops.edit_models import Fix, FixesResult
from lspd.ops.edit_page import kept_check
from lspd.ops.models import Changes
from lspd.ops.target import check_position
from lspd.workspace import Workspace

MAX_DIAGNOSTICS = 20  # asked about in one call
# tsserver's commands beside a quick fix's edit: they run the fix's tsserver commands
# (installing @types packages), never needed for the edit itself.
_TSSERVER_EXTRAS = {"_typescript.applyCodeActionCommand", "_typescript.applyFixAllCodeAction"}


@dataclass(frozen=True)
class _Offer:
    """A code action the server offered, and the diagnostic it answers."""

    action: dict[str, Any]
    diagnostic: shapes.Diagnostic | None


@dataclass(frozen=True)
class _Found:
    """An offer, its edit, and a note of what lspd did not run."""

    offer: _Offer
    edit: workspace_edit.Proposed
    note: str | None


async def fixes(
    ws: Workspace,
    path: str,
    line: int | None = None,
    column: int | None = None,
    source: bool = False,
    limit: int = 10,
    offset: int = 0,
) -> FixesResult:
    """The server's quick fixes for the errors and warnings at `line` (and `column`), or of
    the whole file; with `source`, its source actions. Each as a diff with its check, a
    page at a time (each check costs a `preview`)."""
    check_flag("source", source)
    check_paging(offset, limit)
    if column is not None and line is None:
        raise InvalidInput("send `line` with `column`, or neither (the whole file)")
    await ws.refresh_open_documents(catch_up=True)
    session, document = await ws.open(path)
    shown = ws.display(document.path)
    if line is not None:
        check_int("line", line)
        if column is not None:
            check_int("column", column)
        check_position(document, shown, line, column or 1)
    if not session.supports(answers.CODE_ACTIONS.provider or ""):
        raise InvalidInput(f"{session.name} offers no fixes (code actions)")
    raw = await session.diagnostics(document, ws.diagnostics_timeout)
    here = _at(session, document, raw, line, column)
    if source:
        offers = [_Offer(a, None) for a in await _source_actions(session, document, line)]
    else:
        offers = await _quick_fixes(session, document, here)
    found, skipped = await _found(ws, session, _unique(offers))
    check_paging(offset, limit, len(found))

    def build(made: list[Fix], w: Window) -> FixesResult:
        return FixesResult(
            path=shown,
            server=session.name,
            diagnostics=len(here),
            fixes=made,
            skipped=skipped if w.offset == 0 else [],
            **w.paging,
        )

    return await _page(ws, session, document, found, offset, limit, build)


def _at(
    session: Session,
    document: Document,
    raw: list[shapes.Diagnostic],
    line: int | None,
    column: int | None,
) -> list[shapes.Diagnostic]:
    """The errors and warnings touching the line (and column), errors first, by position."""
    here = []
    for item in raw:
        if (item.get("severity") or 1) > 2:
            continue  # hints and information are not problems
        start, end = item["range"]["start"], item["range"]["end"]
        if line is not None:
            asked = line - 1
            if not start["line"] <= asked <= end["line"]:
                continue
            if column is not None:
                units = to_units(document.lines[asked], column - 1, session.encoding)
                first, last = (start["line"], start["character"]), (end["line"], end["character"])
                if not first <= (asked, units) <= last:
                    continue
        here.append(item)
    here.sort(key=lambda d: ((d.get("severity") or 1) != 1, d["range"]["start"]["line"]))
    return here


async def _quick_fixes(
    session: Session, document: Document, here: list[shapes.Diagnostic]
) -> list[_Offer]:
    offers = []
    for diagnostic in here[:MAX_DIAGNOSTICS]:
        context = {"diagnostics": [diagnostic], "only": ["quickfix"]}
        actions = await _actions(session, document, diagnostic["range"], context)
        actions.sort(key=lambda a: not a.get("isPreferred"))
        offers += [_Offer(a, _answered(a, diagnostic, here)) for a in actions]
    return offers


async def _source_actions(
    session: Session, document: Document, line: int | None
) -> list[dict[str, Any]]:
    lines = document.lines
    first, last = (0, len(lines) - 1) if line is None else (line - 1, line - 1)
    span = {
        "start": {"line": first, "character": 0},
        "end": {"line": last, "character": len(lines[last])},
    }
    only = ["source", "source.organizeImports", "source.fixAll"]  # some match kinds exactly
    actions = await _actions(session, document, span, {"diagnostics": [], "only": only})
    offered = {a.get("kind") for a in actions}
    for title, kind, command in SOURCE_COMMANDS.get(session.name, []):
        if kind not in offered:
            run = {"title": title, "command": command, "arguments": [document.uri]}
            actions.append({"title": title, "kind": kind, "command": run})
    return actions


async def _actions(
    session: Session, document: Document, span: Any, context: dict[str, Any]
) -> list[dict[str, Any]]:
    """The actions of the kinds asked for (`only`'s first): servers add others (tsserver
    answers a source request with quick fixes of diagnostics it was computing)."""
    params = {"textDocument": {"uri": document.uri}, "range": span, "context": context}
    answer = await session.request(answers.CODE_ACTIONS, params)
    wanted = context["only"][0]
    return [
        a
        for a in answer or []
        if isinstance(a, dict)
        and isinstance(a.get("title"), str)
        and str(a.get("kind") or "quickfix").split(".")[0] == wanted
    ]


def _answered(
    action: dict[str, Any], asked: shapes.Diagnostic, here: list[shapes.Diagnostic]
) -> shapes.Diagnostic:
    """The diagnostic an action answers: the one it names, else one whose code its title
    names (basedpyright answers every diagnostic overlapping the range asked about), else
    the one asked about."""
    for listed in action.get("diagnostics") or []:
        for item in here:
            if item["range"] == listed.get("range") and item.get("message") == listed.get(
                "message"
            ):
                return item
    for item in here:
        code = str(item.get("code") or "")
        if len(code) > 3 and code in action["title"]:
            return item
    return asked


def _unique(offers: list[_Offer]) -> list[_Offer]:
    """Each action once (asked about two diagnostics, a server offers it twice)."""
    seen: dict[str, _Offer] = {}
    for offer in offers:
        action = offer.action
        key = json.dumps([action["title"], action.get("edit"), action.get("kind")], sort_keys=True)
        seen.setdefault(key, offer)
    return list(seen.values())


async def _found(
    ws: Workspace, session: Session, offers: list[_Offer]
) -> tuple[list[_Found], list[str]]:
    """The offers with their edits, and those skipped (no edit, and why).

    Every edit is taken before any is checked: a check holds other text in the server for a
    moment (the document's next versions), and an edit is for the version it was made for."""
    found: list[_Found] = []
    skipped: list[str] = []
    for offer in offers:
        title = offer.action["title"]
        try:
            edits, note = await _edits(session, offer.action)
            edit = workspace_edit.proposed(ws, session, edits)
        except InvalidInput as exc:
            if workspace_edit.STALE in str(exc):
                raise
            skipped.append(f"{title}: {exc}")
            continue
        if edit.changes:  # (an action with nothing to change here is no fix)
            found.append(_Found(offer, edit, note))
    return found, skipped


async def _page(
    ws: Workspace,
    session: Session,
    document: Document,
    found: list[_Found],
    offset: int,
    limit: int,
    build: Callable[[list[Fix], Window], FixesResult],
) -> FixesResult:
    """A page of the fixes from `offset`: as many as fit the budget, up to `limit`, each
    with its check. The page is cut first without the checks (each costs a `preview`), the
    checks are made for that page only (kept: asked again, a page makes none anew), and the
    page is cut again with them."""
    convert = Converter(ws, session.encoding)

    def fix(one: _Found) -> Fix:
        answered = one.offer.diagnostic
        return Fix(
            title=one.offer.action["title"],
            kind=one.offer.action.get("kind"),
            preferred=bool(one.offer.action.get("isPreferred")),
            diagnostic=None
            if answered is None
            else convert_items(convert, document.path, [answered])[0],
            diff=one.edit.diff(ws),
            files=one.edit.files(ws),
            note=one.note,
        )

    unchecked = [fix(one) for one in found]
    sizes = item_sizes(unchecked)
    dry = page(
        len(found), offset, limit, lambda w: build(unchecked[w.offset : w.end], w), sizes=sizes
    )
    checked = []
    for one, made in zip(found[offset:], dry.fixes, strict=False):
        check, why = await kept_check(ws, one.edit, "fix", functools.partial(_check, ws, one.edit))
        checked.append(made.model_copy(update={"check": check, "note": one.note or why}))
    if not checked:
        return dry
    return page(
        len(found),
        offset,
        limit,
        lambda w: build(checked[: w.count], w),
        maximum=len(checked),
    )


async def _check(ws: Workspace, edit: workspace_edit.Proposed) -> Changes:
    check, note = await workspace_edit.check(ws, edit)
    assert check is not None, note  # (`kept_check` asked `unchecked` first)
    return check


async def _edits(
    session: Session, action: dict[str, Any]
) -> tuple[list[dict[str, Any]], str | None]:
    """The `WorkspaceEdit`s of a code action (or command), and a note of what lspd did not run."""
    if isinstance(action.get("command"), str):  # a bare Command
        action = {"title": action["title"], "command": action}
    if action.get("disabled"):
        reason = (action["disabled"] or {}).get("reason", "")
        raise InvalidInput(f"the server says it does not apply here ({reason})")
    if action.get("edit") is None and _resolves(session):
        action = await session.request(answers.RESOLVE_CODE_ACTION, action) or action
    edits = [action["edit"]] if action.get("edit") else []
    command = action.get("command")
    if not isinstance(command, dict):
        return edits, None
    name = str(command.get("command", ""))
    if name in EDIT_ONLY_COMMANDS:
        return edits + await _captured(session, command), None
    if name in _TSSERVER_EXTRAS and edits:
        extra = ((command.get("arguments") or [{}])[0] or {}).get("action", {}).get("commands")
        return edits, (f"the server would also run {extra}: lspd does not" if extra else None)
    if edits:
        return edits, f"the server would also run its command `{name}`: lspd does not"
    raise InvalidInput(f"it runs the server's command `{name}`, which lspd never runs")


def _resolves(session: Session) -> bool:
    provider = session.capabilities.get("codeActionProvider")
    return isinstance(provider, dict) and bool(provider.get("resolveProvider"))


async def _captured(session: Session, command: dict[str, Any]) -> list[dict[str, Any]]:
    """The edits an edit-only command sends back, captured (the server is told they were not
    applied: some then answer the command with an error, which says nothing more)."""
    params = {"command": command["command"], "arguments": command.get("arguments") or []}
    async with session.registrations.edits.listening() as edits:
        try:
            await session.request("workspace/executeCommand", params)
        except ServerError as exc:
            if type(exc) is not ServerError:  # crashed, timed out: said as it is
                raise
            if not edits:
                raise InvalidInput(f"its command gave no edit ({exc})") from None
    return list(edits)
