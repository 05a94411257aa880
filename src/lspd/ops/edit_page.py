"""An edit's answer within the budget: its files a page at a time, each file's diff whole,
and its check made once and kept between the pages.

A rename over many files is a long diff (SQLAlchemy's `warn_deprecated`: 49 edits in 27
files, ~30,000 characters), over the answer budget. So its files are paged like every list
(`budget.page`: `limit` and `offset` in; `total`, `truncated` and `next_offset` out): a
page holds the diff of whole files only, so each page applies on its own (`git apply`) and
all pages together are the whole edit. The check (what applying the whole edit would
introduce and fix: up to a minute on a large project) is made once: kept as
`changes_page` keeps comparisons, keyed on the edit's texts and the watcher's change count,
so the next page asks the server for the edit again (fractions of a second) and cuts it
from the kept check; any file changed in between makes the check anew. Without a watcher
nothing says other files are unchanged: nothing is kept.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel

from lspd.ops.budget import BUDGET_CHARS, Window, fitting, item_sizes, page, size
from lspd.ops.changes_page import Kept, kept
from lspd.ops.edit_models import FileEdits
from lspd.ops.models import Changes
from lspd.ops.workspace_edit import Check, Proposed, unchecked
from lspd.workspace import Workspace

CHECK_SHARE = BUDGET_CHARS // 4  # a page's room for the check's lists; the diff has the rest

M = TypeVar("M", bound=BaseModel)


async def kept_check(
    ws: Workspace, edit: Proposed, tag: str, make: Callable[[], Awaitable[Changes]]
) -> Check:
    """What applying `edit` would introduce and fix (`make`), made once per edit and state
    of the files: the next page of the same edit is cut from it. (A note instead when the
    edit is too large to check.)"""
    note = unchecked(edit)
    if note is not None:
        return None, note
    changes = ws.changes_seen
    key = None if changes is None else (tag, edit.key(), changes)

    async def compare() -> Kept:
        return Kept(await make(), len(edit.changes))

    return (await kept(ws, key, compare)).changes, None


def cut_check(check: Changes | None, note: str | None) -> Check:
    """The check within `CHECK_SHARE`: its introduced, then fixed diagnostics, then changed
    files, as many as fit; a note says how many of each when some are left out."""
    if check is None:
        return None, note
    room = CHECK_SHARE
    counts = []
    for items in (item_sizes(check.introduced), item_sizes(check.fixed)):
        listed = fitting(items, room)
        room -= sum(items[:listed]) + listed
        counts.append(listed)
    changed = fitting([len(json.dumps(p, ensure_ascii=False)) for p in check.changed], room)
    introduced, fixed = counts
    if (introduced, fixed, changed) == (
        len(check.introduced),
        len(check.fixed),
        len(check.changed),
    ):
        return check, note
    cut = check.model_copy(
        update={
            "introduced": check.introduced[:introduced],
            "fixed": check.fixed[:fixed],
            "fixed_total": max(check.fixed_total, len(check.fixed)),
            "changed": check.changed[:changed],
        }
    )
    said = (
        f"`check` lists {introduced} of {len(check.introduced)} introduced and {fixed} of "
        f"{len(check.fixed)} fixed diagnostics (the answer's size limit); `preview` the "
        "applied diff for all"
    )
    return cut, said if note is None else f"{note}; {said}"


def edit_page(
    ws: Workspace,
    edit: Proposed,
    offset: int,
    limit: int,
    build: Callable[[list[FileEdits], str, Window], M],
) -> M:
    """The answer `build` makes of a page of `edit`'s files (the most whose whole diffs fit
    the budget from `offset`, up to `limit`; at least one): their counts and their diff."""
    files = edit.files(ws)
    diffs = edit.diffs(ws)
    sizes = [
        size(f) + len(json.dumps(d, ensure_ascii=False)) - 2
        for f, d in zip(files, diffs, strict=True)
    ]

    def made(w: Window) -> M:
        return build(files[w.offset : w.end], "".join(diffs[w.offset : w.end]), w)

    return page(len(files), offset, limit, made, sizes=sizes)
