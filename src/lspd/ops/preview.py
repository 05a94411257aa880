"""Previewing a change before writing it: several files at once, new and deleted ones too."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from lspd.engine.config_parts import same_settings
from lspd.engine.configured import manifest_held
from lspd.engine.dependents import files_naming
from lspd.engine.revisions import is_configuration, program_data
from lspd.errors import InvalidInput, LspdError
from lspd.ops.budget import MAX_LIMIT, check_paging
from lspd.ops.changes_page import Kept, Key, kept, preview_cut
from lspd.ops.models import FileDiagnosticCounts, PreviewResult
from lspd.ops.overlaid_check import proposal_compared
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES, read_text
from lspd.workspace.mypy_mirror import MARKS
from lspd.workspace.pyright_baseline import is_baseline
from lspd.workspace.question import began
from lspd.workspace.scope import GateScope, gate_scope

MAX_CHANGES = 50  # files in one preview


async def preview(
    ws: Workspace, changes: list[dict[str, str | None]], limit: int = MAX_LIMIT, offset: int = 0
) -> PreviewResult:
    """What the change would introduce and fix in the proposed files and in the files the
    check would re-check for it, against the disk as it is (the disk is its baseline: the
    counts are of what it introduces), and each compared file's counts after it, as many as
    fit the answer budget (`truncated` says when fewer). The disk's state is the whole
    check's (`check_all`, kept while nothing changes), the proposal's the same engine with
    the texts overlaid (`lspd.ops.overlaid_check`): a TypeScript builder over the proposed
    texts, the other servers holding them. A new file is checked in the project that will
    own it on disk (`lspd.workspace.new_files`). The disk is never written; no other call
    sees the proposed text (it runs alone); the servers get the disk's text back even when
    the call is cancelled.

    The introduced diagnostics are paged (`limit` from `offset`; `next_offset` says where
    to go on): the next page of the same changes is cut from the preview made for the
    first, kept while no file changes (as a baseline's comparison: `ops/changes_page.py`),
    never made again; without a watcher nothing says the disk is unchanged, so it is made
    again, except within one question (`workspace.question`: the CLI's pages of one
    command)."""
    check_paging(offset, limit)
    _proposed(ws, changes, await _configurations(ws, changes))  # refused before any ask
    await ws.refresh_open_documents(catch_up=True)
    key = _key(ws, changes)

    async def compare() -> Kept:
        whole = await previewed(ws, changes)
        return Kept(whole.changes, len(whole.files), whole)

    return preview_cut(await kept(ws, key, compare), offset, limit)


def _key(ws: Workspace, changes: list[dict[str, str | None]]) -> Key | None:
    """What names the preview of `changes` in the disk's state now: the watcher's count of
    changes seen, else the question running (None outside one: nothing says the disk is
    as it was)."""
    if ws.changes_seen is not None:
        return ("preview", _digest(changes), ws.changes_seen)
    since = began()
    return None if since is None else ("preview", _digest(changes), "question", since)


def _digest(changes: list[dict[str, str | None]]) -> str:
    """What names one set of proposed texts (the order of the changes aside)."""
    ordered = sorted(changes, key=lambda change: str(change.get("path")))
    return hashlib.sha256(json.dumps(ordered, sort_keys=True).encode()).hexdigest()


async def previewed(
    ws: Workspace, changes: list[dict[str, str | None]], naming: bool = False
) -> PreviewResult:
    """`preview`'s answer with every diagnostic listed (a rename's check too): the disk's
    whole check against the engine's run with the texts overlaid (without a watcher, a
    one-shot command, the disk's check is a cold one). With `naming` (a rename), only the
    files among the engine's that name a declaration the change touches (the old or the new
    name) are asked besides the changed ones: an importer naming neither cannot break
    (SQLAlchemy's `warn_deprecated`: 220 importers asked made its check 350 s, not 71)."""
    proposed = _proposed(ws, changes, await _configurations(ws, changes))
    await ws.refresh_open_documents(catch_up=True)
    only = None
    if naming:
        disk = {path: read_text(path) for path in proposed}
        only = {*proposed, *await asyncio.to_thread(files_naming, ws, disk, proposed)}
    compared = await proposal_compared(ws, proposed, only)
    counts = [
        FileDiagnosticCounts(path=r.path, errors=r.errors, warnings=r.warnings)
        for r in compared.after
        if r.total or ws.resolve(r.path) in proposed
    ]
    introduced = compared.changes.introduced
    return PreviewResult(
        errors=sum(d.severity == "error" for d in introduced),
        warnings=sum(d.severity == "warning" for d in introduced),
        files=counts,
        changes=compared.changes,
        total=len(introduced),
    )


async def _configurations(ws: Workspace, changes: object) -> GateScope | None:
    """The gate's scope (the configurations it read: a tsconfig's `extends` of any name, as
    TypeScript followed it), read only when a change is of a file no server handles."""
    paths = (
        [c.get("path") for c in changes if isinstance(c, dict)] if isinstance(changes, list) else []
    )
    try:
        if not any(isinstance(p, str) and ws.handler(ws.resolve(p)) is None for p in paths):
            return None
        return await gate_scope(ws)
    except LspdError:  # a bad path or an unreadable configuration: said by `_proposed`
        return None


def _proposed(ws: Workspace, changes: object, scope: GateScope | None) -> dict[Path, str | None]:
    """The changes as {file: its proposed text, or None to delete it}, checked; one of a
    checker's configuration (those `scope` read) refused, but one changing nothing a
    checker reads (`same_settings`), left out, and a package.json tsc on a copy can hold
    (`configured.manifest_held`: its programs' own tsc -p answers the proposal)."""
    configs = frozenset(p for p, _ in scope.read) if scope is not None else frozenset()
    example = '[{"path": "src/a.py", "content": "..."}, {"path": "src/old.py", "content": null}]'
    if not isinstance(changes, list) or not changes:
        raise InvalidInput(f"`changes` must be a non-empty list, e.g. {example}")
    if len(changes) > MAX_CHANGES:
        raise InvalidInput(f"{len(changes)} changes; send at most {MAX_CHANGES} at once")
    proposed: dict[Path, str | None] = {}
    for change in changes:
        if (
            not isinstance(change, dict)
            or set(change) - {"path", "content"}
            or "path" not in change
        ):
            raise InvalidInput(f"each change is {{path, content}}, e.g. {example}")
        content = change.get("content")
        if content is not None and not isinstance(content, str):
            raise InvalidInput("`content` is the file's whole new text, or null to delete it")
        if content is not None and len(content.encode()) > MAX_FILE_BYTES:
            raise InvalidInput(f"{change['path']}: content over {MAX_FILE_BYTES} bytes")
        path = ws.resolve(change["path"])
        held = False  # a package.json held on tsc's copy
        if ws.handler(path) is None and is_configuration(path, configs):
            if (content is not None or path.is_file()) and same_settings(
                path, read_text(path), content, ws.root
            ):
                continue  # pyproject's [project] alone: the checkers read none of it
            if is_baseline(path) and scope is not None:
                held = True  # basedpyright's on a copy holding it (`engine/python_mirror`)
            elif scope is None or manifest_held(ws, scope, path) is not None:
                raise InvalidInput(_configuration(ws.display(path)))
            else:
                held = True
        unread = not held and not program_data(ws, path) and ws.handler(path) is None
        if unread and path.name not in MARKS:
            continue  # a file no checker reads (README.rst, a changelog): left out
        if path in proposed:
            raise InvalidInput(f"{change['path']} is changed twice; send each file once")
        if content is None and not path.is_file():
            raise InvalidInput(f"{change['path']} does not exist, so it cannot be deleted")
        proposed[path] = content
    return proposed


def _configuration(shown: str) -> str:
    """What to send instead of a checker's configuration, which no preview can hold."""
    return (
        f"{shown} is a checker's configuration: a preview holds source texts only (the "
        "servers read their configuration from disk), so it cannot say what an edit of it "
        "introduces. Preview the patch without it (its source files), or write the "
        "configuration and run `lspd check --baseline HEAD`: it compares every file of "
        "the gate with HEAD's result kept under HEAD's configuration"
    )
