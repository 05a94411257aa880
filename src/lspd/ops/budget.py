"""Keeping answers small enough for an agent's context, and saying when they were shortened."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from lspd.ops.models import CallHierarchyResult, FileReferences, Location, ReferencesResult

# Claude Code cuts or refuses results over ~25k tokens; stay well below 20,000 characters.
BUDGET_CHARS = 16_000

T = TypeVar("T")


def size(model: BaseModel) -> int:
    """The characters of the model as compact JSON."""
    return len(model.model_dump_json())


def fits(model: BaseModel) -> bool:
    """Whether the model fits the answer budget."""
    return size(model) <= BUDGET_CHARS


def fit_references(result: ReferencesResult, found: list[Location]) -> ReferencesResult:
    """Shorten progressively: drop source lines, then keep only counts per file."""
    if fits(result):
        return result
    without_text = result.model_copy(
        update={
            "detail": "locations",
            "truncated": True,
            "files": [
                f.model_copy(update={"references": _without_text(f.references)})
                for f in result.files
            ],
        }
    )
    if fits(without_text):
        return without_text
    counts: dict[str, int] = {}
    for location in found:
        counts[location.path] = counts.get(location.path, 0) + 1
    files = [FileReferences(path=p, count=c, references=[]) for p, c in counts.items()]
    shortened = ReferencesResult(files=files, total=len(found), truncated=True, detail="counts")
    while not fits(shortened) and len(shortened.files) > 1:
        shortened.files = _cut(shortened.files)
    return shortened


def fit_calls(result: CallHierarchyResult) -> CallHierarchyResult:
    """Shorten progressively: drop the call sites' source lines, then the call sites, then calls."""
    if fits(result):
        return result
    without_text = result.model_copy(
        update={
            "detail": "locations",
            "truncated": True,
            "calls": [
                c.model_copy(update={"call_sites": _without_text(c.call_sites)})
                for c in result.calls
            ],
        }
    )
    if fits(without_text):
        return without_text
    shortened = result.model_copy(
        update={
            "detail": "calls",
            "truncated": True,
            "calls": [c.model_copy(update={"call_sites": []}) for c in result.calls],
        }
    )
    while not fits(shortened) and len(shortened.calls) > 1:
        shortened.calls = _cut(shortened.calls)
    return shortened


def _without_text(locations: list[Location]) -> list[Location]:
    return [location.model_copy(update={"text": ""}) for location in locations]


def _cut(items: list[T]) -> list[T]:
    """The first three quarters: the next try at fitting a list into the budget."""
    return items[: len(items) * 3 // 4]
