"""Renames as checked diffs: the language server's own edit, proven, never applied.

The server is asked first whether the name can be renamed (`prepareRename`: a keyword, a
literal, a builtin or a library's symbol cannot, and the server says why), then for the
edit. The answer is one unified diff for every file, and what applying it would introduce
and fix (`preview`'s comparison): the agent applies it, lspd writes nothing.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from lspd.errors import InvalidInput, ServerError
from lspd.lsp import answers
from lspd.lsp.positions import from_units
from lspd.lsp.session import Session
from lspd.ops import workspace_edit
from lspd.ops.budget import MAX_LIMIT, Window, check_paging
from lspd.ops.candidates import name_at  # the name under (or just before) the column
from lspd.ops.edit_models import FileEdits, RenameResult
from lspd.ops.edit_page import cut_check, edit_page, kept_check
from lspd.ops.identifiers import check_identifier
from lspd.ops.models import Changes
from lspd.ops.target import Target, resolve_target
from lspd.workspace import Workspace


async def rename(
    ws: Workspace,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    symbol: str | None = None,
    *,
    new_name: str,
    limit: int = MAX_LIMIT,
    offset: int = 0,
) -> RenameResult:
    """The server's rename of the name at a position (or of `symbol`) to `new_name`, as one
    diff of the files it changes (a page of them: `edit_page`), and what applying the whole
    rename would introduce and fix (made once: the next page's costs no second check)."""
    check_paging(offset, limit)
    old, edit, where = await renamed(ws, path, line, column, symbol, new_name=new_name)
    check_paging(offset, limit, len(edit.changes))

    async def make() -> Changes:
        check, note = await checked(ws, edit, old, new_name)
        assert check is not None, note  # (`kept_check` asked `unchecked` first)
        return check

    check, note = cut_check(*await kept_check(ws, edit, f"rename {old}", make))
    edits = sum(c.edits for c in edit.changes)

    def build(files: list[FileEdits], diff: str, w: Window) -> RenameResult:
        paged = w.count < w.total  # this diff is a part: said so, beside `check` and in it
        return RenameResult(
            partial=partial(w, old, new_name, where) if paged else None,
            old_name=old,
            new_name=new_name,
            diff=diff,
            files=files,
            edits=edits,
            check=whole_scope(check, w.total) if paged else check,
            note=note,
            **w.paging,
        )

    return edit_page(ws, edit, offset, limit, build)


async def renamed(
    ws: Workspace,
    path: str | None,
    line: int | None,
    column: int | None,
    symbol: str | None,
    *,
    new_name: str,
) -> tuple[str, workspace_edit.Proposed, str]:
    """The name renamed, the server's edit, unchecked (bench/rename.py times it alone), and
    the place renamed as the CLI takes it (`PATH:LINE:COLUMN`)."""
    await ws.refresh_open_documents(catch_up=True)
    target = await resolve_target(ws, path, line, column, symbol)
    session = target.session
    check_identifier(new_name, target.document.language_id)
    if not session.supports(answers.RENAME.provider or ""):
        raise InvalidInput(f"{session.name} does not rename; nothing to ask it")
    where = f"{ws.display(target.document.path)}:{target.line}:{target.column}"
    old = await _prepared(session, target, where)
    if old == new_name:
        raise InvalidInput(f"`{old}` is already called {new_name!r}; send another `new_name`")
    params = {**target.params(), "newName": new_name}
    answer = await _asked(session, answers.RENAME, params, where)
    if not answer:
        raise InvalidInput(f"{session.name} has no rename for `{old}` at {where}")
    edit = workspace_edit.proposed(ws, session, [answer], old)
    if not edit.changes:
        raise InvalidInput(f"{session.name}'s rename of `{old}` at {where} changes nothing")
    return old, edit, where


def partial(w: Window, old: str, new: str, where: str) -> str:
    """What a page that is not the whole rename says before its diff: applied alone, it is
    half a rename (httpx's MockTransport: its first page, 4 of 13 files, then leaves mypy
    107 errors), and how to get the rest or the whole."""
    rest = w.total - w.count
    files = f"file {w.offset + 1}" if w.count == 1 else f"files {w.offset + 1}-{w.end}"
    pages = (
        f"send `offset` {w.next_offset}, then each `next_offset` until there is none"
        if w.offset == 0
        else "send `offset` 0, then each `next_offset` until there is none"
    )
    return (
        f"`diff` holds only {files} of the rename's {w.total}: applied alone it is half a "
        f"rename ({rest} file(s) still name `{old}`), whose errors `check` (the whole "
        f"rename's) does not list. Apply it only together with every other page ({pages}), "
        f"or get the whole diff as one answer: `lspd rename {shlex.quote(where)} {new} "
        "--json` from the root (the CLI joins the pages)"
    )


def whole_scope(check: Changes | None, files: int) -> Changes | None:
    """The check of a paged rename, its scope saying it is the whole rename's, not the
    page's (made once for all pages: `kept_check`)."""
    if check is None:
        return None
    scope = f"the whole rename: all {files} files, every page's diff applied; {check.scope}"
    return check.model_copy(update={"scope": scope})


async def checked(
    ws: Workspace, edit: workspace_edit.Proposed, old: str, new_name: str
) -> workspace_edit.Check:
    """What applying the rename of `old` would introduce and fix (and a note when it is not
    checked), as `preview` has it: of the files the engine would check again after such an
    edit (the builder's, the importers of a file whose declarations change), those naming
    the old or the new name; a file that only imports a module the edit touched cannot gain
    an error from it (SQLAlchemy's warn_deprecated: 220 such files made the check 350 s)."""
    check, note = await workspace_edit.check(ws, edit, naming=True)
    if check is not None:
        check = _renamed_messages(check, old, new_name)
    return check, note


def _renamed_messages(changes: Changes, old: str, new: str) -> Changes:
    """A diagnostic whose message names the renamed symbol is the same one after the rename
    (`... in function "make_cart"` becomes `... "new_cart"`): neither introduced nor fixed."""
    name = re.compile(rf"(?<![\w$]){re.escape(old)}(?![\w$])")
    fixed = list(changes.fixed)
    introduced = []
    for new_one in changes.introduced:
        twin = next(
            (
                gone
                for gone in fixed
                if (gone.path, gone.code, gone.severity)
                == (new_one.path, new_one.code, new_one.severity)
                and name.sub(new, gone.message) == new_one.message
            ),
            None,
        )
        if twin is None:
            introduced.append(new_one)
        else:
            fixed.remove(twin)
    matched = len(changes.introduced) - len(introduced)
    update = {
        "introduced": introduced,
        "fixed": fixed,
        "fixed_total": max(0, changes.fixed_total - matched),
        "unchanged": changes.unchanged + matched,
    }
    return changes.model_copy(update=update)


async def _prepared(session: Session, target: Target, where: str) -> str:
    """The name the rename replaces, once the server agrees it can be renamed."""
    provider = session.capabilities.get("renameProvider")
    if not (isinstance(provider, dict) and provider.get("prepareProvider")):
        return name_at(target)
    answer = await _asked(session, answers.PREPARE_RENAME, target.params(), where)
    if not answer:
        raise InvalidInput(
            f"{where} cannot be renamed: {session.name} finds nothing to rename there (a "
            "keyword, a literal, a builtin or a library's symbol); send the position of a "
            "name the workspace declares"
        )
    if "start" in answer:  # a Range
        return _text_at(session, target, answer) or name_at(target)
    if "range" in answer:  # {range, placeholder}
        return _text_at(session, target, answer["range"]) or name_at(target)
    return name_at(target)  # {defaultBehavior}: the word at the position


async def _asked(
    session: Session, method: answers.Method[Any, Any], params: Any, where: str
) -> Any:
    """The server's answer; its refusal (an error reply) as the reason the rename cannot be."""
    try:
        return await session.request(method, params)
    except ServerError as exc:
        if type(exc) is not ServerError:  # crashed, timed out, missing: said as it is
            raise
        reason = str(exc).split(": ", 1)[-1]
        reason = reason.removeprefix(f"Request {method} failed with message: ")  # tsserver's
        raise InvalidInput(f"{where} cannot be renamed: {session.name} says {reason!r}") from None


def _text_at(session: Session, target: Target, lsp_range: Any) -> str:
    """The text of a one-line range of the target's document."""
    start, end = lsp_range.get("start") or {}, lsp_range.get("end") or {}
    line = start.get("line")
    lines = target.document.lines
    if not isinstance(line, int) or line != end.get("line") or not 0 <= line < len(lines):
        return ""
    text = lines[line]
    first = from_units(text, int(start.get("character", 0)), session.encoding)
    last = from_units(text, int(end.get("character", 0)), session.encoding)
    return text[first:last]
