"""Where a name is used in code: a lexical scan per language that passes over comments and
strings, for the unresolved scan (`lspd.ops.unresolved`).

A use missed here is a use never reported, and a "use" in a comment or a docstring is noise
no server can resolve; so each language's scanner knows its comments and string literals
and passes over them whole: Python's prefixes, triple quotes, backslash continuations and
f-strings (whose replacement fields are code, their text and format specs not); TypeScript's
template text (whose `${…}` parts are code) and its regular-expression literals; Go's raw
strings; C's character literals. One compiled pattern walks a file. For Python it finds the
names Python's `tokenize` finds, on every file of the standard library (tests/ops/
test_uses.py), at a twentieth of its CPU: `tokenize` took 0.7 s for the 74 Django files
holding `filter`, the whole budget of the scan.

A Python string equal to the name is a use only as the attribute name of `getattr`,
`setattr` or `hasattr` (`getattr(obj, "filter")`): no checker ties it to a declaration.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lspd.ops.string_text import Field, f_string_text, format_spec, regex_end, template_end

_ESCAPE = r"\\(?:\r\n|[\s\S])"  # a backslash and what it escapes (a line break too)
_PY_STRING = (  # from the quotes (its prefix is looked at apart); unterminated: to its end
    rf"(?:'''[^'\\]*(?:(?:{_ESCAPE}|'(?!''))[^'\\]*)*(?:'''|\Z)"
    rf'|"""[^"\\]*(?:(?:{_ESCAPE}|"(?!""))[^"\\]*)*(?:"""|\Z)'
    rf"|'[^'\\\r\n]*(?:{_ESCAPE}[^'\\\r\n]*)*'?"
    rf'|"[^"\\\r\n]*(?:{_ESCAPE}[^"\\\r\n]*)*"?)'
)
# A string's prefix (`rb`, `f`, ...), looked at before its quote: a pattern starting with
# one (or with any lookbehind) is tried at every position of the text, 3-4x slower.
_STRING_PREFIX = re.compile(r"(?<!\w)[rRbBuUfFtT]{1,2}$")
_QUOTE = re.compile(r"'''|\"\"\"|'|\"")
_FLOAT_BEFORE = re.compile(r"(?<!\w)\d[\d_]*\.$")  # `1.` before `e5`: a number, `1.e5`
_C_COMMENT = r"//[^\n]*|/\*[\s\S]*?\*/"
_DOUBLE = rf'"[^"\\\n]*(?:{_ESCAPE}[^"\\\n]*)*"'
_SINGLE = rf"'[^'\\\n]*(?:{_ESCAPE}[^'\\\n]*)*'"
_CHAR = r"'(?:[^'\\\n]|\\[^\n][^'\n]{0,9})'"  # one character: Rust's `'a` lifetimes stay code
_ATTR_CALLS = r"(?<![\w.])(?:getattr|setattr|hasattr)\s*\("
_NEWLINES = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Use:
    """One place a name stands in code: 1-based line, column in code points."""

    line: int
    column: int
    member: bool  # after `.` (or `->`, `::`): an attribute, method or property of something
    literal: bool = False  # the name as a string in getattr/setattr/hasattr
    keyword: bool = False  # Python's `name=` after `(` or `,`: a keyword argument or default


@dataclass(frozen=True)
class Dialect:
    """What a language's scanner passes over."""

    name: str
    skipped: str  # comments and string literals, as one pattern
    word: str = r"\w"  # the characters of an identifier
    templates: bool = False  # JavaScript's template literals and regular expressions
    attribute_calls: bool = False  # Python's getattr/setattr/hasattr
    f_strings: bool = False  # Python's f-strings (and t-strings)


PYTHON = Dialect("python", rf"#[^\r\n]*|{_PY_STRING}", attribute_calls=True, f_strings=True)
JAVASCRIPT = Dialect("javascript", rf"{_C_COMMENT}|{_DOUBLE}|{_SINGLE}", r"[\w$]", templates=True)
GO = Dialect("go", rf"{_C_COMMENT}|{_DOUBLE}|`[^`]*`|{_CHAR}")
C_LIKE = Dialect("c", rf"{_C_COMMENT}|{_DOUBLE}|{_CHAR}")

_BY_LANGUAGE = {
    "python": PYTHON,
    "typescript": JAVASCRIPT,
    "typescriptreact": JAVASCRIPT,
    "javascript": JAVASCRIPT,
    "javascriptreact": JAVASCRIPT,
    "go": GO,
    **dict.fromkeys(("c", "cpp", "objective-c", "rust", "java", "csharp", "kotlin"), C_LIKE),
}


def dialect_for(language_id: str) -> Dialect | None:
    """The scanner of an LSP language id; None for a language without one (shell, ...)."""
    return _BY_LANGUAGE.get(language_id)


def count_words(text: str, name: str) -> int:
    """Places the name stands as a whole word, comments and strings included: what a
    plain text search would hand a reader."""
    return len(_word_pattern(name, r"[\w$]").findall(text)) if name in text else 0


@functools.lru_cache(maxsize=64)
def _word_pattern(name: str, word: str) -> re.Pattern[str]:
    # The name first, then what stands around it: a pattern starting with a literal is
    # searched for by that literal (a lookbehind first tries every position).
    name = re.escape(name)
    return re.compile(rf"{name}(?<!{word}{name})(?!{word})")


@functools.lru_cache(maxsize=64)
def _pattern(dialect: Dialect, name: str, attribute_calls: bool, inside: bool) -> re.Pattern[str]:
    """Skipped text, then the name (any name when `name` is empty); with `attribute_calls`
    also getattr( and the brackets and commas around its arguments; `inside` a template's
    `${…}` its braces, inside an f-string's field its brackets, `:` and `!`; with templates
    a backquote and a slash (a regular expression or a division)."""
    parts = [f"(?P<skip>{dialect.skipped})"]
    if dialect.templates:
        parts.append(r"(?P<tick>`)|(?P<slash>/)")
    if attribute_calls:
        parts.append(f"(?P<call>{_ATTR_CALLS})")
    if attribute_calls or (inside and dialect.f_strings):
        parts.append(r"(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<comma>,)")
    elif inside:
        parts.append(r"(?P<open>\{)|(?P<close>\})")
    if inside and dialect.f_strings:
        parts.append(r"(?P<colon>:)|(?P<bang>!(?!=)\w*)")
    word = dialect.word
    named = _word_pattern(name, word).pattern if name else rf"(?<!{word})[^\W\d]{word}*"
    parts.append(f"(?P<name>{named})")
    return re.compile("|".join(parts))


def find_uses(text: str, name: str, dialect: Dialect) -> list[Use]:
    """Every place `name` stands in the code of `text` (not in its comments or strings),
    with the attribute names of Python's getattr/setattr/hasattr equal to it."""
    if name not in text:
        return []
    scan = _Scan(text, name, dialect)
    scan.run()
    return scan.uses


def code_names(text: str, dialect: Dialect) -> list[tuple[int, int, str]]:
    """Every name in the code of `text`: (line, column, name), in order (what the scan
    takes for code, all at once: tests compare it with the language's own tokenizer)."""
    scan = _Scan(text, "", dialect)
    scan.run()
    lines = _NEWLINES.split(text)
    word = re.compile(f"{dialect.word}+")
    found = []
    for use in scan.uses:
        match = word.match(lines[use.line - 1], use.column - 1)
        found.append((use.line, use.column, match.group() if match else ""))
    return found


Frame = tuple[bool, int] | str | Field  # a bracket: (an attribute call's?, commas); `${`; a field


class _Scan:
    """One walk over a file's text (see `find_uses`)."""

    def __init__(self, text: str, name: str, dialect: Dialect) -> None:
        self.text, self.name, self.dialect = text, name, dialect
        quoted = (f"'{name}'", f'"{name}"')
        self.attribute_calls = (
            bool(name) and dialect.attribute_calls and any(q in text for q in quoted)
        )
        self.uses: list[Use] = []
        self.seen = (0, 0)  # (index, its line): lines are counted on from the last use
        self.lone_cr = "\r" in text  # lines may end with \r alone (LSP counts them)
        self.comments: dict[int, int] = {}  # end -> start of each comment seen
        self.stack: list[Frame] = []  # open brackets, template `${`, f-string fields
        self.inside = 0  # of them, `${` and fields: code inside a string
        self.patterns = {
            inside: _pattern(dialect, name, self.attribute_calls, inside)
            for inside in (False, True)
        }

    def run(self) -> None:
        text, pos = self.text, 0
        last = text.rfind(self.name) if self.name else len(text)  # nothing to find past it
        while pos <= last:
            match = self.patterns[self.inside > 0].search(text, pos)
            if match is None:
                return
            pos = match.end()
            kind = match.lastgroup
            if kind == "name":
                index = match.start()
                if not self._not_a_name(index, pos):
                    self._add(index, self._after_member(index), keyword=self._keyword(index, pos))
            elif kind == "skip":
                quoted = self.dialect.f_strings and text[match.start()] in "'\""
                prefix = self._prefix(match.start()) if quoted else ""
                if "f" in prefix or "t" in prefix:  # an f-string: its fields are code
                    quote = _QUOTE.match(text, match.start()).group()  # type: ignore[union-attr]
                    pos = self._text(Field(quote, "r" in prefix), match.start() + len(quote))
                else:
                    self._skipped(match, prefix)
            elif kind == "tick":
                pos = self._template(pos)
            elif kind == "slash":
                pos = regex_end(text, match.start())
            elif kind == "call":
                self.stack.append((True, 0))
            elif kind == "open":
                self.stack.append((False, 0))
            elif kind == "close":
                pos = self._close(pos)
            elif kind == "comma" and self.stack and isinstance(self.stack[-1], tuple):
                is_call, commas = self.stack[-1]
                self.stack[-1] = (is_call, commas + 1)
            elif kind == "colon" and self.stack and isinstance(self.stack[-1], Field):
                self.stack[-1].spec = True  # `{value:>{width}}`: the format spec is text
                pos = self._spec(pos)

    def _add(self, index: int, member: bool, literal: bool = False, keyword: bool = False) -> None:
        text = self.text
        if self.lone_cr:
            text = text[:index].replace("\r\n", "\n").replace("\r", "\n")
            line = text.count("\n")
        else:
            seen, before = self.seen
            line = before + text.count("\n", seen, index)
            self.seen = (index, line)
        start = max(self.text.rfind("\n", 0, index), self.text.rfind("\r", 0, index)) + 1
        self.uses.append(Use(line + 1, index - start + 1, member, literal, keyword))

    def _prefix(self, quote: int) -> str:
        """The prefix of the Python string whose quote is at `quote`, in lower case."""
        found = _STRING_PREFIX.search(self.text, max(quote - 2, 0), quote)
        return found.group().lower() if found else ""

    def _not_a_name(self, index: int, end: int) -> bool:
        """Whether the Python "name" from `index` to `end` is a string's prefix (`rb"…"`)
        or the exponent of a number (`1.e5`)."""
        if not self.dialect.f_strings:
            return False
        text = self.text
        if text[end : end + 1] in ("'", '"') and _STRING_PREFIX.search(text, index, end):
            return True
        return text[index] in "eEjJ" and bool(_FLOAT_BEFORE.search(text, max(index - 40, 0), index))

    def _skipped(self, match: re.Match[str], prefix: str = "") -> None:
        """A comment is remembered (a member's dot may stand before it); a string equal to
        the name is a use as getattr's (setattr's, hasattr's) second argument."""
        value = match.group()
        if value[0] in "#/":
            self.comments[match.end()] = match.start()
            return
        if not self.attribute_calls or not self.stack:
            return
        plain = prefix in ("", "r", "u")  # not bytes
        if self.stack[-1] != (True, 1) or value[1:-1] != self.name or not plain:
            return
        after = self.text[match.end() : match.end() + 200].lstrip()
        if after[:1] in (",", ")"):  # not the first of strings written side by side
            self._add(match.end() - len(self.name) - 1, True, literal=True)

    def _close(self, pos: int) -> int:
        if not self.stack:
            return pos
        top = self.stack.pop()
        if top == "${":  # back in the template's text
            self.inside -= 1
            return self._template(pos)
        if isinstance(top, Field):  # back in the f-string's text, or its field's spec
            self.inside -= 1
            outer = self.stack[-1] if self.stack else None
            if isinstance(outer, Field) and outer.spec:
                return self._spec(pos)
            return self._text(top, pos)
        return pos

    def _text(self, field: Field, pos: int) -> int:
        """Past an f-string's text from `pos`: to its end, or into a field (code)."""
        end, opened = f_string_text(self.text, pos, field)
        if opened:
            self.stack.append(Field(field.quote, field.raw))
            self.inside += 1
        return end

    def _spec(self, pos: int) -> int:
        """Past a format spec's text: into a nested field, or past the field's end."""
        end, char = format_spec(self.text, pos)
        top = self.stack[-1]
        if char == "{" and isinstance(top, Field):
            self.stack.append(Field(top.quote, top.raw))
            self.inside += 1
            return end
        return self._close(end) if char == "}" else end

    def _template(self, pos: int) -> int:
        """Past a template literal's text from `pos`: to its end, or into a `${` (code)."""
        end, opened = template_end(self.text, pos)
        if opened:
            self.stack.append("${")
            self.inside += 1
        return end

    def _keyword(self, index: int, end: int) -> bool:
        """Whether the Python name from `index` to `end` is followed by `=` (not `==`) and
        follows `(` or `,`: it names a parameter (`f(name=1)`), not the symbol."""
        if not self.dialect.attribute_calls:
            return False
        text = self.text
        while end < len(text) and text[end] in " \t":
            end += 1
        if text[end : end + 1] != "=" or text[end : end + 2] == "==":
            return False
        before = text[max(index - 200, 0) : index].rstrip()
        return before.endswith(("(", ","))

    def _after_member(self, index: int) -> bool:
        """Whether `.` (`->`, `::`) stands before `index`, past spaces, line breaks,
        backslash continuations and comments."""
        text, i = self.text, index - 1
        while i >= 0:
            char = text[i]
            if char in " \t\r\n\\\f":
                i -= 1
            elif i + 1 in self.comments:
                i = self.comments[i + 1] - 1
            else:
                break
        if i < 0:
            return False
        return text[i] == "." or text[max(i - 1, 0) : i + 1] in ("->", "::")
