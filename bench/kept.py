"""What a person wrote into docs/benchmarks.md by hand, kept when `bench/report.py` rewrites it.

Benchmarks run by hand (a quiet machine, a long project download) land on the page with a
headline and prose around their table, and not in benchmarks.json. Rewriting the page from
the json alone dropped them: `scripts/bench --only ops` erased every other script's
hand-written section. So the page is read first: a script with no result to render keeps
its section as it was; a rendered one keeps the prose written after its output block; a
headline the renderer does not write (its bold label is not one of `written`) is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SECTION = re.compile(r"^## (.+)$", re.MULTILINE)
_SCRIPT = re.compile(r"^bench/(\w+)\.py$")
_LABEL = re.compile(r"^- \*\*(.+?)\*\*")
_WHEN = re.compile(r" at (\d{4}-\d\d-\d\d \d\d:\d\d) UTC")


@dataclass
class Kept:
    """The hand-written parts of the page as it was."""

    headlines: list[str] = field(default_factory=list)
    """Headline bullets (with their continuation lines) the renderer does not write."""
    sections: dict[str, str] = field(default_factory=dict)
    """Each script's whole section, by script name, heading included."""
    prose: dict[str, str] = field(default_factory=dict)
    """Each script's text after its output block (and its error block), by script name."""
    when: dict[str, str] = field(default_factory=dict)
    """When each script's section says it ran (`YYYY-MM-DD HH:MM`, UTC), by script name."""

    def holds(self, name: str, when: str) -> bool:
        """Whether the page holds the run of `name` at `when` or a later one (a run by hand,
        written into the page and not into benchmarks.json): its section is then kept as
        written, edits by hand included."""
        return self.when.get(name, "") >= when


def sections(page: str) -> dict[str, str]:
    """The page's `## ` sections by heading, each from its heading to the next."""
    starts = [(m.start(), m.group(1).strip()) for m in _SECTION.finditer(page)]
    ends = [start for start, _ in starts[1:]] + [len(page)]
    return {title: page[start:end] for (start, title), end in zip(starts, ends, strict=True)}


def after_output(section: str) -> str:
    """The prose after a rendered section's output block: after its second fence, or its
    fourth when the script's last error lines follow in a block of their own."""
    fences = [m.end() for m in re.finditer(r"^```$\n?", section, re.MULTILINE)]
    if len(fences) < 2:
        return ""
    end = fences[3] if len(fences) >= 4 and "Its last error lines:" in section else fences[1]
    return section[end:].strip()


def read(page: str, written: set[str]) -> Kept:
    """The hand-written parts of `page`; `written`: the bold labels of the headlines the
    renderer writes itself (those are always rendered afresh)."""
    kept = Kept()
    for title, text in sections(page).items():
        if title == "Headlines":
            kept.headlines = _bullets(text, written)
        elif found := _SCRIPT.match(title):
            kept.sections[found.group(1)] = text.rstrip() + "\n"
            kept.prose[found.group(1)] = after_output(text)
            if stamp := _WHEN.search(text):
                kept.when[found.group(1)] = stamp.group(1)
    return kept


def _bullets(text: str, written: set[str]) -> list[str]:
    """The section's bullets, each with the lines continuing it, but those labelled `written`."""
    bullets: list[list[str]] = []
    for line in text.splitlines()[1:]:
        if line.startswith("- "):
            bullets.append([line])
        elif line.strip() and bullets:
            bullets[-1].append(line)
    return [
        "\n".join(b)
        for b in bullets
        if not ((label := _LABEL.match(b[0])) and label.group(1) in written)
    ]
