"""A TypeScript 7 watched check asks an importer again after an edit of a line that is a
string's text, not a comment (`source_shape.shape`): a `//` after a form feed (no line end
in TypeScript: Python's `str.splitlines` cut the line there), in a string continued on the
next line, in a template after a backtick inside a quoted string. Its edit changes the
string's literal type, and tsc -p says a TS2322 in the importer. And a comment added after
a JSDoc comment quoting code in backticks (as effect's modules have them) asks no importer:
a line-by-line reading took the rest of the file for a string's and asked them all. Real
TypeScript 7.0.2, its `tsc -p` beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import warm_root
from tests.engine.test_native_check import check, native_project, tsc
from tests.engine.test_source_shape import JSDOC

CASES = {
    "form feed": (
        'export const mark = "a\f// b" as const;\n',
        'import { mark } from "./literal";\n\nexport const same: "a\f// b" = mark;\n',
    ),
    "continued": (
        'export const mark = "a\\\n// b" as const;\n',
        'import { mark } from "./literal";\n\nexport const same: "a// b" = mark;\n',
    ),
    "ticked": (
        'export const tick = "`";\nexport const mark = `\n// b` as const;\n',
        'import { mark } from "./literal";\n\nexport const same: "\\n// b" = mark;\n',
    ),
    # A regular expression after an if head, read as a division: its `//` hid the line.
    "regex after if": (
        "export declare const s: string;\nif (s) /[//]/.test(s); export const mark = '// b';\n",
        'import { mark } from "./literal";\n\nexport const same: "// b" = mark;\n',
    ),
    # A division after a property named `in`, read as a regular expression up to the quote.
    "property named in": (
        "export const o = { in: 4 };\n"
        "export const q = o.in / 2 + '/'; export const mark = '// b';\n",
        'import { mark } from "./literal";\n\nexport const same: "// b" = mark;\n',
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_edit_of_a_strings_line_asks_its_importer(tmp_path: Path, case: str) -> None:
    literal, use = CASES[case]
    root = native_project(tmp_path / "ts7")
    (root / "src/literal.ts").write_text(literal)
    (root / "src/use.ts").write_text(use)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / "src/literal.ts").write_text(literal.replace("// b", "// c"))
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2322")}
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth


def test_a_comment_after_jsdoc_code_asks_no_importer(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/apply.ts").write_text(JSDOC)
    (root / "src/use.ts").write_text(
        'import { apply } from "./apply";\n\nexport const n: string = apply(1, (x) => x);\n'
    )
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2322")}
        assert check(warm)[1] == truth
        (root / "src/apply.ts").write_text(JSDOC + "\n// a comment\n")
        assert check(warm) == (["src/apply.ts"], truth) and tsc(warm) == truth
