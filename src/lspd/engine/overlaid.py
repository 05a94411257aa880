"""A proposed change checked by the engine without writing it: TypeScript's builders.

A preview's baseline is the disk's state, which the whole-workspace check already keeps
(incremental, reused while nothing changed). Its new state is the same engine with the
proposed texts overlaid: for a tsconfig a builder checks, the builder over a host serving
those texts (`workspace/tsbuilder.py`'s `preview`: a throwaway builder made from the kept
one, so only the files the builder would re-check are checked, and the next real check
decides as if no preview had run). The files of other servers are the caller's: held texts
asked of their servers, the affected set from the engine's rules for each language.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lspd.workspace.tsbuilder import Builder, Items, Preview

Owner = Callable[[Path], "tuple[Builder, Path] | None"]  # a file's builder and its tsconfig


@dataclass
class Overlaid:
    """What the builders would say with the texts overlaid: each file's items, from the
    tsconfig that checks it (`items`: the files checked anew and the changed ones), and
    every file a builder answers for (`held`: not for the servers to answer)."""

    items: dict[Path, Items] = field(default_factory=dict)
    held: set[Path] = field(default_factory=set)
    checked: set[Path] = field(default_factory=set)
    stopped: list[Preview] = field(default_factory=list)  # programs tsc's syntax errors stop


async def builders_overlaid(
    texts: Mapping[Path, str | None],
    owner: Owner,
    also: Mapping[Path, tuple[Path, ...]] | None = None,
    once: Collection[Path] = (),
) -> Overlaid:
    """Each builder's check of the tsconfigs it keeps, or that own a changed file, with
    `texts` instead of the disk's (None: deleted). A file's items come from its own
    tsconfig (`owner`), as in the whole check, and from each other tsconfig `also` names for
    it (a solution-style layout's file two programs hold: `tsc -b` checks it in each, as the
    whole check does: `engine/solution_check.py`; of a file of `once`, gates apart, not the
    errors its own says too: `solution_check.not_owned`); a tsconfig not checked yet is left out
    (the caller's disk check comes first, so the builder keeps every gate tsconfig). A changed
    file `also` does not name (a new one) is placed by the programs holding it (`_placed`)."""
    runs: dict[tuple[Path, Path], Builder] = {}
    for path in texts:
        if (found := owner(path)) is not None:
            builder, config = found
            runs.update({(builder.package, c): builder for c in builder.projects})
    seen: list[tuple[Builder, Path, Preview]] = []
    for (_, config), builder in runs.items():
        if config in builder.projects:
            seen.append((builder, config, await builder.preview(config, texts)))
    places, once = _placed(texts, owner, also or {}, once, seen)
    done = Overlaid(stopped=[preview for _, _, preview in seen if preview.stopped])
    extra: dict[Path, Items] = {}
    for builder, config, preview in seen:
        for path in preview.files:
            placed = places.get(path)
            mine = placed or owner(path)
            if config in (also or {}).get(path, ()) or (
                placed and not _is(placed, builder, config)
            ):
                extra.setdefault(path, []).extend(_items(preview, builder, config, path))
            if mine is None or not _is(mine, builder, config):
                continue
            done.held.add(path)
            if path in preview.items:
                done.items[path] = preview.items[path]
            if path in preview.checked:
                done.checked.add(path)
    for path, items in extra.items():  # beside its own program's, as Checks.merged joins
        if path in done.items:
            own = done.items[path]
            done.items[path] = [*own, *(i for i in items if path not in once or i not in own)]
    return done


def _items(preview: Preview, builder: Builder, config: Path, path: Path) -> Items:
    """`path`'s items in the program of `config` with the texts overlaid: the preview's,
    else (not checked anew) the disk's, as the builder's last check said them. Its own
    program may answer it anew all the same (a declaring program answers every file): an
    empty list here took the other program's errors away from it (a body edit of an
    imported file said "fixed" of src/iter.ts's TS2550 that `tsc -p tests` says
    throughout)."""
    if path in preview.items:
        return preview.items[path]
    project = builder.projects.get(config)
    return [] if project is None else project.items.get(path, [])


def _placed(
    texts: Mapping[Path, str | None],
    owner: Owner,
    also: Mapping[Path, tuple[Path, ...]],
    once: Collection[Path],
    seen: list[tuple[Builder, Path, Preview]],
) -> tuple[dict[Path, tuple[Builder, Path]], set[Path]]:
    """The new files (none on disk: no solution map names them) that two programs hold, or
    that their owner's does not (src/c.ts beside Vite's `{"files": [], "references": [spec,
    build]}`): the program to take each one's items from, its owner's where it holds it
    (then an error both say is said once, as of two gates: `once`), else the first holding
    it, the others' items beside. Before, a new file's items came of its nearest tsconfig alone, the
    solution's, which holds none: the build program's TS6133 went unsaid."""
    places: dict[Path, tuple[Builder, Path]] = {}
    said_once = set(once)
    for path, text in texts.items():
        if text is None or path in also or path.exists():  # on disk: the maps place it
            continue
        holders = [(b, c) for b, c, preview in seen if path in preview.files]
        mine = owner(path)
        held = mine is not None and any(_is(mine, b, c) for b, c in holders)
        if len(holders) < 2 and (held or not holders):
            continue
        if held:
            said_once.add(path)
        places[path] = mine if held and mine is not None else holders[0]
    return places, said_once


def _is(place: tuple[Builder, Path], builder: Builder, config: Path) -> bool:
    """Whether `place` is `builder`'s program of `config`."""
    return place[0] is builder and place[1] == config
