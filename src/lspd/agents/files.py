"""Writing a config file safely: a backup first, then temp file + rename.

An agent may read its config at any moment (Claude Code rewrites ~/.claude.json
itself), so a reader must only ever see the old file or the new one.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import shutil
import stat
import tempfile
from pathlib import Path

BACKUP_SUFFIX = ".lspd-backup"


def real_path(path: Path) -> Path:
    """Follow a symlinked config (dotfile managers) so we replace its target, not the link."""
    return path.resolve() if path.is_symlink() else path


def read_text(path: Path) -> str | None:
    """A config file's text, or None when it does not exist yet."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def backup_path(path: Path) -> Path:
    """Where the file's text before lspd's first change is kept."""
    return path.with_name(path.name + BACKUP_SUFFIX)


def write_atomic(path: Path, text: str, *, private: bool = False) -> Path | None:
    """Replace `path` with `text`; returns the backup of the previous file, if there was one.

    The new file keeps the old one's permissions; a new file holding a secret is 0600.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    backup: Path | None = None
    mode: int | None = None
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
        backup = backup_path(path)
        shutil.copy2(path, backup)
    if private:
        mode = 0o600 if mode is None else mode & 0o700
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return backup


def unified_diff(path: Path, old: str | None, new: str) -> str:
    """What a write would change, as `diff -u` shows it (`/dev/null` for a new file)."""
    before = "/dev/null" if old is None else f"a{path}"
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=before,
        tofile=f"b{path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
