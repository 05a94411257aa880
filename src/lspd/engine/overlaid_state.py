"""The state a set of texts would make, never written: the check engine's run with them
overlaid on the work tree's last check (`check_all`, which must come first).

- TypeScript files a builder checks: the builder over a host serving the texts
  (`engine/overlaid.py`): only the files it would re-check are checked, its kept state is
  left for the next real check;
- the files of other servers (basedpyright, TypeScript 7, ...): the texts held while the
  files the whole check would ask after such an edit are asked (`engine/proposal_reach.py`);
  mypy's projects' files in one run of its daemon;
- a TypeScript 7 file another program of its solution-style layout holds: that program's
  errors of it too, its own tsc -p on a copy holding the texts (`engine/solution_check.py`).
Python files edited in comments and blank lines alone are not asked: the disk's results,
moved with their lines (`engine/python_trivia.py`). Every other file's result is the work
tree's check's. Three callers: `preview` (the proposed texts, `ops/overlaid_check.py`), the
committed state of a dirty work tree (HEAD's texts of the changed files,
`engine/committed.py`) and a baseline's files outside the gate (`ops/beyond_gate.py`, with
`only` those files).

The results are the caller's (`Held`: `ops/overlaid_state.py` makes `DiagnosticsResult`s
of a builder's items and asks the servers with the texts held); the engine decides which
files are checked, by whom.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar, cast

from lspd.engine.builders import builder_for, builder_stop
from lspd.engine.check_state import CheckState
from lspd.engine.mypy_project import by_project
from lspd.engine.native_declared import declared_alike
from lspd.engine.native_held import native_held, native_stopped
from lspd.engine.native_reach import native
from lspd.engine.overlaid import Overlaid, builders_overlaid
from lspd.engine.proposal_reach import reached
from lspd.engine.python_affected import PYTHON, movable
from lspd.engine.python_trivia import Moves
from lspd.engine.results import FileResult
from lspd.engine.solution_check import held_also, held_unbuilt
from lspd.engine.source_shape import shape
from lspd.engine.stops import Stop
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.scope import solution_of
from lspd.workspace.tsbuilder import Items

R = TypeVar("R", bound=FileResult)
Texts = Mapping[Path, str | None]  # file -> its text (None: absent)


class Held(Protocol[R]):
    """How the caller makes the results of texts never written."""

    def built(self, items: Mapping[Path, Items], texts: Texts) -> Mapping[Path, R]:
        """A builder's items as results, their positions read in `texts` (the disk's for
        the other files), as the whole check makes them (`engine/builders.py`)."""
        ...

    def moved(self, result: R, moves: Moves) -> R | None:
        """The disk's `result` with its diagnostics moved to their lines after an edit of
        comments and blank lines (`engine/python_trivia.py`); None when one stands off the
        moved code."""
        ...

    def joined(self, result: R, said: str, items: Items, texts: Texts) -> R:
        """`result` and `items`, what another program's tsc (`said`: `tsc -p CONFIG`) says
        of its file in the state `texts` make, one result, as the whole check joins them
        (`Checks.merged`; `engine/solution_check.py`)."""
        ...

    async def asked(
        self, files: list[Path], texts: Texts, stops: list[Stop] | None = None
    ) -> Sequence[R]:
        """The results of `files` while the servers hold `texts` (the disk's for the rest),
        asked in that order; a file absent in that state has none. A checker that stopped
        at syntax errors (mypy's run) is added to `stops`."""
        ...


@dataclass(frozen=True)
class OverlaidState(Generic[R]):
    """What the engine says with the texts overlaid: the results of the files it checked
    anew for them (the changed ones among them), the files the servers were asked
    one by one (the texts they held: `held`), and the checkers that stopped at syntax
    errors (`engine/stops.py`: what they did not check is unknown, not fixed)."""

    results: dict[Path, R]
    asked: list[Path]
    held: dict[Path, str | None]
    stopped: list[Stop] = field(default_factory=list)
    # of `results`, a builder's files answered as its last check left them, not checked anew
    # (a program emitting declarations answers every file: hono's 328, 1 checked anew)
    not_anew: frozenset[Path] = frozenset()


async def overlaid_state(
    ws: Workspace,
    texts: Texts,
    checked: Collection[Path],
    held_by: Held[R],
    memory: CheckState[R],
    only: Collection[Path] | None = None,
) -> OverlaidState[R]:
    """The results `texts` (file -> its text, None: absent) would make, of the files the
    engine would check again for them; `checked`: the files of the work tree's check,
    `memory`: what its checks saw of the files (`CheckState`). With `only`, of those files
    alone (the changed files are then not asked for their own sake, and no builder runs
    when none of `only` is a builder's)."""
    owner = functools.partial(builder_for, ws)
    wanted = None if only is None else set(only)
    built = Overlaid()
    if wanted is None or any(owner(p) is not None for p in wanted):
        solution = solution_of(ws)
        built = await builders_overlaid(texts, owner, solution.also, solution.once)
    made = held_by.built(built.items, texts)
    stops = [builder_stop(ws, p.stopped, p.items, p.files) for p in built.stopped]
    results = {p: r for p, r in made.items() if _in(p, wanted)}
    # The servers' files: a builder's changed file goes to a server only when its program
    # does not hold it (a new file no tsconfig includes or imports: tsserver places it).
    held = {
        p: t
        for p, t in texts.items()
        if p not in built.held and (t is not None or owner(p) is None)
    }
    candidates = {p for p in checked if p not in built.held}
    # mypy alone judges its projects' files, all in one run of its daemon: what basedpyright
    # would re-check for them is not asked (~0.8 s of parsing on rich).
    mypy_only = {
        p for j, m in by_project(ws, list(held)).items() for p in m if not j.pyright_judges(p)
    }
    others = {p: t for p, t in held.items() if p not in mypy_only}
    # Python files edited in comments and blank lines alone: the disk's results, moved.
    moved = _moved(ws, others, memory, held_by)
    results.update((p, r) for p, r in moved.items() if _in(p, wanted))
    others = {p: t for p, t in others.items() if p not in moved}
    alike, disk = await _alike(ws, others)  # TypeScript 7's: their importers unasked
    found = reached(ws, others, candidates, memory.python, memory.native, alike, disk)
    found |= _beyond_mypy(ws, {p: held[p] for p in mypy_only}, candidates, memory)
    found |= native_stopped(ws, others, candidates)  # TypeScript 7: stopped on disk
    if loose := _loose_reached(ws, texts, candidates, owner):
        found |= loose  # the servers hold the builders' changed files too, for them
        held.update((p, t) for p, t in texts.items() if p in built.held)
    found = {p for p in found if ws.handler(p) is not None}  # a py.typed mark: held, unasked
    asked = sorted(p for p in (found | mypy_only) - built.held if _in(p, wanted))
    if asked:
        results.update((ws.resolve(r.path), r) for r in await held_by.asked(asked, held, stops))
    # TypeScript 7's programs a syntax error stops: tsc's answer, its syntax errors alone.
    if syntax := await native_held(ws, held, results, checked, stops):
        made = held_by.built(syntax, texts)
        results.update((p, r) for p, r in made.items() if _in(p, wanted))
    # TypeScript 7's files of a solution-style layout another program holds: its errors too
    results = await with_also(ws, results, texts, held_by)
    not_anew = frozenset(built.held - built.checked - set(texts) - set(asked))
    return OverlaidState(results, asked, held if asked else {}, stops, not_anew)


async def with_also(
    ws: Workspace, results: Mapping[Path, R], texts: Texts, held_by: Held[R]
) -> dict[Path, R]:
    """`results` (file -> its result in the state `texts` make, asked of its server), each
    TypeScript 7 file's joined with its errors in the other programs of its solution-style
    layout that hold it (`solution_check.held_also`), as the whole check joins them: a
    second sample of a state, too, so that no such error is in one check of it alone."""
    joined = dict(results)
    # its nearest tsconfig.json built by no tsc -b: the first build program's answer alone
    if replaced := await held_unbuilt(ws, texts, list(results)):
        joined.update(held_by.built(cast(Mapping[Path, Items], replaced), texts))
    for path, said, items in await held_also(ws, texts, list(results)):
        joined[path] = held_by.joined(joined[path], said, cast(Items, items), texts)
    return joined


async def _alike(ws: Workspace, texts: Texts) -> tuple[Collection[Path], Texts]:
    """Of `texts`, TypeScript 7's files edited with their declarations as they were
    (`native_declared`), and the disk's texts of its files."""
    edits = {p: (read_text(p), t) for p, t in texts.items() if native(ws, p) is not None}
    return await declared_alike(ws, edits), {p: old for p, (old, _) in edits.items()}


def _loose_reached(
    ws: Workspace, texts: Texts, candidates: set[Path], owner: Callable[[Path], object]
) -> set[Path]:
    """Of `candidates`, TypeScript 5's files no builder checks (no tsconfig claims them:
    tsserver's inferred projects answer them one by one), where a proposed TypeScript file's
    declarations change, a builder's or not. fastify's examples/ import its index.d.ts, which
    a test program's builder holds: preview said the program's errors alone, and HEAD's
    result made that way kept the example's new error as HEAD's ("unchanged")."""
    typescript = [p for p in texts if _typescript(ws, p)]
    if not any(_declares_otherwise(read_text(p), texts[p]) for p in typescript):
        return set()
    return {
        p for p in candidates if _typescript(ws, p) and native(ws, p) is None and owner(p) is None
    }


def _typescript(ws: Workspace, path: Path) -> bool:
    handler = ws.handler(path)
    return handler is not None and handler.language == "typescript"


def _declares_otherwise(old: str | None, new: str | None) -> bool:
    """Whether a TypeScript file's text `new` may declare otherwise than `old` (None: absent):
    more than its `//` comments and blank lines moved (`source_shape`)."""
    return old is None or new is None or shape(old) != shape(new)


def _beyond_mypy(
    ws: Workspace, changed: Texts, candidates: set[Path], memory: CheckState[R]
) -> set[Path]:
    """Of `candidates` basedpyright judges (beside mypy or alone), those `changed` (mypy's
    projects' files) reach: a script basedpyright judges importing a module of mypy's
    project (`reached`'s rules; only where such a file is there: the reach costs ~0.8 s of
    parsing on rich). A file both judge was left out: attrs' typing_tests, mypy's `files`
    and pyright's `include`, kept the work tree's reportCallIssue in HEAD's result after a
    stub's signature changed (no error introduced; mypy's call-arg neither)."""
    if not changed:
        return set()
    python = [p for p in candidates if p.suffix in PYTHON]
    alone = {p for j, m in by_project(ws, python).items() for p in m if not j.pyright_judges(p)}
    rest = {p for p in python if p not in alone}
    if not rest:
        return set()
    return reached(ws, changed, rest, memory.python, memory.native) & rest


def _moved(ws: Workspace, texts: Texts, memory: CheckState[R], held_by: Held[R]) -> dict[Path, R]:
    """Of `texts`, the Python files whose text moves only lines of the disk's (comments,
    blank lines), no checker but basedpyright judging them, their disk's result known to be
    of the disk's text: that result moved (`engine/python_trivia.py`; the whole check's rule)."""
    seen, found = memory.python, {}
    judged = set() if seen is None else {p for m in by_project(ws, list(texts)).values() for p in m}
    for path, text in texts.items():
        last = memory.known.get(path)
        if seen is None or text is None or last is None or path in judged:
            continue
        if path.suffix not in PYTHON or (disk := read_text(path)) is None:
            continue
        if (lines := movable(ws.root, path, disk, text, seen.answered)) is None:
            continue
        if (result := held_by.moved(last[1], lines)) is not None:
            found[path] = result
    return found


def _in(path: Path, wanted: set[Path] | None) -> bool:
    return wanted is None or path in wanted
