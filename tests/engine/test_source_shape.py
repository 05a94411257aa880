"""What an edit leaves of a TypeScript text's shape (`source_shape.shape`): equal where only
`//` comments and blank lines changed, different where code, a string, a template, a regular
expression or a `///` directive did. The texts are TypeScript's lines and tokens: a form feed
ends no line, U+2028 does; a `//` inside a string, a template or a regular expression is
their text; a backtick in a JSDoc comment or a string begins no template. And which texts are
modules (`source_shape.module`): an import or export at the top level, not in a namespace."""

from __future__ import annotations

import pytest

from lspd.engine.source_shape import module, shape

# A module as effect's are written: JSDoc comments quoting code in backticks beside `*`.
JSDOC = """/**
 * Calls `f` with "its" argument: `pipe(x, f)`.
 *
 * @example
 * ```ts
 * const y = apply(1, (n) => n + 1) // 2
 * ```
 */
export const apply = <A, B>(a: A, f: (a: A) => B): B => f(a)

export const name = `apply's ${"name"}` as const
"""

ALIKE = {
    "a comment line added after JSDoc code": (JSDOC, JSDOC + "\n// a comment\n"),
    "a comment line removed": ("// one\n\nconst a = 1;\n", "const a = 1;\n// two\n"),
    "a comment after code": ("const a = 1; // one\n", "const a = 1; // two\n"),
    "a comment after a regex holding //": ("const r = /\\/\\//g; // c\n", "const r = /\\/\\//g;\n"),
    "a comment after divisions": ("const q = a / b / c; // c\n", "const q = a / b / c;\n"),
    "a comment after a template's ${}": (
        "const s = `${ {a: 1}.a }`; // c\n",
        "const s = `${ {a: 1}.a }`;\n",
    ),
    "blank lines and indentation": ("if (a) {\n  f();\n}\n", "if (a) {\n\n      f();\n}\n"),
}

DIFFERENT = {
    "code": (JSDOC, JSDOC + "\nexport const x = 1\n"),
    "a string holding // after a form feed": ('const m = "a\f// b";\n', 'const m = "a\f// c";\n'),
    "a line after U+2028": ("// a\u2028const a = 1;\n", "// a\u2028const a = 2;\n"),
    "a string continued on the next line": ('const m = "a\\\n// b";\n', 'const m = "a\\\n// c";\n'),
    "a template after a backtick in a string": (
        'const t = "`";\nconst m = `\n// b`;\n',
        'const t = "`";\nconst m = `\n// c`;\n',
    ),
    "a template's line": ("const m = `\n  // b`;\n", "const m = `\n  // c`;\n"),
    "a template's indentation": ("const m = `\n  b`;\n", "const m = `\n    b`;\n"),
    "a template inside a template": ("const m = `${`// b`}`;\n", "const m = `${`// c`}`;\n"),
    "a regular expression after return": (
        "return /[//]b/.test(s)\n",
        "return /[//]c/.test(s)\n",
    ),
    "a /// directive": ('/// <reference path="a.d.ts" />\n', '/// <reference path="b.d.ts" />\n'),
    "a block comment (a JavaScript file's JSDoc type)": (
        "/** @type {number} */\nlet a;\n",
        "/** @type {string} */\nlet a;\n",
    ),
    "a string's spaces": ('const m = "a  b";\n', 'const m = "a b";\n'),
    # A `/` after the `)` of an if/while/for head or a block's `}` begins a regular
    # expression: read as a division, its `//` was a comment hiding the rest of the line.
    "a regular expression after an if head": (
        "if (s) /[//]/.test(s); export const x = 1;\n",
        'if (s) /[//]/.test(s); export const x = "";\n',
    ),
    "a regular expression after a for await head": (
        "for await (const a of b) /[//]/.test(a); export const x = 1;\n",
        'for await (const a of b) /[//]/.test(a); export const x = "";\n',
    ),
    "a regular expression holding a quote after a while head": (
        'while (s) /"/.exec(s); export const y = "a // " + x;\n',
        'while (s) /"/.exec(s); export const y = "a // " + z;\n',
    ),
    "a regular expression after a block": (
        "function f() {}\n/[//]/.test(s); export const x = 1;\n",
        'function f() {}\n/[//]/.test(s); export const x = "";\n',
    ),
    "a regular expression after export default": (
        "export default /[//]/; export const x = 1;\n",
        'export default /[//]/; export const x = "";\n',
    ),
    # A keyword's name after a `.` is a property's: a division follows, no regular expression.
    "a division after a property named in": (
        "const r = a.in / 2 + '/'; const u = '// x' + y;\n",
        "const r = a.in / 2 + '/'; const u = '// x' + z;\n",
    ),
    # JSX text is no code: its `//` is no comment, its backtick begins no template.
    "JSX text holding //": (
        "export const A = () => <a>http://x</a>; export const x = 1;\n",
        'export const A = () => <a>http://x</a>; export const x = "";\n',
    ),
    "JSX text holding a backtick": (
        "export const A = () => <p>`</p>;\nexport const u = `http://${a}`;\n",
        "export const A = () => <p>`</p>;\nexport const u = `http://${b}`;\n",
    ),
}


@pytest.mark.parametrize("case", list(ALIKE))
def test_an_edit_of_comments_and_blank_lines_keeps_the_shape(case: str) -> None:
    before, after = ALIKE[case]
    assert shape(before) == shape(after)


@pytest.mark.parametrize("case", list(DIFFERENT))
def test_an_edit_of_anything_else_changes_it(case: str) -> None:
    before, after = DIFFERENT[case]
    assert shape(before) != shape(after)


def test_a_text_read_wrong_is_its_whole_text() -> None:
    # A string left open: the pass cannot tell code from text after it, so every edit counts.
    unclosed = 'const m = "a\n// b\nconst x = 1;\n'
    assert shape(unclosed) != shape(unclosed.replace("// b", "// c"))
    template = "const m = `${ f(\n// b\n"
    assert shape(template) != shape(template.replace("// b", "// c"))


MODULES = {
    "an import at the top": ("import { a } from './a'\n", True),
    "an export after a comment": ("/* a */\nexport const a = 1\n", True),
    "import.meta at a line's start": ("import.meta.hot?.accept()\n", True),
    "import.meta inside a line (a script: more files asked)": ("f(import.meta.url)\n", False),
    "an export after a namespace": ("namespace N {\n  export const a = 1\n}\nexport {}\n", True),
    "a namespace's exports alone": ("namespace N {\n  export const a = 1\n}\n", False),
    "a declare module's exports alone": ("declare module 'x' {\n  export const a: 1\n}\n", False),
    "a dynamic import": ("const a = import('./a')\n", False),
    "an export in a template": ("const s = `\nexport const x = 1\n`\n", False),
    "an export in a comment": ("/*\nexport const x = 1\n*/\n", False),
    "an export in a string's braces": (
        "const s = '{'\nnamespace N {\n  export const a = 1\n}\n",
        False,
    ),
    "a text not read (a string left open)": ("export const s = 'a\n", False),
    "a JSX text's line": ("const p = (\n  <p>\n    export this\n  </p>\n);\n", False),
    "a member's name on the next line": ("const r = api.\n  export();\n", False),
    "a namespace after a regular expression holding }": (
        "if (s) /}/.test(s);\nnamespace N {\n  export const a = 1;\n}\n",
        False,
    ),
}


@pytest.mark.parametrize("case", list(MODULES))
def test_a_module_has_an_import_or_export_at_its_top_level(case: str) -> None:
    text, expected = MODULES[case]
    assert module(text) is expected
