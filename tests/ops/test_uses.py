"""The lexical scan for a name's uses in code: never in comments or strings, per language."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.uses import (
    C_LIKE,
    GO,
    JAVASCRIPT,
    PYTHON,
    Dialect,
    code_names,
    count_words,
    find_uses,
)
from tests.conftest import FIXTURES
from tests.ops.python_tokens import names


def _found(text: str, name: str, dialect: Dialect) -> list[tuple[int, int, bool, bool]]:
    return [(u.line, u.column, u.member, u.literal) for u in find_uses(text, name, dialect)]


PY = '''\
"""fetch in a docstring, store.fetch() too."""
import os


def f(store, fetch):  # store.fetch in a comment
    x = store.fetch(1) + fetch + "fetch" + 'store.fetch' + b"fetch".decode()
    y = (store
         # a comment between the receiver and the name
         .fetch)
    z = getattr(store, "fetch")(), setattr(store, 'fetch', 1), hasattr(os.path, "fetch", )
    w = getattr(store, f"fetch"), getattr(store, "fetch" "x"), getattr("fetch", store)
    return f"{store.fetch}" + r"""
    store.fetch in a long string
    """ + store . fetch
'''


def test_python_names_in_code_only_with_getattr_strings() -> None:
    assert _found(PY, "fetch", PYTHON) == [
        (5, 14, False, False),  # the parameter
        (6, 15, True, False),
        (6, 26, False, False),
        (9, 11, True, False),  # after a dot on the line above a comment
        (10, 25, True, True),  # getattr's second argument, the name inside the quotes
        (10, 52, True, True),
        (10, 82, True, True),
        (12, 21, True, False),  # an f-string's field is code
        (14, 19, True, False),  # `store . fetch`
    ]


def test_python_uses_are_the_names_tokenize_finds_in_every_fixture_file() -> None:
    # Every identifier of every Python fixture file: the scan and `tokenize` agree.
    checked = 0
    for path in sorted(FIXTURES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        reference = names(text)
        assert code_names(text, PYTHON) == reference, path
        for name in {n for _, _, n in reference}:
            want = [(line, column) for line, column, n in reference if n == name]
            got = [(u.line, u.column) for u in find_uses(text, name, PYTHON) if not u.literal]
            assert got == want, (path, name)
            checked += 1
    assert checked > 100


SHELL = '''\
def echo(message):
    return message


SOURCE = """\\
%(complete_func)s() {
    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
%(complete_var)s=bash_complete $1)
    echo "$response"
}
""" % {"complete_func": echo("f")}
'''


def test_a_shell_script_in_a_formatted_string_with_line_continuations_is_text() -> None:
    # A backslash before a line break inside a string once ended the scan's idea of it.
    assert _found(SHELL, "echo", PYTHON) == [(1, 5, False, False), (11, 25, False, False)]


DJANGO = '''\
raise RuntimeError(
    "the URL doesn't end "
    "in a slash. Django can't "
    "redirect %(method)s data."
    % {"url": request.get_host() + new_path}
)


def set_language(request):
    """
    Redirect to the page in the request (the 'next' parameter).
    """
    if not allowed(url=next_url, allowed_hosts={request.get_host()}):
        return f"{request.get_host()!r:>{request.get_host()}} get_host {{request.get_host}}"
'''


def test_calls_after_apostrophes_and_docstrings_and_in_f_string_fields_are_code() -> None:
    assert _found(DJANGO, "get_host", PYTHON) == [
        (5, 23, True, False),
        (13, 57, True, False),
        (14, 27, True, False),  # an f-string's field, not its conversion, spec text or {{ }}
        (14, 50, True, False),  # a field inside the format spec
    ]
    assert _found(DJANGO, "r", PYTHON) == []  # `!r` converts; it names nothing


def test_python_string_prefixes_are_part_of_the_string() -> None:
    text = 'x = rb"f" + f"{f}" + Rb\'\\\'f\' + fr"\\{f}" + u"f" + F"\\N{DIGIT ONE}{f}"\n'
    found = code_names(text, PYTHON)
    assert found == [(1, 1, "x"), (1, 16, "f"), (1, 37, "f"), (1, 66, "f")] == names(text)


JS = """\
// store.fetch in a comment
/* store.fetch
   in a block */
const a = store.fetch(1) + 'store.fetch' + "fetch" + fetch;
const b = `store.fetch ${ (x as any).fetch({ k: `${ y.fetch }` }) } fetch`;
const r = /store.fetch/g.test(s) ? a / fetch / 2 : store?.fetch;
return /fetch/.source + q.fetch;
"""


def test_javascript_skips_comments_strings_template_text_and_regular_expressions() -> None:
    assert _found(JS, "fetch", JAVASCRIPT) == [
        (4, 17, True, False),
        (4, 54, False, False),
        (5, 38, True, False),  # code inside `${…}`
        (5, 55, True, False),  # a template inside that code
        (6, 40, False, False),  # between two divisions, not a regular expression
        (6, 59, True, False),  # `?.`
        (7, 27, True, False),
    ]


def test_go_raw_strings_and_c_member_operators() -> None:
    go = "x := s.fetch() + `s.fetch\nmore` + \"fetch\" // s.fetch\ny := 'f'; fetch()\n"
    assert _found(go, "fetch", GO) == [(1, 8, True, False), (3, 11, False, False)]
    c = "p->fetch(); q::fetch(); char c = 'f'; /* fetch */ r.fetch; fetched();\n"
    assert _found(c, "fetch", C_LIKE) == [
        (1, 4, True, False),
        (1, 16, True, False),
        (1, 53, True, False),
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_end_as_lsp_ends_them(newline: str) -> None:
    text = newline.join(["a = 1", "b.fetch()", "", "  fetch"]) + newline
    assert _found(text, "fetch", PYTHON) == [(2, 3, True, False), (4, 3, False, False)]


def test_non_ascii_columns_count_code_points() -> None:
    assert _found("é = 'ü'; é.fetch()\n", "fetch", PYTHON) == [(1, 12, True, False)]


def test_count_words_counts_every_whole_word_in_the_text() -> None:
    assert count_words("fetch fetched x.fetch # fetch\n'fetch' $fetch", "fetch") == 4
    assert count_words("nothing here", "fetch") == 0


def test_a_file_without_the_name_is_not_scanned(tmp_path: Path) -> None:
    assert find_uses("x = 1\n", "fetch", PYTHON) == []


def test_python_keyword_arguments_and_defaults_are_marked() -> None:
    text = "f(fetch=1, x == fetch, g(\n  fetch = 2)), fetch == 3\ndef h(a, fetch=None): ...\n"
    keywords = [(u.line, u.column) for u in find_uses(text, "fetch", PYTHON) if u.keyword]
    assert keywords == [(1, 3), (2, 3), (3, 10)]
    assert len(find_uses(text, "fetch", PYTHON)) == 5


def test_a_line_continued_inside_a_script_string_stays_a_string() -> None:
    js = "const s = 'a \\\nstore.fetch';\nconst t = \"b \\\r\n.fetch\" + store.fetch;\n"
    assert _found(js, "fetch", JAVASCRIPT) == [(4, 17, True, False)]
