"""The chain of checker steps of a whole check: each step takes the files left, answers
those it can (a project's builder, results an edit cannot have changed, a server asked
without opening files), and leaves the rest to the next; what no step takes is asked file
by file. mypy's step takes its files and answers them later, its runs made while the rest
are asked (`whole_check._beside`). Adding a checker is adding a step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TypeVar

R = TypeVar("R")

# A step: the files left -> (their results, the files it asked anew, the files left).
Step = Callable[[list[Path]], Awaitable[tuple[list[R], list[Path], list[Path]]]]


async def chain(
    steps: Sequence[Step[R]], files: list[Path]
) -> tuple[list[R], list[Path], list[Path]]:
    """Each step in turn on what the ones before left: every result, every file asked
    anew, and the files no step took."""
    results: list[R] = []
    asked: list[Path] = []
    left = files
    for step in steps:
        found, anew, left = await step(left)
        results += found
        asked += anew
    return results, asked, left
