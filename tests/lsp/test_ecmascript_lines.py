"""Requests to TypeScript 5 (typescript-language-server over tsserver) about a file holding
U+2028 or U+2029: tsserver counts lines as ECMAScript does, so every position below such a
character meant another place (a hover on `greet(` answered `String.length` two lines up, a
definition nothing). Positions are moved to tsserver's lines and back
(`lspd.lsp.ecmascript_lines`); TypeScript 5.4.5, a file open and one read from disk."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.lsp.ecmascript_lines import Lines
from lspd.lsp.text import LineIndex, from_ecmascript, split_lines
from lspd.ops import navigation, references, rename, symbols
from lspd.servers.registry import node_executable
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import TS_PINNED, typescript_package

A = (
    "// one \u2028 two \u2029 three\n"
    'const note = "x";\n'
    "export function greet(name: string): number {\n"
    "  return name.length;\n"
    "}\n"
    "export const n = greet(note);\n"
)
B = (
    'import { greet } from "./a";\n'
    "/* \u2028 */\n"
    'export const m = greet("y");\n'
    "export const k = m;\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    root = tmp_path / "p"
    root.mkdir()
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}')
    (root / "a.ts").write_text(A)
    (root / "b.ts").write_text(B)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    yield from warm_root(root, tmp_path / "logs")


def test_hover_and_definition_below_a_separator(project: Warm) -> None:
    hovered = project.run(navigation.hover(project.ws, "b.ts", 3, 18))
    assert "(alias) greet(name: string): number" in hovered.contents
    assert (hovered.range.line, hovered.range.column, hovered.range.end_column) == (3, 18, 23)
    found = project.run(navigation.definition(project.ws, "a.ts", 6, 24)).locations
    assert [(x.path, x.line, x.column, x.text) for x in found] == [
        ("a.ts", 2, 7, 'const note = "x";')
    ]
    found = project.run(navigation.definition(project.ws, "b.ts", 3, 18)).locations
    assert [(x.path, x.line, x.column) for x in found] == [("a.ts", 3, 17)]


def test_references_calls_symbols_and_rename_below_a_separator(project: Warm) -> None:
    used = project.run(references.references(project.ws, "a.ts", 3, 17))
    assert sorted((f.path, r.line, r.column) for f in used.files for r in f.references) == [
        ("a.ts", 3, 17),
        ("a.ts", 6, 18),
        ("b.ts", 1, 10),
        ("b.ts", 3, 18),
    ]
    calls = project.run(references.call_hierarchy(project.ws, "a.ts", 3, 17)).calls
    assert sorted((c.path, c.line, c.column, c.symbol) for c in calls) == [
        ("a.ts", 6, 18, "n"),
        ("b.ts", 3, 18, "m"),
    ]
    outline = project.run(symbols.document_symbols(project.ws, "a.ts")).symbols
    assert [(s.name_path, s.line, s.column, s.end_line) for s in outline] == [
        ("note", 2, 7, 2),
        ("greet", 3, 17, 5),
        ("n", 6, 14, 6),
    ]
    renamed = project.run(rename.rename(project.ws, "a.ts", 3, 17, new_name="hello"))
    assert renamed.old_name == "greet"
    assert renamed.edits == 4 and renamed.check is not None and renamed.check.introduced == []
    assert renamed.diff.count("-export const n = greet(note);") == 1
    assert '+export const m = hello("y");' in renamed.diff
    assert "// one \u2028 two \u2029 three" in renamed.diff
    # prepareRename's answer, a bare Range, is moved back too (it named `k`, a line below)
    below = project.run(rename.rename(project.ws, "b.ts", 3, 14, new_name="mm"))
    assert (below.old_name, below.edits) == ("m", 2)


def test_moves_are_exact_inverses() -> None:
    text = "// a \u2028 b \u2029 c\r\nconst \U0001f600x = 1;\rlet y\u2028= 2;\nz"
    index = LineIndex(text)
    assert index.to_ecmascript(1, 0) == (3, 0)
    assert index.to_ecmascript(2, 6) == (5, 0)  # after the U+2028 inside LSP's line 3
    for line, held in enumerate(split_lines(text)):
        for column in range(len(held.encode("utf-16-le")) // 2 + 1):
            if column == 7 and line == 1:
                continue  # between the emoji's two UTF-16 units: no point of its own
            assert index.to_lsp(*index.to_ecmascript(line, column)) == (line, column)


def test_an_answers_places_move_by_the_file_they_are_in() -> None:
    texts = {"file:///a.ts": "x\u2028y\nz\n", "file:///b.ts": "plain\ntext\n"}
    lines = Lines(texts.get, {"item": {"uri": "file:///a.ts"}})
    at = {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 1}}
    calls = [
        {"to": {"uri": "file:///b.ts", "range": at, "selectionRange": at}, "fromRanges": [at]},
        {"from": {"uri": "file:///a.ts", "range": at, "selectionRange": at}, "fromRanges": [at]},
    ]
    moved = lines.answered(calls)
    assert moved[0]["to"]["range"] == at  # b.ts holds no separator
    assert moved[0]["fromRanges"][0]["start"] == {"line": 1, "character": 0}  # the asker's
    assert moved[1]["from"]["range"]["start"] == {"line": 1, "character": 0}
    edit = {"changes": {"file:///a.ts": [{"range": at, "newText": "q"}]}}
    assert lines.answered(edit)["changes"]["file:///a.ts"][0]["range"]["end"] == {
        "line": 1,
        "character": 1,
    }
    assert lines.answered(at) == {  # prepareRename's answer: a bare Range
        "start": {"line": 1, "character": 0},
        "end": {"line": 1, "character": 1},
    }
    sent = lines.sent({"item": {"uri": "file:///a.ts", "range": moved[1]["from"]["range"]}})
    assert sent["item"]["range"] == at


_POINTS = """
const ts = require(process.argv[1]);
const text = require("fs").readFileSync(0, "utf8");
const file = ts.createSourceFile("a.ts", text, ts.ScriptTarget.Latest);
const points = [];
for (let at = 0; at <= text.length; at++) {
  const p = file.getLineAndCharacterOfPosition(at);
  points.push([p.line, p.character]);
}
console.log(JSON.stringify(points));
"""


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_the_moves_are_typescript_s_line_map_at_every_point() -> None:
    """At every offset of a text mixing CR, CRLF, U+2028/9 and astral characters, the point
    TypeScript's own line map says (tsc's and tsserver's lines) moves to the one LSP's lines
    say, and back; `from_ecmascript` (tsc -p's 1-based points) is the same rule."""
    text = "\u2029 b\r\naa\u00e9a\r\u2029\ra\u00e9\u2029\U0001f600\U0001f600\u00e9\n"
    script = [node_executable(), "-e", _POINTS, str(typescript_package(TS_PINNED))]
    said = subprocess.run(script, input=text, capture_output=True, text=True, check=True)
    typescript = [tuple(point) for point in json.loads(said.stdout)]
    index = LineIndex(text)
    for at in range(len(text) + 1):
        ecma = typescript[_units(text[:at])]
        lines = split_lines(text[:at])  # LSP's point at `at`
        lsp = (len(lines) - 1, _units(lines[-1]))
        assert index.to_lsp(*ecma) == lsp, at
        assert from_ecmascript(text, ecma[0] + 1, ecma[1] + 1) == (lsp[0] + 1, lsp[1] + 1), at
        if text[at - 1 : at + 1] != "\r\n":  # between them: past the CR's line in LSP's
            assert index.to_ecmascript(*lsp) == ecma, at


def test_a_big_answer_is_moved_in_one_reading_of_its_file() -> None:
    """2,000 symbols of a 5,000-line file below a U+2028: one scan of the text per point
    took 84 s of CPU; 0.14 s now."""
    text = "// \u2028\n" + "".join(f"export const v{i}: number = {i};\n" for i in range(5000))
    at = [{"line": i + 2, "character": 13} for i in range(2000)]
    symbols = [
        {"name": "v", "range": {"start": p, "end": p}, "selectionRange": {"start": p, "end": p}}
        for p in at
    ]
    lines = Lines({"file:///big.ts": text}.get, {"textDocument": {"uri": "file:///big.ts"}})
    began = time.process_time()
    moved = lines.answered(symbols)
    assert time.process_time() - began < 5
    assert [s["selectionRange"]["start"] for s in moved[:2]] == [
        {"line": 1, "character": 13},
        {"line": 2, "character": 13},
    ]
