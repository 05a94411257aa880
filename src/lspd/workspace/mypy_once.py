"""Where dmypy's fine-grained answer is not mypy's, the project's own `mypy` answers, run
once, incremental, with a cache of lspd's.

After an edit dmypy re-checks the module that changed and, of the others, only the targets
the change reaches or that had errors (`reprocess_nodes`). mypy's unused `# type: ignore`
errors are made only where a whole module is checked (`generate_unused_ignore_notes`, in
`update_module_isolated`), and each module's update clears every file's errors
(`errors.reset()`), so after an edit dmypy reports them for the last module it updated and
for no other (mypy issue 9655). On SQLAlchemy 2.0.36 (`warn_unused_ignores` on its package)
a leaf edit lost 31 `unused-ignore` errors and one `misc`, and re-analysing the module top
levels those errors belong to made 21 errors mypy never reports (17 `no-any-return`, 4
`no-redef`), in 26.8 s; its `mypy`, incremental with a cache, gave the 90 errors of a cold
run in 1.6 s. So where the configuration may report unused ignores and a file holds one,
lspd runs the project's `mypy` in the daemon's copy with its cache in lspd's state
directory (`--incremental`, as the project's CI runs it by default), and the answer is
mypy's by construction. Elsewhere dmypy still answers, and its answer after an edit is
not proven mypy's: with `warn_unused_ignores` off, SQLAlchemy's leaf edit still gave 6
`no-any-return` errors mypy does not and lost the `misc` (the targets that had errors are
re-analysed on every update); rich's edits give mypy's errors either way.
"""

from __future__ import annotations

import configparser
import hashlib
import os
import re
import shutil
import tomllib
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lspd.workspace.mypy_config_read import config_read, walks
from lspd.workspace.mypy_mirror import PYTHON

# A `# type: ignore` (with or without codes) anywhere in a file; read too widely (in a
# string, say) it costs speed, never exactness.
_IGNORE = re.compile(rb"#\s*type:\s*ignore")
# A file's own `# mypy:` comment turning the report on (`warn-unused-ignores`, or the code
# enabled), for that file alone.
_INLINE = re.compile(
    rb"^#\s*mypy:.*(?:(?<!no-)warn[-_]unused[-_]ignores|enable[-_]error[-_]code.*unused-ignore)",
    re.MULTILINE,
)
_CODE = "unused-ignore"


# The mypy configuration as each walk mypy `version` takes reads it (`read_sections`).
Read = list[tuple[bool, list[dict[str, Any]]]]


def sections_read(texts: dict[str, bytes], inside: str, version: tuple[int, ...] | None) -> Read:
    """The configuration's sections as each of mypy `version`'s walks reads them: parsed
    once per question and passed to each judge of it (`needs_once`, `mypy_partial`)."""
    return [read_sections(texts, inside, walk) for walk in walks(version)]


def needs_once(
    texts: dict[str, bytes],
    inside: str = "",
    version: tuple[int, ...] | None = None,
    arguments: Sequence[str] = (),
    read: Read | None = None,
) -> bool:
    """Whether a check of the project with `texts` (relative path -> text, its mypy
    configuration among them, under `inside`: where the project is in the copy) goes to
    `mypy` run once instead of dmypy: the mypy sections of the configuration mypy
    `version` reads (`config_read`: the copy's, else the user's) may report unused ignores
    and one of its Python files holds an ignore comment, or a file turns the report on
    itself (`# mypy: warn-unused-ignores`) and holds one; or it, or the options among the
    command's `arguments` (a script's `--no-local-partial-types`), set one dmypy refuses
    (`_refused`: `follow_imports = silent`). `read`: `sections_read`'s, where already read."""
    given = tuple(a for a in arguments if a.startswith("-"))
    read = sections_read(texts, inside, version) if read is None else read
    if any(_refused(sections, given) for _, sections in read):
        return True
    python = [data for name, data in texts.items() if name.endswith(PYTHON)]
    ignoring = [data for data in python if _IGNORE.search(data)]
    if any(_INLINE.search(data) for data in ignoring):
        return True
    return bool(ignoring) and any(_reports(parses, sections) for parses, sections in read)


def read_sections(
    texts: dict[str, bytes], inside: str, walk: bool
) -> tuple[bool, list[dict[str, Any]]]:
    """Whether the mypy configuration mypy reads (`config_read`) parses, and its mypy
    sections, the global one first (none: no configuration, or the user's without its
    section, or one that does not parse)."""
    try:
        found = config_read(texts, inside, walk)
    except (tomllib.TOMLDecodeError, configparser.Error, OSError, UnicodeError):
        return False, []
    return True, [] if found is None else found[0]


def _refused(sections: list[dict[str, Any]], given: tuple[str, ...]) -> bool:
    """Whether the global section (the first of `sections`) or the command's options `given`
    (which override it) set an option dmypy refuses to start with (its
    `process_start_options`), or (mypy 1) overrides: `follow_imports = silent` ("dmypy:
    follow-imports=silent not supported": pdm's), and `local_partial_types` off. (Its `-i`
    overrides `incremental = false`.) One that does not parse: not (`_reports` runs mypy
    once for it)."""
    first = sections[0] if sections else {}
    silent = str(first.get("follow_imports", "")).strip() == "silent"
    partial = [o for o in given if o in ("--local-partial-types", "--no-local-partial-types")]
    if partial:
        return silent or partial[-1] == "--no-local-partial-types"
    return silent or _false(first.get("local_partial_types"))


def _reports(parses: bool, sections: list[dict[str, Any]]) -> bool:
    """Whether the mypy configuration of `sections` may report unused ignores in some
    module: `strict` or `warn_unused_ignores` on, or the code enabled, in its global or a
    per-module section, unless the global one disables the code and no section enables it.
    One that does not parse (not `parses`): taken as reporting (mypy itself will say what
    is wrong)."""
    if not parses:
        return True
    if not sections:  # none, or the user's without its section: nothing set
        return False
    enabled = any(_CODE in codes(s.get("enable_error_code")) for s in sections)
    if _CODE in codes(sections[0].get("disable_error_code")) and not enabled:
        return False
    on = ("strict", "warn_unused_ignores")
    return enabled or any(true(s.get(key)) for s in sections for key in on)


def true(value: object) -> bool:
    """An option's value on: TOML's `true`, an INI file's `True`, `1`, `yes` or `on`."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return value is True


def _false(value: object) -> bool:
    """An option's value off: TOML's `false`, an INI file's `False`, `0`, `no` or `off`."""
    if isinstance(value, str):
        return value.strip().lower() in ("false", "0", "no", "off")
    return value is False


def codes(value: object) -> list[str]:
    """An error code list: TOML's list, or an INI file's comma-separated string."""
    if isinstance(value, str):
        return [code.strip() for code in value.split(",")]
    return [str(code).strip() for code in value] if isinstance(value, list) else []


KEPT_CACHES = 3


class Caches:
    """mypy's caches of lspd's for one project, each last used on some texts: a question
    takes the one nearest its texts (fewest files differ), a copy of it where that is not
    the same texts, so a preview, the disk's state and a baseline's revision each keep
    theirs warm (a revision's run after the preview of a signature re-checked every
    importer twice). Which one is taken (or what another lspd process left in it) only
    changes the time: mypy takes a cached module as fresh only at its file's size and
    whole-second mtime, else compares hashes, and each write of the copy lands in a later
    second than any before (`Mirror`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._states: OrderedDict[Path, dict[str, bytes]] = OrderedDict()  # least recent first

    def take(self, texts: dict[str, bytes]) -> Path:
        """The cache directory a run with `texts` uses (taken as holding them after it)."""
        state = {
            name: hashlib.blake2b(data, digest_size=16).digest() for name, data in texts.items()
        }
        if not self._states:
            return self._taken(self.directory / "0", state)
        nearest = min(reversed(self._states), key=lambda slot: _differ(self._states[slot], state))
        if _differ(self._states[nearest], state) == 0:
            return self._taken(nearest, state)
        free = [self.directory / str(n) for n in range(KEPT_CACHES)]
        free = [slot for slot in free if slot not in self._states]
        slot = free[0] if free else next(s for s in self._states if s != nearest)
        synced(nearest, slot)
        return self._taken(slot, state)

    def drop(self, slot: Path) -> None:
        """A cache whose run failed: removed."""
        self._states.pop(slot, None)
        shutil.rmtree(slot, ignore_errors=True)

    def forget(self) -> None:
        """Keep only the cache used last (what a re-check costs is measured: bench/mypy.py)."""
        while len(self._states) > 1:
            self.drop(next(iter(self._states)))

    def clear(self) -> None:
        """Every cache removed, the directory too."""
        self._states.clear()
        shutil.rmtree(self.directory, ignore_errors=True)

    def keep(self) -> None:
        """Its daemon stopped (`Dmypy._stop`): only the cache used last is kept, as the
        slot the next process takes first, so a one-shot CLI check is not cold; the others
        are removed (one cache per project and workspace stays, 14-28 MB for SQLAlchemy).
        Nothing used here: what is there stays. Any texts are safe on it, as on any slot:
        the copy's writes keep getting later stamps (`Mirror`'s stamp file stays too)."""
        last = next(reversed(self._states), None)
        self._states.clear()
        if last is None or not last.is_dir():
            return
        first = self.directory / "0"
        if last != first:
            shutil.rmtree(first, ignore_errors=True)
            last.rename(first)
        for slot in self.directory.iterdir():
            if slot != first:
                shutil.rmtree(slot, ignore_errors=True)

    def _taken(self, slot: Path, state: dict[str, bytes]) -> Path:
        self._states.pop(slot, None)
        self._states[slot] = state
        return slot


def synced(source: Path, slot: Path, one_device: bool | None = None) -> None:
    """Make `slot` hold exactly the cache `source` holds (none where there is none), as a
    copy of it: each file mypy only ever replaces whole (its metadata store writes beside
    it, then `os.replace`: 1.x's `.json`, the `.ff` files) shared by a hard link, any other
    (2.x's sqlite shards, written in place; `missing_stubs`) copied. A file the slot already
    shares with `source` (the same inode, as its directory lists it: neither was replaced
    since) is left as it is, so taking a slot that held another state costs what differs:
    svcs' cache (673 modules, mypy 1.19.1) was removed and linked again whole, 0.38-0.66 s
    of a preview at load 9."""
    if not source.is_dir():
        shutil.rmtree(slot, ignore_errors=True)
        return
    if slot.is_symlink() or (slot.exists() and not slot.is_dir()):
        slot.unlink()
    slot.mkdir(parents=True, exist_ok=True)
    if one_device is None:  # else an inode number says nothing of another file system's
        one_device = source.stat().st_dev == slot.stat().st_dev
    with os.scandir(slot) as listed:
        held = {entry.name: entry for entry in listed}
    with os.scandir(source) as listed:
        for entry in listed:
            there = held.pop(entry.name, None)
            target = slot / entry.name
            if entry.is_dir(follow_symlinks=False):
                synced(Path(entry.path), target, one_device)
            elif there is None or not (one_device and _same(entry, there)):
                _linked(Path(entry.path), target)
    for gone in held.values():  # not in `source`
        if gone.is_dir(follow_symlinks=False):
            shutil.rmtree(gone.path, ignore_errors=True)
        else:
            Path(gone.path).unlink(missing_ok=True)


def _same(entry: os.DirEntry[str], there: os.DirEntry[str]) -> bool:
    """Whether the slot's entry is the source's file, linked (a file mypy replaces whole)."""
    linked = entry.name.endswith((".json", ".ff")) and there.is_file(follow_symlinks=False)
    return linked and entry.inode() == there.inode()


def _linked(source: Path, target: Path) -> None:
    """`target` made `source`'s copy: linked where mypy replaces it whole, else copied
    (httpx's cache, mypy 1.13, took 3.3 s to copy per state at load 5)."""
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    target.unlink(missing_ok=True)
    if source.name.endswith((".json", ".ff")):
        try:
            os.link(source, target)
            return
        except OSError:
            pass  # another file system: copied
    shutil.copy2(source, target)


def cache_flags(version: tuple[int, ...] | None) -> list[str]:
    """mypy's flags for the cache lspd keeps (`Caches`): its fixed-format cache where it is
    no longer experimental (mypy 1.19; 2.x writes it by default). The format is how the
    cache is stored, not what mypy says: a fresh module's tree is read from it instead of
    JSON. svcs (673 modules, mypy 1.19.1), a leaf edit run once with a warm cache: 0.34 s
    to load the fresh trees instead of 2.6 s (1.55 s user, 4.5 s at load 9.7 with JSON;
    0.67 s user, 1.8 s at load 9.8 fixed)."""
    return ["--fixed-format-cache"] if version is not None and (1, 19) <= version < (2,) else []


def _differ(held: dict[str, bytes], wanted: dict[str, bytes]) -> int:
    """How many files differ between two states (by their digests)."""
    return sum(held.get(name) != digest for name, digest in wanted.items()) + len(
        held.keys() - wanted.keys()
    )
