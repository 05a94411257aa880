"""A TypeScript 7 file's JSX pragma (`/** @jsxImportSource x */`, `@jsxRuntime`) implies
an import of its own: TypeScript 7.0.2's server (`tsc --lsp`) keeps the program's import of
the old jsx-runtime across a change of one file (its `canReplaceFileInProgram` compares the
file's imports, not its pragmas), so the pragma added said nothing where tsc -p says TS2875,
and taken away kept the error; a disk write, a held text (a preview, a baseline's HEAD text)
alike. lspd tells the server its program's configuration changed
(`lsp/pragmas.py`, `engine/native_implied.py`): it builds the program anew. Real TypeScript
7.0.2 against its own `tsc -p`."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG, check, native_project, tsc
from tests.ops.test_baseline import committed

VIEW = 'export const view = <p id="a">{1}</p>;\n'
PRAGMA = "/** @jsxImportSource preact */\n"  # no preact installed: tsc -p says TS2875
RUNTIME = (  # enough of a jsx-runtime for `<p>`
    "export namespace JSX {\n  interface IntrinsicElements { [name: string]: object }\n"
    "  type Element = object;\n}\n"
    "export function jsx(type: unknown, props: unknown): object;\n"
    "export function jsxs(type: unknown, props: unknown): object;\n"
    "export const Fragment: unique symbol;\n"
)
PRAGMA_ERRORS = {  # tsc -p 7.0.2 with PRAGMA above VIEW
    ("src/view.tsx", 2, 21, "2875"),
    ("src/view.tsx", 2, 21, "7026"),
    ("src/view.tsx", 2, 34, "7026"),
}


def jsx_project(root: Path) -> Path:
    """`native_project` with src/view.tsx on a local jsx-runtime package (`myjsx`)."""
    native_project(root)
    options = {**CONFIG["compilerOptions"], "jsx": "react-jsx", "jsxImportSource": "myjsx"}
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src"]})
    )
    package = root / "node_modules/myjsx"
    package.mkdir()
    (package / "package.json").write_text('{"name": "myjsx", "version": "1.0.0"}')
    (package / "index.d.ts").write_text("export {};\n")
    (package / "jsx-runtime.d.ts").write_text(RUNTIME)
    (root / "src/view.tsx").write_text(VIEW)
    return root


def found(warm: Warm, path: str) -> set[tuple[str, int, int, str]]:
    said = warm.run(diagnostics(warm.ws, path)).diagnostics
    return {(path, d.line, d.column, d.code or "") for d in said}


def test_a_pragma_written_on_disk_is_read_as_tsc_reads_it(tmp_path: Path) -> None:
    """The daemon: the pragma written by the shell (no document open), checked; taken away
    (open since `diagnostics`), checked; then a preview of it."""
    root = jsx_project(tmp_path / "ts7")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / "src/view.tsx").write_text(PRAGMA + VIEW)
        assert tsc(warm) == PRAGMA_ERRORS
        assert check(warm)[1] == PRAGMA_ERRORS
        assert found(warm, "src/view.tsx") == PRAGMA_ERRORS

        (root / "src/view.tsx").write_text(VIEW)
        assert check(warm)[1] == tsc(warm) == set()
        assert found(warm, "src/view.tsx") == set()

        preview = warm.run(previewed(warm.ws, [{"path": "src/view.tsx", "content": PRAGMA + VIEW}]))
        introduced = {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced}
        assert introduced == PRAGMA_ERRORS
        assert check(warm)[1] == set()  # the held text let go: the disk's again


def test_a_file_s_diagnostics_after_the_shell_wrote_its_pragma(tmp_path: Path) -> None:
    """The daemon: `diagnostics FILE` (the post-edit hook's question) before any check."""
    root = jsx_project(tmp_path / "ts7")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == set()
        (root / "src/view.tsx").write_text(PRAGMA + VIEW)
        assert found(warm, "src/view.tsx") == tsc(warm) == PRAGMA_ERRORS
        assert check(warm)[1] == PRAGMA_ERRORS


def test_a_pragma_added_since_head_is_new_in_a_one_shot_baseline(tmp_path: Path) -> None:
    """No watcher: HEAD's text (no pragma) held over the disk's (the pragma) says HEAD's
    answer, and the work tree's after it says the pragma's errors new."""
    root = committed(jsx_project(tmp_path / "ts7"))
    (root / "src/view.tsx").write_text(PRAGMA + VIEW)
    for warm in warm_root(root, tmp_path / "logs"):
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        introduced = {(d.path, d.line, d.column, d.code) for d in since.changes.introduced}
        assert introduced == tsc(warm) == PRAGMA_ERRORS
        assert since.changes.fixed == []

        preview = warm.run(previewed(warm.ws, [{"path": "src/view.tsx", "content": VIEW}]))
        fixed = {(d.path, d.line, d.column, d.code) for d in preview.changes.fixed}
        assert (fixed, preview.changes.introduced) == (PRAGMA_ERRORS, [])
