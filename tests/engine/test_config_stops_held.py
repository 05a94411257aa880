"""A program its tsconfig's options error stops says none of its files' errors in a held
state either (`engine/config_stops.py`): TypeScript 7.0.2 with `"moduleResolution": "node10"`
says TS5108 alone (`tsc -p`) after an edit adding a TS2322 to src/a.ts, where a preview of
that edit said it new (TypeScript 7's LSP says a held text's semantic errors); TypeScript
5.9.3's `diagnostics FILE` (tsserver's answer) said src/a.ts's TS2322 where tsc -p says
TS2688 alone. Real TypeScript against the project's own tsc -p."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_config_stops import BROKEN, _project, _truth

MORE = BROKEN + "export const m: string = 1;\n"


def test_a_preview_of_a_stopped_program_says_no_semantic_error(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts7", {"moduleResolution": "node10", "module": "commonjs"}, "7.0.2")
    assert _truth(root) == {("tsconfig.json", 7, "5108")}
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        preview = warm.run(previewed(warm.ws, [{"path": "src/a.ts", "content": MORE}]))
        said = preview.changes
        assert (said.introduced, said.fixed, preview.errors) == ([], [], 0)
        assert [(f.path, f.errors) for f in preview.files] == [("src/a.ts", 0)]
        assert [(s.at, s.files) for s in said.stopped] == [(["tsconfig.json:7"], [])]
    (root / "src/a.ts").write_text(MORE)
    assert _truth(root) == {("tsconfig.json", 7, "5108")}  # tsc said the same, written


def test_typescript_5s_file_diagnostics_say_the_stop(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts5", {"types": ["nope"]}, "5.9.3")
    assert _truth(root) == {("tsconfig.json", 1, "2688")}
    once = answer(root, lambda ws: diagnostics(ws, "src/a.ts"))
    assert (once.diagnostics, once.errors) == ([], 0)
    assert once.checker is not None and once.checker.startswith(
        "tsc stopped at the configuration error at tsconfig.json:1"
    )


def test_typescript_5s_file_diagnostics_beside_a_parsing_error(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts5", {"bogus": 1}, "5.9.3")  # TS5023: tsc checks the files
    assert _truth(root) == {("tsconfig.json", 9, "5023"), ("src/a.ts", 1, "2322")}
    once = answer(root, lambda ws: diagnostics(ws, "src/a.ts"))
    assert ([d.code for d in once.diagnostics], once.checker) == (["2322"], None)


def test_a_configurations_errors_at_the_baseline_are_tscs_on_a_copy(tmp_path: Path) -> None:
    """`diagnostics tsconfig.json --baseline HEAD` where HEAD's held TS5108 and the work
    tree's mends it: fixed (it was refused: tsc on a copy answered nothing beside it)."""
    root = _project(tmp_path / "ts7", {"moduleResolution": "node10", "module": "commonjs"}, "7.0.2")
    config = (root / "tsconfig.json").read_text().replace('"node10"', '"bundler"')
    (root / "tsconfig.json").write_text(config.replace('"commonjs"', '"esnext"'))
    assert _truth(root) == {("src/a.ts", 1, "2322")}
    said = answer(root, lambda ws: diagnostics(ws, "tsconfig.json", baseline="HEAD"))
    assert said.changes is not None
    assert said.changes.introduced == []
    assert [(d.line, d.code) for d in said.changes.fixed] == [(7, "5108")]
