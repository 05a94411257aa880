"""A server's `WorkspaceEdit` as what it would make of each file: checked, never written.

The edit is the server's answer about the text it held. It is turned into new texts only
when that text is the disk's (an open document the disk has moved away from, a version the
server did not answer for, an edit past a file's end or not on the renamed name: the file
changed while it was asked) and only for files of the workspace (not outside the root, not
a dependency directory). File creations, renames and deletions are refused: a diff of text
does not carry them.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput
from lspd.lsp.positions import from_units
from lspd.lsp.session import Session
from lspd.lsp.text import uri_to_path
from lspd.ops.diff import unified
from lspd.ops.edit_models import FileEdits
from lspd.ops.models import Changes
from lspd.ops.preview import MAX_CHANGES, previewed
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

Check = tuple[Changes | None, str | None]  # what applying it does, or why that is unknown
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
STALE = "changed on disk while the server was asked; ask again"


@dataclass(frozen=True)
class FileChange:
    """One file the edit changes: its text now, the text after, how many edits."""

    path: Path
    before: str
    after: str
    edits: int


@dataclass(frozen=True)
class Proposed:
    """Every file an edit changes, in path order, and its diff."""

    changes: list[FileChange]

    def diff(self, ws: Workspace) -> str:
        return "".join(self.diffs(ws))

    def diffs(self, ws: Workspace) -> list[str]:
        """Each file's diff, in path order."""
        return [unified(ws.display(c.path), c.before, c.after) for c in self.changes]

    def key(self) -> bytes:
        """What names the edit: every file's path and texts (a file changed since is
        another edit)."""
        digest = hashlib.blake2b(digest_size=16)
        for change in self.changes:
            for text in (str(change.path), change.before, change.after):
                digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
        return digest.digest()

    def files(self, ws: Workspace) -> list[FileEdits]:
        return [FileEdits(path=ws.display(c.path), edits=c.edits) for c in self.changes]

    def contents(self, ws: Workspace) -> list[dict[str, str | None]]:
        """The change as `preview` takes it."""
        return [{"path": ws.display(c.path), "content": c.after} for c in self.changes]

    def check_unchanged(self, ws: Workspace) -> None:
        """Every file is still as the diff found it (it was not written meanwhile)."""
        for change in self.changes:
            if read_text(change.path) != change.before:
                raise InvalidInput(f"{ws.display(change.path)} {STALE}")


def proposed(
    ws: Workspace, session: Session, edits: list[dict[str, Any]], name: str | None = None
) -> Proposed:
    """The texts `edits` (`WorkspaceEdit`s, applied in turn) make of each file; with `name`,
    each edit must replace text holding it (a rename's old name)."""
    by_path: dict[Path, list[tuple[dict[str, Any], int | None]]] = {}
    for edit in edits:
        for uri, text_edits, version in _text_edits(edit):
            path = _workspace_file(ws, uri)
            by_path.setdefault(path, []).extend((e, version) for e in text_edits)
    changes = []
    for path in sorted(by_path):
        change = _changed(ws, session, path, by_path[path], name)
        if change.after != change.before:
            changes.append(change)
    return Proposed(changes)


def _text_edits(edit: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]], int | None]]:
    """(uri, text edits, the document version they are for) of a `WorkspaceEdit`."""
    if not isinstance(edit, dict):
        raise InvalidInput("the server's edit is not a WorkspaceEdit; see its log")
    if edit.get("documentChanges") is not None:  # preferred over `changes` when both come
        out = []
        for change in edit["documentChanges"]:
            kind = change.get("kind")
            if kind is not None:
                what = change.get("uri") or change.get("oldUri") or ""
                raise InvalidInput(
                    f"the server's edit would also {kind} a file ({what}); lspd gives text "
                    "diffs only, so it cannot express it: make that change yourself"
                )
            document = change.get("textDocument") or {}
            out.append(
                (document.get("uri", ""), change.get("edits") or [], document.get("version"))
            )
        return out
    return [(uri, list(items or []), None) for uri, items in (edit.get("changes") or {}).items()]


def _workspace_file(ws: Workspace, uri: str) -> Path:
    path = uri_to_path(uri)
    if path is None:
        raise InvalidInput(f"the server's edit changes {uri[:200]}, which is not a file")
    path = path.resolve()
    if path != ws.root and ws.root not in path.parents:
        raise InvalidInput(
            f"the server's edit also changes {path}, outside the workspace {ws.root}: lspd "
            "refuses the whole edit rather than leave that part out; serve a root holding "
            "both to get it as one diff"
        )
    if ws.ignore(path.parent):
        raise InvalidInput(
            f"the server's edit also changes {ws.display(path)}, in a directory lspd ignores "
            "(a dependency, build output or what .gitignore leaves out); lspd refuses it "
            "rather than leave that part out"
        )
    return path


def _changed(
    ws: Workspace,
    session: Session,
    path: Path,
    edits: list[tuple[dict[str, Any], int | None]],
    name: str | None,
) -> FileChange:
    shown = ws.display(path)
    before = read_text(path)
    if before is None:
        raise InvalidInput(f"the server's edit changes {shown}, which cannot be read")
    held = session.documents.get(path.as_uri())
    if held is not None and held.text != before:
        raise InvalidInput(f"{shown} {STALE}")
    versions = {version for _, version in edits if version is not None}
    if held is not None and versions - {held.version}:
        raise InvalidInput(f"{shown} {STALE}")
    starts = _line_starts(before)
    spans = []
    for edit, _ in edits:
        start = _offset(before, starts, edit["range"]["start"], session, shown)
        end = _offset(before, starts, edit["range"]["end"], session, shown)
        if end < start or (name is not None and name not in before[start:end]):
            raise InvalidInput(f"{shown} {STALE}")
        spans.append((start, end, str(edit.get("newText", ""))))
    spans.sort(key=lambda s: (s[0], s[1]))
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        if start < end:
            raise InvalidInput(f"the server's edits of {shown} overlap; it cannot be applied")
    after, cursor = [], 0
    for start, end, text in spans:
        after += [before[cursor:start], text]
        cursor = end
    after.append(before[cursor:])
    return FileChange(path, before, "".join(after), len(spans))


def _line_starts(text: str) -> list[int]:
    """The offset where each line begins (LSP lines: split on \\n, \\r\\n and \\r)."""
    return [0, *(m.end() for m in _LINE_BREAK.finditer(text))]


def _offset(
    text: str, starts: list[int], position: dict[str, Any], session: Session, shown: str
) -> int:
    """The string offset of an LSP position in `text`; past the end: the file changed."""
    line, units = position.get("line"), position.get("character")
    if not isinstance(line, int) or not isinstance(units, int) or line < 0 or units < 0:
        raise InvalidInput(f"the server's edit of {shown} has no valid position; see its log")
    if line >= len(starts):
        raise InvalidInput(f"{shown} {STALE}")
    start = starts[line]
    stop = starts[line + 1] if line + 1 < len(starts) else len(text)
    line_text = text[start:stop].rstrip("\r\n")
    return start + from_units(line_text, units, session.encoding)


async def check(ws: Workspace, edit: Proposed, naming: bool = False) -> Check:
    """What applying the edit would introduce and fix, as `preview` computes it (and a note
    when it is not checked); the files must still be as the diff found them after. With
    `naming` (a rename), only the files naming a changed declaration besides the changed
    ones (`preview.previewed`)."""
    note = unchecked(edit)
    if note is not None:
        return None, note
    result = await previewed(ws, edit.contents(ws), naming)
    edit.check_unchanged(ws)
    return result.changes, None


def unchecked(edit: Proposed) -> str | None:
    """Why the edit is not checked (more files than `preview` takes), or None."""
    if len(edit.changes) > MAX_CHANGES:
        return f"not checked: it changes {len(edit.changes)} files, `preview` takes {MAX_CHANGES}"
    return None
