"""bench/kept.py: rewriting docs/benchmarks.md keeps what a person wrote there by hand."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

from kept import read

PAGE = """\
# Benchmarks

## Headlines

- **Soak**: 20000 calls, rendered from the results.
- **Unresolved uses** (Django): measured by hand,
  on two lines.

## bench/ops.py

What ops measures.

`python bench/ops.py` at 2026-11-22 14:02 UTC on commit `932280e` — 33 s

```
table
```

Why the table reads as it does.

## bench/heavy.py

Run by hand only.

`python bench/heavy.py` at 2026-11-26 10:15 UTC on commit `bb6ccf9`

| a | b |
"""


def test_headlines_the_renderer_does_not_write_are_kept_with_their_lines() -> None:
    kept = read(PAGE, written={"Soak"})
    assert kept.headlines == ["- **Unresolved uses** (Django): measured by hand,\n  on two lines."]


def test_each_scripts_section_its_prose_and_when_it_ran() -> None:
    kept = read(PAGE, written=set())
    assert sorted(kept.sections) == ["heavy", "ops"]
    assert kept.sections["heavy"].startswith("## bench/heavy.py\n\nRun by hand only.")
    assert kept.sections["heavy"].endswith("| a | b |\n")
    assert kept.prose == {"ops": "Why the table reads as it does.", "heavy": ""}
    assert kept.when == {"ops": "2026-11-22 14:02", "heavy": "2026-11-26 10:15"}


def test_a_result_no_newer_than_the_page_leaves_its_section_as_written() -> None:
    kept = read(PAGE, written=set())
    assert kept.holds("ops", "2026-11-22 14:02")  # the page's own run, maybe edited by hand
    assert not kept.holds("ops", "2026-11-23 09:00")  # a later run: rendered
    assert not kept.holds("gate", "2026-11-01 00:00")  # not on the page


def test_prose_after_a_failed_runs_error_lines() -> None:
    section = PAGE.split("## bench/heavy.py")[0].replace(
        "```\n\nWhy", "```\n\nIts last error lines:\n\n```\nTraceback\n```\n\nWhy"
    )
    assert read(section, written=set()).prose["ops"] == "Why the table reads as it does."
