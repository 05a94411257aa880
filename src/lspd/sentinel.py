"""The files beside the workspace that tell clients where the daemon listens.

`ROOT/.vscode/.mcp-port` holds the port as decimal digits and a newline. It is written
atomically (temp file + rename) so a reader never sees half a number, and only once the
daemon accepts connections. `ROOT/.vscode/.mcp-token` (mode 0600) holds the bearer token
in token mode.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from lspd.errors import DaemonError

PORT_FILE = ".mcp-port"
TOKEN_FILE = ".mcp-token"


def port_path(root: Path) -> Path:
    """Where the daemon of `root` writes its port (`.vscode/.mcp-port`, beside agents' configs)."""
    return root / ".vscode" / PORT_FILE


def token_path(root: Path) -> Path:
    """Where the daemon of `root` writes its bearer token (mode 0600), in token mode."""
    return root / ".vscode" / TOKEN_FILE


# The marker lspd leaves in a `.vscode/` it created, so that whoever stops the daemon (this
# process, or `lspd stop` after a kill) knows it may remove the directory once it is empty.
CREATED_MARK = ".lspd-created"
# lspd's files in `.vscode/`, hidden from `git status` through the repository's info/exclude.
OWN_FILES = (PORT_FILE, TOKEN_FILE, CREATED_MARK, f"{PORT_FILE}.*.tmp", f"{TOKEN_FILE}.*.tmp")


def _make_dir(directory: Path) -> None:
    """`.vscode/` if missing, writable by its owner only (whatever the umask): whoever can
    write in it can send agents to another server. lspd's files never show in `git status`."""
    if not directory.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(0o755)
        (directory / CREATED_MARK).touch()
    hide_from_git(directory)


def hide_from_git(
    directory: Path, names: tuple[str, ...] = OWN_FILES, why: str = "runtime files (lspd serve)"
) -> None:
    """Add lspd's files in `directory` to the enclosing repository's `info/exclude` (once),
    so they never show as untracked changes; the work tree and `.gitignore` stay untouched."""
    found = _git_dir(directory)
    if found is None:
        return
    top, git_dir = found
    exclude = git_dir / "info" / "exclude"
    relative = directory.relative_to(top).as_posix()
    wanted = [f"/{relative}/{name}" for name in names]
    try:
        present = exclude.read_text("utf-8").splitlines() if exclude.is_file() else []
        missing = [line for line in wanted if line not in present]
        if missing:
            exclude.parent.mkdir(parents=True, exist_ok=True)
            with open(exclude, "a", encoding="utf-8") as handle:
                if present and present[-1].strip():
                    handle.write("\n")
                handle.write(f"# lspd's {why}\n" + "\n".join(missing) + "\n")
    except OSError:
        pass  # not ours to insist on: the sentinel matters more than a clean `git status`


def in_git(directory: Path) -> bool:
    """Whether `directory` is inside a git work tree (so `hide_from_git` hides there)."""
    return _git_dir(directory) is not None


def _git_dir(directory: Path) -> tuple[Path, Path] | None:
    """The work tree holding `directory` and the git directory whose info/exclude it reads
    (a linked worktree's `.git` file points into the common directory)."""
    for top in directory.parents:
        dot_git = top / ".git"
        if dot_git.is_dir():
            return top, dot_git
        if dot_git.is_file():
            text = dot_git.read_text("utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return None
            git_dir = (top / text.removeprefix("gitdir:").strip()).resolve()
            common = git_dir / "commondir"
            if common.is_file():
                git_dir = (git_dir / common.read_text("utf-8").strip()).resolve()
            return top, git_dir
    return None


def remove_created_dir(root: Path) -> None:
    """Remove `.vscode/` when lspd created it and nothing but its mark is left in it."""
    directory = port_path(root).parent
    with contextlib.suppress(OSError):
        if {p.name for p in directory.iterdir()} == {CREATED_MARK}:
            (directory / CREATED_MARK).unlink()
            directory.rmdir()


def _write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write `path` whole or not at all; a read-only or full disk is a `DaemonError`."""
    import secrets  # here: the CLI, which only reads sentinels, starts without it (~2 ms)

    temp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        _make_dir(path.parent)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(text)
        os.chmod(temp, mode)  # the umask may have narrowed or (for 0600) not mattered
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise DaemonError(
                f"cannot write {path}: {exc.strerror or exc}. Clients find the daemon through "
                f"this file: make {path.parent} a writable directory (or free space on its "
                "disk) and start lspd again"
            ) from None
        raise


def write_port(root: Path, port: int) -> None:
    """Write the port file atomically (a reader never sees half of it)."""
    _write_atomic(port_path(root), f"{port}\n")


def read_port(root: Path) -> int | None:
    """The port in the sentinel, or None when there is none or it is not a port number."""
    try:
        text = port_path(root).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        return None
    return int(text)


def remove_port(root: Path, port: int) -> None:
    """Remove the sentinel if it still names `port` (a successor may have replaced it)."""
    if read_port(root) == port:
        with contextlib.suppress(OSError):
            port_path(root).unlink()


def new_token(root: Path) -> str:
    """Create a random token in a 0600 file beside the sentinel."""
    import secrets

    token = secrets.token_urlsafe(32)
    _write_atomic(token_path(root), f"{token}\n", mode=0o600)
    return token


def read_token(root: Path) -> str | None:
    """The daemon's bearer token, or None when it runs without one."""
    try:
        return token_path(root).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def remove_token(root: Path, token: str | None = None) -> None:
    """Remove the token file (only if it still holds `token`, when one is given)."""
    if token is None or read_token(root) == token:
        with contextlib.suppress(OSError):
            token_path(root).unlink()
