"""What a project's environment holds, read from its site-packages without running it: the
mypy it would import (its version, from its `.dist-info`), and what changes when packages
come and go (the directory's mtime, each distribution's `.dist-info`).

Asking `mypy --version` cost a cold check 0.3-0.9 s (a Python start and mypy's import, on
a loaded machine) before dmypy even started; the metadata is one small read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")
_METADATA_VERSION = re.compile(r"^Version:\s*(\S+)", re.M)


def site_packages(interpreter: Path) -> list[Path]:
    """The site-packages directories of the environment `interpreter` runs in."""
    return sorted(interpreter.parent.parent.glob("lib/python*/site-packages"))


def installed_version(interpreter: Path) -> tuple[int, ...] | None:
    """The version of the mypy installed in the environment's own site-packages (what its
    interpreter imports first), or None when it has none there (asked by running it)."""
    version = distribution_version(interpreter, "mypy")
    found = None if version is None else _VERSION.match(version)
    return None if found is None else tuple(int(part or 0) for part in found.groups())


def distribution_version(interpreter: Path, name: str) -> str | None:
    """The version of the distribution `name` (e.g. basedpyright) installed in the
    environment's own site-packages, from its `.dist-info`'s METADATA; None without one."""
    for site in site_packages(interpreter):
        for info in sorted(site.glob(f"{name}-*.dist-info")):
            try:
                found = _METADATA_VERSION.search((info / "METADATA").read_text("utf-8", "replace"))
            except OSError:
                continue
            if found is not None:
                return found.group(1)
    return None


def installed_digest(interpreter: Path) -> str:
    """A digest of the environment's installed distributions: each `.dist-info`'s name
    and mtime (an upgrade writes a new one)."""
    digest = hashlib.blake2b(digest_size=16)
    for site in site_packages(interpreter):
        with contextlib.suppress(OSError), os.scandir(site) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".dist-info"):
                    digest.update(f"{entry.name}\0{entry.stat().st_mtime_ns}\0".encode())
    return digest.hexdigest()


def site_mtime(interpreter: Path) -> float | None:
    """The mtime of the environment's site-packages, or of a `.pth` file in it when newer:
    changes as packages come and go, and as a `.pth` is edited in place (an editable install
    repointed: the directory's mtime stays, and the imports resolve elsewhere). The `.pth`
    files are listed again only when the directory's mtime moved (one comes or goes): a stat
    each otherwise."""
    for site in site_packages(interpreter):
        try:
            mtime = site.stat().st_mtime
        except OSError:
            return None
        known = _PTH.get(site)
        if known is None or known[0] != mtime:
            known = _PTH[site] = (mtime, tuple(sorted(str(p) for p in site.glob("*.pth"))))
        for pth in known[1]:
            with contextlib.suppress(OSError):
                mtime = max(mtime, os.stat(pth).st_mtime)
        return mtime
    return None


# Each site-packages' `.pth` files, listed at its mtime (`site_mtime`).
_PTH: dict[Path, tuple[float, tuple[str, ...]]] = {}
