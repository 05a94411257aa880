"""A TypeScript 7 edit that changes only `//` comment lines and blank lines asks no importer
again (`native_reach.shape`); its lines are TypeScript's: a form feed inside a string is no
line end there, so `// ` after it is the string's text, and its edit reaches the importers
(Python's `str.splitlines` cut the line there and took it for a comment: the importer kept
its old answer). Real TypeScript 7.0.2, its `tsc -p` beside."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.native_reach import shape
from tests.conftest import warm_root
from tests.engine.test_native_check import check, native_project, tsc

LITERAL = 'export const mark = "a\f// b" as const;\n'
USE = 'import { mark } from "./literal";\n\nexport const same: "a\f// b" = mark;\n'


def test_a_line_is_typescripts() -> None:
    assert shape("// one\n\nconst a = 1;\n") == shape("const a = 1;\n// two\n")
    assert shape(LITERAL) != shape(LITERAL.replace("// b", "// c"))
    assert shape("// a\u2028const a = 1;\n") != shape("// a\u2028const a = 2;\n")


def test_a_comment_mark_inside_a_string_is_code(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/literal.ts").write_text(LITERAL)
    (root / "src/use.ts").write_text(USE)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / "src/literal.ts").write_text(LITERAL.replace("// b", "// c"))
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2322")}
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth
