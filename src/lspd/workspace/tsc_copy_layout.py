"""The copy a held state is checked on by tsc (`workspace/tsc_copy.py`), laid out and brought
to that state: the project's TypeScript, JavaScript and JSON files copied into lspd's state
directory for `root` (its node_modules, linked directories and what git ignores linked, but
the ignored files tsc reads at their real path; a symlinked folder leading inside `root`
linked to its place in the copy; a node_modules entry linking a workspace package to the
copy's package; the configurations it extends above `root` beside it), the held texts
written over them and the files held absent left out. lspd never writes into the
repository. Apart from tsc's run and the reading of its answer: what a copy holds is
`tsc_kept`'s bookkeeping, not tsc's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.workspace import tsc_kept
from lspd.workspace.copies import written
from lspd.workspace.files import read_text
from lspd.workspace.tsconfig_extends import extended

COPIED = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json")
SKIPPED = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv"}


def _workspace_links(folder: Path, there: Path, root: Path, here: Path) -> None:
    """A node_modules `folder` linking a workspace package (`npm install`'s
    node_modules/@demo/utils -> ../../packages/utils) made again at `there` (the copy's link
    to it taken away) with each entry linked where it leads, a workspace package's into the
    copy: TypeScript follows the link to its real path, which was the repository's, so the
    copy's held texts (a package.json's `exports` at HEAD) were not read. A folder linking
    none stays one link."""
    real = Path(os.path.realpath(root))
    entries = [(e, Path(os.path.realpath(e))) for e in _entries(folder)]
    if not any(_package(target, real) for _, target in entries):
        return
    there.unlink()
    for entry, target in entries:
        place = there / entry.relative_to(folder)
        place.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(here / target.relative_to(real) if _package(target, real) else target, place)


def _package(target: Path, real: Path) -> bool:
    """Whether a node_modules entry leading to `target` links a workspace package: a folder
    under the root `real`, outside any node_modules."""
    return target.is_relative_to(real) and "node_modules" not in target.relative_to(real).parts


def _entries(folder: Path) -> list[Path]:
    """A node_modules folder's packages: its entries, a scope's (`@demo/`) entries each."""
    found: list[Path] = []
    for entry in folder.iterdir():
        if entry.name.startswith("@") and entry.is_dir() and not entry.is_symlink():
            found.extend(entry.iterdir())
        else:
            found.append(entry)
    return found


@dataclass(frozen=True)
class Layout:
    """A copy's plan: `root`, the held `texts`, the configurations `config` extends outside
    `root` (a monorepo package's ../tsconfig.base.json) with their texts in that state, and
    `top`, the folder the copy stands for (`root`, or above it as far as those are)."""

    root: Path
    texts: Mapping[Path, str | None]
    outside: dict[Path, str | None]
    top: Path

    @staticmethod
    def of(root: Path, config: Path, texts: Mapping[Path, str | None]) -> Layout:
        def read(path: Path) -> str | None:
            return texts[path] if path in texts else read_text(path)

        configs = (Path(os.path.normpath(p)) for p in extended(config, read))
        outside = {p: read(p) for p in configs if not p.is_relative_to(root)}
        top = Path(os.path.commonpath([root, *(p.parent for p in outside)]))
        return Layout(root, texts, outside, top)


def _linked(folder: Path) -> bool:
    return folder.name == "node_modules"


def _copied(name: str) -> bool:
    return name.endswith(COPIED)


def in_state(layout: Layout, copy: Path, manifest: tsc_kept.Manifest) -> Path:
    """`copy` (kept, or new: an empty `manifest`) brought to the state (`tsc_kept.brought`):
    `root`'s TypeScript, JavaScript and JSON files copied, its node_modules, linked folders
    and what git ignores linked (the ignored files a question holds or tsc read at their
    real path copied), then the held texts written over them, and the configurations
    extended outside `root` at their places beside it; `manifest` says what it holds then.
    Where `root` is in the copy: `copy` itself, or below it as far as those configurations
    are above `root`."""
    root = layout.root
    here = copy / root.relative_to(layout.top)
    here.mkdir(parents=True, exist_ok=True)
    held = (str(p.relative_to(root)) for p in layout.texts if p.is_relative_to(root))
    opened = {*manifest.opened, *held}  # an ignored file held: in folders of the copy
    files, links, hidden = tsc_kept.listed(root, SKIPPED, _linked, _copied, opened)
    links = {rel: _inner(root, rel, target) for rel, target in links.items()}
    tsc_kept.brought(manifest, root, here, files, links)
    manifest.hidden = sorted(hidden)
    for rel in links:
        if Path(rel).name == "node_modules" and not (root / rel).is_symlink():
            _workspace_links(root / rel, here / rel, root, here)
    tsc_kept.held(manifest, _in_copy(layout.texts, root, here))
    written(root, here, layout.texts)
    for rel in manifest.outside:
        (copy / rel).unlink(missing_ok=True)
    manifest.outside = [str(p.relative_to(layout.top)) for p in layout.outside]
    written(layout.top, copy, layout.outside)
    return here


def _inner(root: Path, rel: str, target: str) -> str:
    """Where the copy's link at `rel` leads: a symlinked folder of `root` leading to a folder
    the copy holds (`lib -> real`) to it in the copy (relative), so a held text there is
    read by both names (tsc read the disk's); any other to `target`, its real place."""
    real = Path(os.path.realpath(root))
    there = Path(target)
    if not (root / rel).is_symlink() or not there.is_relative_to(real) or not there.is_dir():
        return target
    inside = there.relative_to(real)
    if SKIPPED.intersection(inside.parts) or Path(rel).is_relative_to(inside):
        return target
    return os.path.relpath(inside, Path(rel).parent)


def _in_copy(texts: Mapping[Path, str | None], root: Path, here: Path) -> Iterator[str]:
    """Where the held `texts` of `root` are written in the copy `here` (relative to it, as
    far as its links lead: a node_modules entry linking a workspace package leads to the
    copy's package); none led out of the copy (a text held under a linked folder)."""
    for path in texts:
        if path.is_relative_to(root):
            target = Path(os.path.realpath(here / path.relative_to(root)))
            if target.is_relative_to(here):
                yield str(target.relative_to(here))
