"""Where dmypy's local partial types make its answer another than mypy's. dmypy always
checks with them on (its `process_start_options`); mypy before 2.0 has them off unless
configured. A partial type at a module's or class's top (`_KEEP_ALIVE = set()`) completed
in a function is then "Need type annotation" [var-annotated] for dmypy alone (mitmproxy:
3 errors its mypy 1.20 never says); and where that error is disabled or ignored, dmypy's
`set[Any]` hides an error mypy's `set[int]` makes (a `return-value` mypy 1.19 says and
dmypy does not).

So where they differ (`differ`), a dmypy answer asking for an annotation that mypy run once
has not said too (`asked`) is asked of mypy once; where mypy's answer is another, so is
every later question, while they differ. Where the configuration or a file hides the error
(`hidden`), every question is: dmypy's answer then shows nothing to doubt.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from lspd.workspace.mypy_mirror import PYTHON
from lspd.workspace.mypy_once import Read, codes, true

_ON_BY_DEFAULT = (2, 0)  # the first mypy with local partial types on by default, as dmypy
_OPTIONS = ("--local-partial-types", "--no-local-partial-types")
_CODE = "var-annotated"
_ASKED = re.compile(r'Need type annotation for "([^"]+)"')
_TEXT_PATH = re.compile(r"^(.+?):\d+(?::\d+)*: ")
# an assignment making a partial type at a top, its error ignored (`# type: ignore`, or
# one naming var-annotated)
_IGNORED = re.compile(
    rb"^\w+[ \t]*=[ \t]*(?:None|\[\]|\{\}|(?:set|list|dict)\(\))[ \t]*#[ \t]*type:[ \t]*ignore"
    rb"(\[[^\]\n]*\])?",
    re.MULTILINE,
)
_INLINE = re.compile(rb"^#\s*mypy:.*disable[-_]error[-_]code.*var-annotated", re.MULTILINE)


def differ(version: tuple[int, ...] | None, read: Read, arguments: Sequence[str]) -> bool:
    """Whether mypy `version`, run once with the configuration `read` (`sections_read`)
    and the command's `arguments`, checks without local partial types."""
    if version is not None and version >= _ON_BY_DEFAULT:
        return False
    given = [a for a in arguments if a in _OPTIONS]
    if given:
        return given[-1] != "--local-partial-types"
    return not all(s and true(s[0].get("local_partial_types")) for _, s in read)


def asked(out: str) -> Counter[tuple[str, str]]:
    """How many times mypy's or dmypy's output (text or JSON lines) asks an annotation of
    each variable, by file and name: the errors local partial types may add, wherever an
    edit moves them (a name asked twice in a file where mypy asks once: one of dmypy's)."""
    found: Counter[tuple[str, str]] = Counter()
    for line in out.splitlines():
        if _CODE not in line:
            continue
        if line.startswith("{"):
            try:
                error = json.loads(line)
            except ValueError:
                continue
            path, message = str(error.get("file")), str(error.get("message"))
        elif (at := _TEXT_PATH.match(line)) is not None:
            path, message = at[1], line[at.end() :]
        else:
            continue
        if (name := _ASKED.search(message)) is not None:
            found[(path, name[1])] += 1
    return found


def doubted(said: Counter[tuple[str, str]], vouched: Counter[tuple[str, str]]) -> bool:
    """Whether dmypy `said` an annotation more times than mypy run once has (`vouched`)."""
    return any(count > vouched[key] for key, count in said.items())


def hidden(texts: dict[str, bytes], read: Read) -> bool:
    """Whether the configuration `read` (`sections_read`) disables var-annotated (in any
    section), or a file of `texts` does (`# mypy: disable-error-code=...`) or ignores it on
    an assignment making a partial type at a top."""
    if any(_CODE in codes(s.get("disable_error_code")) for _, ss in read for s in ss):
        return True
    for name, data in texts.items():
        if not name.endswith(PYTHON) or (b"ignore" not in data and b"mypy:" not in data):
            continue
        if _INLINE.search(data):
            return True
        ignored = (m[1] for m in _IGNORED.finditer(data))
        if any(given is None or _CODE.encode() in given for given in ignored):
            return True
    return False
