"""What the tests install into a shared cache, installed by one process at a time.

scripts/test runs pytest's files on two workers (pytest-xdist): both may ask for the same
pinned TypeScript, virtual environment, source release or agent CLIs at once, and without a
lock one would install over the other, or use it half installed.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def installing(target: Path) -> Iterator[None]:
    """Held while `target` (a folder or file in a cache) is looked for and, if missing, made:
    the other workers wait here and then find it made."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
