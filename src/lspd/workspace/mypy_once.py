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
directory (`incremental` is mypy's default: as the project's CI runs it), and the answer is
mypy's by construction. Elsewhere dmypy still answers, and its answer after an edit is
not proven mypy's: with `warn_unused_ignores` off, SQLAlchemy's leaf edit still gave 6
`no-any-return` errors mypy does not and lost the `misc` (the targets that had errors are
re-analysed on every update); rich's edits give mypy's errors either way.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections import OrderedDict
from pathlib import Path

from lspd.workspace.mypy_config import CONFIG_FILES
from lspd.workspace.mypy_mirror import PYTHON

# A `# type: ignore` (with or without codes) anywhere in a file; read too widely (in a
# string, say) it costs speed, never exactness.
_IGNORE = re.compile(rb"#\s*type:\s*ignore")
# Options of any section that report unused ignores: `warn_unused_ignores`, `strict` (which
# sets it), or the `unused-ignore` code named (enabled, or disabled: read widely again).
_REPORTS = re.compile(
    rb"^\s*(?:warn_unused_ignores|strict)\s*=\s*(?:true|1|yes|on)\b|unused-ignore",
    re.MULTILINE | re.IGNORECASE,
)


def needs_once(texts: dict[str, bytes]) -> bool:
    """Whether a check of the project with `texts` (relative path -> text, its mypy
    configuration among them) goes to `mypy` run once instead of dmypy: its configuration
    may report unused ignores and one of its Python files holds an ignore comment."""
    configs = [texts[name] for name in CONFIG_FILES if name in texts]
    if not any(_REPORTS.search(text) for text in configs):
        return False
    return any(_IGNORE.search(data) for name, data in texts.items() if name.endswith(PYTHON))


KEPT_CACHES = 3


class Caches:
    """mypy's caches of lspd's for one project, each last used on some texts: a question
    takes the one nearest its texts (fewest files differ), a copy of it where that is not
    the same texts, so a preview, the disk's state and a baseline's revision each keep
    theirs warm (a revision's run after the preview of a signature re-checked every
    importer twice). Which one is taken only changes the time: mypy checks every cached
    module against its file (its hash) either way."""

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
        shutil.rmtree(slot, ignore_errors=True)
        if nearest.is_dir():
            shutil.copytree(nearest, slot)
        return self._taken(slot, state)

    def drop(self, slot: Path) -> None:
        """A cache whose run failed: removed."""
        self._states.pop(slot, None)
        shutil.rmtree(slot, ignore_errors=True)

    def forget(self) -> None:
        """Keep only the cache used last (what a re-check costs is measured: bench/mypy.py)."""
        while len(self._states) > 1:
            self.drop(next(iter(self._states)))

    def _taken(self, slot: Path, state: dict[str, bytes]) -> Path:
        self._states.pop(slot, None)
        self._states[slot] = state
        return slot


def _differ(held: dict[str, bytes], wanted: dict[str, bytes]) -> int:
    """How many files differ between two states (by their digests)."""
    return sum(held.get(name) != digest for name, digest in wanted.items()) + len(
        held.keys() - wanted.keys()
    )
