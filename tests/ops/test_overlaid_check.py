"""A preview is the check engine with the proposed texts overlaid: the TypeScript builder
over a host serving them (only the files it would re-check are checked), held texts on
basedpyright and TypeScript 7 with the whole check's affected set. The answers are the
old two-state comparison's, nothing is written, and the next real check is still right
and still incremental (real servers, real builder)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from lspd.engine.builders import builder_for
from lspd.engine.overlaid import builders_overlaid
from lspd.ops.check import check_all
from lspd.ops.models import Changes, FileDiagnostic
from lspd.ops.overlaid_state import overlaid_state
from lspd.ops.preview import previewed
from lspd.workspace.files import read_text
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import CORE, PYTHON, checked_anew, errors, make, watched, written
from tests.engine.test_native_check import listed
from tests.ops.test_since_kept import MOVES, move
from tests.ops.two_states import compare_states
from tests.workspace.mypy_env import project
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package

Said = list[tuple[str | None, int, str | None, str]]


@pytest.fixture(
    params=[(False, None), (True, None), (True, TS_PINNED)],
    ids=["modules", "isolated", "isolated-5.4"],
)
def typescript(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """A small TypeScript project on the builder (lspd's TypeScript, or the project's own
    5.4), its watcher running as in the daemon."""
    isolated, version = request.param
    root = make(tmp_path / "ts", isolated)
    if version is not None:
        (root / "node_modules").mkdir()
        (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    yield from watched(root, tmp_path / "logs")


def said(changes: Changes) -> tuple[Said, Said]:
    """What a comparison introduced and fixed: (path, line, code, message) each."""

    def of(found: list[FileDiagnostic]) -> Said:
        return [(d.path, d.line, d.code, d.message) for d in found]

    return of(changes.introduced), of(changes.fixed)


def previewed_said(warm: Warm, change: Mapping[str, str | None]) -> tuple[Said, Said]:
    """The preview's answer for `change` (relative path -> text); the disk untouched."""
    proposed = {warm.root / name: text for name, text in change.items()}
    disk = {path: read_text(path) for path in proposed}
    items = [{"path": name, "content": text} for name, text in change.items()]
    new = warm.run(previewed(warm.ws, items))
    assert {path: read_text(path) for path in proposed} == disk  # nothing written
    return said(new.changes)


def both(warm: Warm, change: Mapping[str, str | None]) -> tuple[Said, Said]:
    """The preview's answer for `change`, asserted equal to the old two-state comparison's
    (the changed files and the files naming what changed, both states asked)."""
    new = previewed_said(warm, change)
    proposed = {warm.root / name: text for name, text in change.items()}
    disk = {path: read_text(path) for path in proposed}
    assert new == said(warm.run(compare_states(warm.ws, "disk", disk, proposed)))
    return new


def rechecked(warm: Warm, change: Mapping[str, str | None]) -> list[str]:
    """The files the builder's preview checks anew for `change`."""
    texts = {warm.root / name: text for name, text in change.items()}
    done = warm.run(builders_overlaid(texts, functools.partial(builder_for, warm.ws)))
    return sorted(warm.ws.display(p) for p in done.checked)


STRING = CORE.replace("): number", "): string").replace("a + b", "''")
BROKEN = "Type 'string' is not assignable to type 'number'."


def test_typescript_previews_recheck_what_the_builder_would(typescript: Warm) -> None:
    root = typescript.root
    assert errors(typescript) == []
    leaf = {"src/leaf.ts": "export const x: string = 1;\n"}
    assert rechecked(typescript, leaf) == ["src/leaf.ts"]
    assert both(typescript, leaf) == (
        [("src/leaf.ts", 1, "2322", "Type 'number' is not assignable to type 'string'.")],
        [],
    )
    body = {"src/core.ts": CORE.replace("a + b", "b + a")}  # core's first edit: its body
    assert rechecked(typescript, body) == ["src/core.ts"]
    assert both(typescript, body) == ([], [])
    signature = {"src/core.ts": STRING}
    assert rechecked(typescript, signature) == ["src/core.ts", "src/other.ts", "src/user.ts"]
    assert both(typescript, signature) == ([("src/user.ts", 2, "2322", BROKEN)], [])
    # A new file importing another new one (resolved through the builder's host: the old
    # path's tsserver answer depended on what it held before), and a deletion.
    new = {
        "src/fresh.ts": 'import { y } from "./more/made";\nexport const z: number = y;\n',
        "src/more/made.ts": "export const y: string = 'y';\n",
    }
    assert previewed_said(typescript, new) == ([("src/fresh.ts", 2, "2322", BROKEN)], [])
    gone = previewed_said(typescript, {"src/core.ts": None})
    assert {path for path, *_ in gone[0]} == {"src/other.ts", "src/user.ts"}
    assert not (root / "src/fresh.ts").exists() and (root / "src/core.ts").read_text() == CORE

    # The kept builder is as the last real check left it: the next check decides as before.
    (root / "src/core.ts").write_text(CORE.replace("a + b", "b + a"))
    assert errors(typescript) == []
    assert checked_anew(typescript) == ["src/core.ts"]
    (root / "src/core.ts").write_text(STRING)
    assert errors(typescript) == [("src/user.ts", 2, BROKEN)]
    assert checked_anew(typescript) == ["src/core.ts", "src/other.ts", "src/user.ts"]
    # A line shift above an error keeps it (the same source text); undoing the change fixes it.
    user = (root / "src/user.ts").read_text()
    assert both(typescript, {"src/user.ts": f"// moved down\n{user}"}) == ([], [])
    assert both(typescript, {"src/core.ts": CORE}) == ([], [("src/user.ts", 2, "2322", BROKEN)])


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    """A small Python project on basedpyright, its watcher running as in the daemon."""
    yield from watched(written(tmp_path / "py", PYTHON), tmp_path / "logs")


def test_python_previews_ask_what_the_check_would(python: Warm) -> None:
    assert python.run(check_all(python.ws)).everything == []
    leaf = {"pkg/leaf.py": "x: str = 1\n"}
    assert [(p, line, code) for p, line, code, _ in both(python, leaf)[0]] == [
        ("pkg/leaf.py", 1, "reportAssignmentType")
    ]
    body = {"pkg/core.py": "def add(a: int, b: int) -> int:\n    return b + a\n"}
    assert both(python, body) == ([], [])
    signature = {"pkg/core.py": "def add(a: int, b: int) -> str:\n    return str(a + b)\n"}
    assert [(p, line, code) for p, line, code, _ in both(python, signature)[0]] == [
        ("pkg/user.py", 5, "reportAssignmentType")
    ]
    # The next real check: right, and asking what the edit affects only.
    (python.root / "pkg/leaf.py").write_text("x: str = 1\n")
    checked = python.run(check_all(python.ws))
    assert [python.ws.display(p) for p in checked.asked] == ["pkg/leaf.py"]
    assert [(d.path, d.line) for d in checked.everything] == [("pkg/leaf.py", 1)]


def test_a_python_preview_of_comments_and_blank_lines_asks_nothing(python: Warm) -> None:
    """The disk's result moved with its lines (engine/python_trivia), as the next check
    says once it is written; before, the file was asked with the text held, then again."""
    leaf = python.root / "pkg/leaf.py"
    leaf.write_text("x: str = 1\n")
    disk = {python.ws.resolve(r.path) for r in python.run(check_all(python.ws)).results}
    text = "# a leaf\n\nx: str = 1  # wrong\n"
    state = python.run(overlaid_state(python.ws, {leaf: text}, disk))
    assert state.asked == [] and state.held == {}
    assert [(d.line, d.code) for d in state.results[leaf].diagnostics] == [
        (3, "reportAssignmentType")
    ]
    assert previewed_said(python, {"pkg/leaf.py": text}) == ([], [])
    typed = {"pkg/leaf.py": "x: str = 1  # type: ignore\n"}  # a comment a checker reads
    assert python.run(overlaid_state(python.ws, {leaf: typed["pkg/leaf.py"]}, disk)).asked == [leaf]
    leaf.write_text(text)
    checked = python.run(check_all(python.ws))
    assert checked.asked == [] and [(d.path, d.line) for d in checked.everything] == [
        ("pkg/leaf.py", 3)
    ]


TS7_FILES = {
    "src/core.ts": CORE,
    "src/user.ts": 'import { add } from "./core.js";\nexport const three: number = add(1, 2);\n',
    "src/leaf.ts": "export const x: string = 'x';\n",
}
TS7_CONFIG = {
    "compilerOptions": {"strict": True, "noEmit": True, "module": "esnext"},
    "include": ["src"],
}


@pytest.fixture
def native(tmp_path: Path) -> Iterator[Warm]:
    """A TypeScript 7 project with its watcher running, as in the daemon."""
    root = written(tmp_path / "ts7", {**TS7_FILES, "tsconfig.json": json.dumps(TS7_CONFIG)})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    yield from warm_root(root, tmp_path / "logs", watch=True)


def test_typescript_7_previews_ask_what_the_check_would(native: Warm) -> None:
    assert native.run(check_all(native.ws)).everything == []
    leaf = {"src/leaf.ts": "export const x: string = 1;\n"}
    assert [(p, line, code) for p, line, code, _ in both(native, leaf)[0]] == [
        ("src/leaf.ts", 1, "2322")
    ]
    assert both(native, {"src/core.ts": f"// adds\n{CORE}"}) == ([], [])
    assert both(native, {"src/core.ts": STRING}) == ([("src/user.ts", 2, "2322", BROKEN)], [])
    (native.root / "src/leaf.ts").write_text("export const x: string = 1;\n")
    checked = native.run(check_all(native.ws))
    assert [native.ws.display(p) for p in checked.asked] == ["src/leaf.ts"]
    assert [(d.path, d.line) for d in checked.everything] == [("src/leaf.ts", 1)]


def test_a_preview_without_a_watcher_is_the_engines(tmp_path: Path) -> None:
    """A one-shot `lspd preview` (no daemon, no watcher): the disk's state is a cold check,
    the proposal's the builder over the proposed texts; no language server is started (the
    two-state comparison held the disk's and the proposal's texts in tsserver)."""
    root = make(tmp_path / "ts", True)
    for warm in warm_root(root, tmp_path / "logs"):
        assert warm.ws.changes_seen is None
        change = {"src/core.ts": CORE.replace("): number", "): string").replace("a + b", "''")}
        new = previewed_said(warm, change)
        assert [r[:3] for r in new[0]] == [("src/user.ts", 2, "2322")] and new[1] == []
        assert warm.ws.sessions == {}
        assert rechecked(warm, change) == ["src/core.ts", "src/other.ts", "src/user.ts"]
        assert both(warm, change) == new  # the two-state comparison's answer (tsserver)


@pytest.mark.parametrize("kind", list(MOVES))
def test_a_preview_of_a_file_moved_with_its_importers_updated_changes_nothing(
    tmp_path: Path, kind: str
) -> None:
    """The preview of a file's move, its importers updated (`git diff -M`'s `rename from/to`
    is a deletion and a new file to the preview; trio's `_unix_pipes.py`): its errors, the
    same in the same text, are neither introduced under the new path nor fixed under the
    old; the answer says the rename. Before: "introduced 1, fixed 1" (trio: 2 and 2)."""
    files, old, new, error = MOVES[kind]
    made = project if kind == "mypy" else written
    root = made(tmp_path / kind, files)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert error[1:] in [(d.line, d.code) for d in warm.run(check_all(warm.ws)).everything]
        items = [{"path": name, "content": text} for name, text in move(root, old, new).items()]
        changes = warm.run(previewed(warm.ws, items)).changes
        assert (said(changes)) == ([], [])
        assert changes.renamed == {old: new}
        assert f"renamed: {old} -> {new}" in changes.scope
        assert changes.unchanged >= 1


def test_a_typescript_7_preview_without_a_watcher_lists_its_program_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A one-shot `lspd preview` (no daemon): its check, its proposal's held state and the
    disk's second sample read one listing of the program (`tsc -p --listFilesOnly`: three
    before, 0.42-0.49 s each on mobx at load 11); the next question lists it again (a file
    may have come)."""
    listings = listed(monkeypatch)
    root = written(tmp_path / "ts7", {**TS7_FILES, "tsconfig.json": json.dumps(TS7_CONFIG)})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    config = root / "tsconfig.json"
    for warm in warm_root(root, tmp_path / "logs"):
        assert warm.ws.changes_seen is None
        leaf = {"src/leaf.ts": "export const x: string = 1;\n"}
        new, fixed = previewed_said(warm, leaf)
        assert [(p, line, code) for p, line, code, _ in new] == [("src/leaf.ts", 1, "2322")]
        assert fixed == [] and listings == [config]
        written(root, {"src/more.ts": 'import { x } from "./leaf";\nexport const y = x;\n'})
        new, fixed = previewed_said(warm, {"src/more.ts": "export const y: number = '';\n"})
        assert [(p, line, code) for p, line, code, _ in new] == [("src/more.ts", 1, "2322")]
        assert fixed == [] and listings == [config, config]
