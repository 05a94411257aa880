"""A server's WorkspaceEdit turned into new texts: positions in the server's units, refusals
for what a text diff of the workspace cannot carry. The edits are written as servers send
them; no server is started (the session is only asked its encoding and open documents)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.ops.workspace_edit import Proposed, proposed
from lspd.workspace import Workspace

TEXT = "café = '🎉'; total = 1\nprint(total)\n"


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "p"
    (root / ".venv").mkdir(parents=True)
    (root / ".venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "a.py").write_text(TEXT)
    return Workspace(root.resolve(), log_dir=tmp_path / "logs")


def edit_of(ws: Workspace, path: str, *edits: tuple[int, int, int, int, str]) -> dict[str, Any]:
    uri = (ws.root / path).as_uri()
    return {
        "changes": {
            uri: [
                {
                    "range": {
                        "start": {"line": a, "character": b},
                        "end": {"line": c, "character": d},
                    },
                    "newText": text,
                }
                for a, b, c, d, text in edits
            ]
        }
    }


def texts(ws: Workspace, *edits: dict[str, Any], name: str | None = None) -> Proposed:
    session = ws.session_for(ws.root / "a.py")
    return proposed(ws, session, list(edits), name)


def test_positions_count_the_servers_units(ws: Workspace) -> None:
    # `🎉` is two UTF-16 units: `total` starts at unit 13 of line 0 (code point 12).
    edit = edit_of(ws, "a.py", (0, 13, 0, 18, "subtotal"), (1, 6, 1, 11, "subtotal"))
    [change] = texts(ws, edit, name="total").changes
    assert change.after == "café = '🎉'; subtotal = 1\nprint(subtotal)\n"
    assert change.edits == 2
    assert texts(ws, edit).diff(ws).splitlines()[4:] == [
        "-café = '🎉'; total = 1",
        "-print(total)",
        "+café = '🎉'; subtotal = 1",
        "+print(subtotal)",
    ]


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        (
            [(0, 0, 0, 4, "x"), (0, 2, 0, 6, "y")],
            "the server's edits of a.py overlap; it cannot be applied",
        ),
        ([(7, 0, 7, 1, "x")], "a.py changed on disk while the server was asked; ask again"),
    ],
)
def test_edits_that_cannot_be_applied_are_refused(
    ws: Workspace, edits: list[tuple[int, int, int, int, str]], expected: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        texts(ws, edit_of(ws, "a.py", *edits))
    assert str(raised.value) == expected


def test_a_rename_edit_not_over_the_old_name_means_the_file_changed(ws: Workspace) -> None:
    with pytest.raises(InvalidInput) as raised:
        texts(ws, edit_of(ws, "a.py", (1, 0, 1, 5, "x")), name="total")
    assert str(raised.value) == "a.py changed on disk while the server was asked; ask again"


def test_files_outside_the_workspace_or_ignored_refuse_the_whole_edit(ws: Workspace) -> None:
    inside = edit_of(ws, "a.py", (1, 6, 1, 11, "x"))
    outside = {"changes": {(ws.root.parent / "b.py").as_uri(): []}}
    with pytest.raises(InvalidInput) as raised:
        texts(ws, {"changes": {**inside["changes"], **outside["changes"]}})
    assert f"also changes {ws.root.parent}/b.py, outside the workspace" in str(raised.value)
    library = edit_of(ws, ".venv/lib/x.py", (0, 0, 0, 0, "y"))
    with pytest.raises(InvalidInput) as raised:
        texts(ws, inside, library)
    assert "also changes .venv/lib/x.py, in a directory lspd ignores" in str(raised.value)


def test_file_operations_are_refused(ws: Workspace) -> None:
    rename = {"kind": "rename", "oldUri": (ws.root / "a.py").as_uri(), "newUri": "file:///b.py"}
    with pytest.raises(InvalidInput) as raised:
        texts(ws, {"documentChanges": [rename]})
    assert str(raised.value).startswith("the server's edit would also rename a file")


def test_document_changes_win_over_changes(ws: Workspace) -> None:
    versioned = {
        "textDocument": {"uri": (ws.root / "a.py").as_uri(), "version": None},
        "edits": edit_of(ws, "a.py", (1, 6, 1, 11, "y"))["changes"][(ws.root / "a.py").as_uri()],
    }
    both = {**edit_of(ws, "a.py", (1, 6, 1, 11, "x")), "documentChanges": [versioned]}
    [change] = texts(ws, both).changes
    assert change.after.endswith("print(y)\n")
