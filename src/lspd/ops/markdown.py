"""Hover text as an agent should read it: markdown without HTML entities or empty sections.

Servers write hovers for editors that render HTML: basedpyright indents docstrings with
`&nbsp;` (about a sixth of a long docstring's characters), escapes `<`, `>`, `&`, and
separates sections with rules even when a section is empty.
"""

from __future__ import annotations

import html
import re
from typing import Any

_RULE = re.compile(r"^\s*(---+|\*\*\*+|___+)\s*$")
_EMPTY_FENCE = re.compile(r"```[\w+-]*\n\s*```\n?")
_BLANKS = re.compile(r"\n{3,}")


def markdown(contents: Any) -> str:
    """Hover contents (`MarkupContent`, `MarkedString` or a list of them) as one markdown."""
    if contents is None:
        return ""
    if isinstance(contents, str):
        return contents
    if isinstance(contents, list):
        return "\n\n".join(part for part in (markdown(item) for item in contents) if part)
    if "kind" in contents:  # MarkupContent
        return str(contents.get("value", ""))
    if "language" in contents:  # MarkedString with a language
        return f"```{contents['language']}\n{contents.get('value', '')}\n```"
    return str(contents.get("value", ""))


def clean(text: str) -> str:
    """Entities decoded (outside code too: `&nbsp;` becomes a space), trailing spaces,
    empty code blocks, rules that separate nothing and runs of blank lines dropped."""
    text = html.unescape(text).replace("\xa0", " ")
    text = _EMPTY_FENCE.sub("", text)
    lines = [line.rstrip() for line in text.splitlines()]
    kept: list[str] = []
    for line in lines:
        if _RULE.match(line):
            before = next((k for k in reversed(kept) if k.strip()), None)
            if before is None or _RULE.match(before):
                continue  # a rule after nothing, or after another rule
        kept.append(line)
    while kept and (not kept[-1].strip() or _RULE.match(kept[-1])):
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return _BLANKS.sub("\n\n", "\n".join(kept))
