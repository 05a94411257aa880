"""Where a name is used in code: a lexical scan per language that passes over comments and
strings, for the unresolved scan (`lspd.ops.unresolved`).

A use missed here is a use never reported, and a "use" in a comment or a docstring is noise
no server can resolve; so each language's scanner knows its comments and string literals
(Python's prefixes and triple quotes; TypeScript's template text, whose `${…}` parts are
code, and its regular-expression literals; Go's raw strings; C's character literals) and
passes over them whole. One compiled pattern walks a file: Python's `tokenize` finds the
same names (tests compare them) but took 0.7 s of CPU for the 74 Django files holding
`filter`, the whole budget of the scan; the pattern takes a twentieth of that.

A Python string equal to the name is a use only as the attribute name of `getattr`,
`setattr` or `hasattr` (`getattr(obj, "filter")`): no checker ties it to a declaration.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_PY_STRING = (
    r"(?:'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*")'
)
_C_COMMENT = r"//[^\n]*|/\*[\s\S]*?\*/"
_DOUBLE = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_SINGLE = r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
_CHAR = r"'(?:[^'\\\n]|\\[^\n][^'\n]{0,9})'"  # one character: Rust's `'a` lifetimes stay code
_ATTR_CALLS = r"(?<![\w.])(?:getattr|setattr|hasattr)\s*\("
_TEMPLATE_TEXT = re.compile(r"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*")
_REGEX_LITERAL = re.compile(r"/(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_BEFORE_REGEX = frozenset(
    [
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    ]
)
_NEWLINES = re.compile(r"\r\n|\r|\n")
_PREFIX = re.compile(r"\w+$")


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


PYTHON = Dialect("python", rf"#[^\n]*|{_PY_STRING}", attribute_calls=True)
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
def _pattern(dialect: Dialect, name: str, attribute_calls: bool, braces: bool) -> re.Pattern[str]:
    """Skipped text, then the name; with `attribute_calls` also getattr( and the brackets and
    commas around its arguments, with `braces` (inside a template's `${…}`) `{` and `}`,
    with templates a backquote and a slash (a regular expression or a division)."""
    parts = [f"(?P<skip>{dialect.skipped})"]
    if dialect.templates:
        parts.append(r"(?P<tick>`)|(?P<slash>/)")
    if attribute_calls:
        parts.append(f"(?P<call>{_ATTR_CALLS})|(?P<open>[(\\[{{])|(?P<close>[)\\]}}])|(?P<comma>,)")
    elif braces:
        parts.append(r"(?P<open>\{)|(?P<close>\})")
    parts.append(f"(?P<name>{_word_pattern(name, dialect.word).pattern})")
    return re.compile("|".join(parts))


def find_uses(text: str, name: str, dialect: Dialect) -> list[Use]:
    """Every place `name` stands in the code of `text` (not in its comments or strings),
    with the attribute names of Python's getattr/setattr/hasattr equal to it."""
    if name not in text:
        return []
    scan = _Scan(text, name, dialect)
    scan.run()
    return scan.uses


class _Scan:
    """One walk over a file's text (see `find_uses`)."""

    def __init__(self, text: str, name: str, dialect: Dialect) -> None:
        self.text, self.name, self.dialect = text, name, dialect
        quoted = (f"'{name}'", f'"{name}"')
        self.attribute_calls = dialect.attribute_calls and any(q in text for q in quoted)
        self.uses: list[Use] = []
        self.seen = (0, 0)  # (index, its line): lines are counted on from the last use
        self.lone_cr = "\r" in text  # lines may end with \r alone (LSP counts them)
        self.comments: dict[int, int] = {}  # end -> start of each comment seen
        # Open brackets: (is an attribute call's, commas so far), or "${" of a template.
        self.stack: list[tuple[bool, int] | str] = []
        self.patterns = {  # by whether a template's `${` is open
            inside: _pattern(dialect, name, self.attribute_calls, inside)
            for inside in (False, True)
        }

    def run(self) -> None:
        text, pos = self.text, 0
        last = text.rfind(self.name)  # nothing to find past it
        while pos <= last:
            match = self.patterns["${" in self.stack].search(text, pos)
            if match is None:
                return
            pos = match.end()
            kind = match.lastgroup
            if kind == "name":
                index = match.start()
                self._add(index, self._after_member(index), keyword=self._keyword(index, pos))
            elif kind == "skip":
                self._skipped(match)
            elif kind == "tick":
                pos = self._template(pos)
            elif kind == "slash":
                pos = self._slash(match.start())
            elif kind == "call":
                self.stack.append((True, 0))
            elif kind == "open":
                self.stack.append((False, 0))
            elif kind == "close":
                pos = self._close(pos)
            elif kind == "comma" and self.stack and isinstance(self.stack[-1], tuple):
                is_call, commas = self.stack[-1]
                self.stack[-1] = (is_call, commas + 1)

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

    def _skipped(self, match: re.Match[str]) -> None:
        """A comment is remembered (a member's dot may stand before it); a string equal to
        the name is a use as getattr's (setattr's, hasattr's) second argument."""
        value = match.group()
        if value[0] in "#/":
            self.comments[match.end()] = match.start()
            return
        if not self.attribute_calls or not self.stack:
            return
        prefix = _PREFIX.search(self.text, max(match.start() - 3, 0), match.start())
        plain = prefix is None or prefix.group().lower() in ("r", "u")  # not bytes, f-string
        if self.stack[-1] != (True, 1) or value[1:-1] != self.name or not plain:
            return
        after = self.text[match.end() : match.end() + 200].lstrip()
        if after[:1] in (",", ")"):  # not the first of strings written side by side
            self._add(match.start() + len(value) - len(self.name) - 1, True, literal=True)

    def _close(self, pos: int) -> int:
        if self.stack:
            top = self.stack.pop()
            if top == "${":  # back in the template's text
                return self._template(pos)
        return pos

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

    def _template(self, pos: int) -> int:
        """Past a template literal's text from `pos`: to its end, or into a `${` (code)."""
        match = _TEMPLATE_TEXT.match(self.text, pos)
        end = match.end() if match else pos
        if self.text.startswith("${", end):
            self.stack.append("${")
            return end + 2
        return end + 1  # the closing backquote (or the end of an unterminated text)

    def _slash(self, index: int) -> int:
        """Past a regular-expression literal starting at `index`, or just past a division."""
        text, i = self.text, index - 1
        while i >= 0 and text[i] in " \t\r\n":
            i -= 1
        if i >= 0 and (text[i] in ")]}" or text[i].isalnum() or text[i] in "_$"):
            start = i
            while start >= 0 and (text[start].isalnum() or text[start] in "_$"):
                start -= 1
            if text[start + 1 : i + 1] not in _BEFORE_REGEX:
                return index + 1  # a division
        match = _REGEX_LITERAL.match(text, index)
        return match.end() if match else index + 1
