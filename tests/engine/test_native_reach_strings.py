"""A `//` line that is a string's text, not a comment (`native_reach.shape`), by the two ways
lspd's line reading missed: a string continued on the next line (`"a\\` then `// b"`: the
string is `a// b`), and a template literal after a backtick inside a quoted string (`"`"`: the
backticks were counted even there, so the template's own `//` line was taken for a comment).
An edit of that line changes the string's literal type, and the importer's answer with it:
tsc -p says a TS2322 the watched check missed (the importer was not asked again). Real
TypeScript 7.0.2, its `tsc -p` beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine.native_reach import shape
from tests.conftest import warm_root
from tests.engine.test_native_check import check, native_project, tsc

CONTINUED = 'export const mark = "a\\\n// b" as const;\n'
CONTINUED_USE = 'import { mark } from "./literal";\n\nexport const same: "a// b" = mark;\n'
TICKED = 'export const tick = "`";\nexport const mark = `\n// b` as const;\n'
TICKED_USE = 'import { mark } from "./literal";\n\nexport const same: "\\n// b" = mark;\n'
CASES = {"continued": (CONTINUED, CONTINUED_USE), "ticked": (TICKED, TICKED_USE)}


def test_a_strings_line_is_no_comment() -> None:
    for literal, _ in CASES.values():
        assert shape(literal) != shape(literal.replace("// b", "// c"))
    # A comment line alone still leaves the shape as it was, beside a template too.
    plain = "export const t = `x`;\n// one\nexport const a = 1;\n"
    assert shape(plain) == shape(plain.replace("// one", "// two"))


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
