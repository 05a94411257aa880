"""The CLI's text output follows `next_offset` itself, until it has what `--limit` asks for.

An MCP answer is one page: the answer budget keeps it small for a model's context, and
`next_offset` says where the rest starts. A person at a terminal who asks for
`--limit 500` wants 500 lines, so the text output fetches page after page and merges them
into one answer before rendering it. `--json` stays the MCP payload: one page, and
`--offset` asks for the next; except a rename's, whose diff is applied whole, and a preview's,
whose introduced errors are a proof's (as `check --baseline --json`'s): their `--json` joins
every page unless `--offset` or `--limit` asks for one. A rename's pages are whole
files, so their diffs joined are the whole diff: `lspd rename ... > x.patch` (or `--json |
jq -r .diff`) writes a patch of every file (up to `--limit`), and the joined answer drops
the pages' `partial` warning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]


def follow(fetch: Callable[[Answer], Answer], given: Answer, default_limit: int) -> Answer:
    """Pages from `given`'s offset merged into one answer holding up to its `limit` items."""
    limit = int(given.get("limit", default_limit))
    offset = int(given.get("offset", 0))
    merged: Answer | None = None
    fetched = 0
    while True:
        page = fetch({**given, "offset": offset, "limit": limit - fetched})
        merged = page if merged is None else _merge(merged, page)
        following = page.get("next_offset")
        if following is None:
            return merged
        fetched += following - offset
        offset = following
        if fetched >= limit:
            return merged


def joined(pages: list[Answer]) -> Answer:
    """Pages merged in order into one answer (the last one's paging fields)."""
    merged = pages[0]
    for page in pages[1:]:
        merged = _merge(merged, page)
    return merged


def _merge(merged: Answer, page: Answer) -> Answer:
    """`merged` with the next page's items appended; paging fields from the page."""
    if isinstance(merged.get("changes"), dict) and isinstance(page.get("changes"), dict):
        return _merge_changes(merged, page)
    out = dict(merged)
    for key, value in page.items():
        if key == "diff":  # a rename's pages: whole files each, so their diffs concatenate
            out[key] = merged.get(key, "") + value
        if not isinstance(value, list):
            continue
        if key == "files" and any("references" in f for f in value):
            out[key] = _merge_files(merged.get(key, []), value)
        elif key == "files" and any("edits" in f for f in value):  # a rename's, per page
            out[key] = [*merged.get(key, []), *value]
        elif key == "symbols":
            out[key] = _merge_symbols(merged.get(key, []), value)
        elif key != "files":  # workspace diagnostics' file counts are complete on every page
            out[key] = [*merged.get(key, []), *value]
    return _paging_from(out, page)


def _merge_changes(merged: Answer, page: Answer) -> Answer:
    """Pages against a baseline are of `changes.introduced` alone (`fixed` on the first):
    every other list (`scope`, `skipped`, the per-file counts) is whole on each page, so it
    is taken once, not repeated page by page."""
    before, more = merged["changes"], page["changes"].get("introduced", [])
    changes = {**before, "introduced": [*before.get("introduced", []), *more]}
    return _paging_from({**merged, "changes": changes}, page)


def _paging_from(out: Answer, page: Answer) -> Answer:
    """`out` with the page's paging fields (none when the page is the last)."""
    for key in ("truncated", "next_offset"):
        out.pop(key, None)
        if key in page:
            out[key] = page[key]
    if "next_offset" not in out:  # from the first page on: the diff is now the whole edit's
        out.pop("partial", None)
    return out


def _merge_files(files: list[Answer], more: list[Answer]) -> list[Answer]:
    """References grouped by file: a file's next references appended to its group."""
    by_path = {f["path"]: {**f, "references": list(f.get("references", []))} for f in files}
    for f in more:
        group = by_path.setdefault(f["path"], {**f, "references": []})
        group["references"] += f.get("references", [])
    return list(by_path.values())


def _merge_symbols(symbols: list[Answer], more: list[Answer]) -> list[Answer]:
    """A symbol tree continued: a page that begins inside a class nests under it."""
    out = [dict(s) for s in symbols]
    for symbol in more:
        _place(out, symbol)
    return out


def _place(level: list[Answer], symbol: Answer) -> None:
    last = level[-1] if level else None
    if last is not None and symbol["name_path"].startswith(last["name_path"] + "."):
        children = last["children"] = list(last.get("children", []))
        _place(children, symbol)
    else:
        level.append(symbol)
