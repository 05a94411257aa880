"""The scan of Python code (`lspd.ops.uses`) against Python's own tokenizer on every file of
a large real project: the standard library of the Python running the tests (1,787 files of
3.11), pinned and on disk. The names in code are the same, file by file, f-strings' fields
included (`tests/ops/python_tokens.py`); a file `tokenize` rejects (a test of bad syntax, a
Python 2 file) is not Python and is left out."""

from __future__ import annotations

import sysconfig
import tokenize
from pathlib import Path

from lspd.ops.uses import PYTHON, code_names
from tests.ops.python_tokens import names

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _sources() -> list[tuple[Path, str]]:
    found = []
    for path in sorted(STDLIB.rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            with tokenize.open(path) as file:
                found.append((path, file.read()))
        except (SyntaxError, UnicodeDecodeError):
            continue
    return found


def test_every_name_in_the_standard_library_is_the_one_tokenize_finds() -> None:
    checked, differ, f_strings = 0, [], 0
    for path, text in _sources():
        try:
            reference = names(text)
        except (SyntaxError, tokenize.TokenError):
            continue  # not Python (a test of bad syntax, a Python 2 file)
        checked += 1
        f_strings += 'f"' in text or "f'" in text
        if code_names(text, PYTHON) != reference:
            differ.append(path.relative_to(STDLIB))
    assert differ == []
    assert checked > 1500 and f_strings > 100
