"""tsc's positions (ECMAScript's lines: U+2028 and U+2029 end one too) as LSP's."""

from __future__ import annotations

from lspd.lsp.text import from_ecmascript

TEXT = '/* a \u2028 b */\nexport function g(unused: number): void {\n  const m: number = "y";\n}\n'


def test_a_point_below_a_line_separator_is_on_the_lsp_line_holding_it() -> None:
    # tsc -p of TEXT: a.ts(3,19) TS6133 and a.ts(4,9) TS2322
    assert from_ecmascript(TEXT, 4, 9) == (3, 9)
    assert from_ecmascript(TEXT, 3, 19) == (2, 19)
    assert from_ecmascript(TEXT, 2, 4) == (1, 10)  # after U+2028, on its LSP line
    assert from_ecmascript(TEXT, 1, 1) == (1, 1)


def test_line_ends_and_utf16_columns() -> None:
    assert from_ecmascript("a\r\nb\u2029c", 3, 1) == (2, 3)
    assert from_ecmascript("x\u2028\U0001f600y", 2, 3) == (1, 5)  # the emoji: 2 units
    assert from_ecmascript("a\nb\n", 2, 1) == (2, 1)  # no separator: as it is
