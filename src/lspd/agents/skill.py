"""The agent-facing skill text, installed as a managed section of CLAUDE.md / AGENTS.md.

One source (`lspd/skill/lspd.md`) for every agent. The section sits between
markers so a re-run replaces it in place and leaves the rest of the file, which
belongs to the project, alone.
"""

from __future__ import annotations

import re
from importlib import resources

BEGIN = "<!-- lspd:begin (managed by `lspd sync --skill`; edits here are replaced) -->"
END = "<!-- lspd:end -->"
_SECTION = re.compile(r"<!-- lspd:begin[^\n]*?-->.*?<!-- lspd:end -->", re.DOTALL)


def skill_text() -> str:
    """The lspd skill (how an agent should use lspd) as shipped in the package."""
    return resources.files("lspd").joinpath("skill/lspd.md").read_text(encoding="utf-8")


def with_skill(existing: str | None, text: str | None = None) -> str:
    """`existing` (a file's text, or None when absent) with the skill section current."""
    body = (text if text is not None else skill_text()).strip("\n")
    section = f"{BEGIN}\n{body}\n{END}"
    if existing is None or not existing.strip():
        return section + "\n"
    if _SECTION.search(existing):
        return _SECTION.sub(lambda _match: section, existing, count=1)
    # Exactly one blank line between the project's text and our section.
    trailing_newlines = len(existing) - len(existing.rstrip("\n"))
    separator = "\n" * max(0, 2 - trailing_newlines)
    return existing + separator + section + "\n"
