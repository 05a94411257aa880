"""The files that differ from a baseline, read from git (or from what lspd first read).

`HEAD` (or any git revision) is the committed text, read with `git show`: the work tree and
the index are never touched, nothing is written into the repository. `session` is the text
of each file when lspd first read it (for a workspace without git).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.files import read_text

GIT_TIMEOUT_S = 20.0
# The checkers' configurations a baseline's kept result is made under (beside those the
# gate's scope read): lspd's own, TypeScript's, pyright's, mypy's.
CONFIG_NAMES = (
    "lspd.toml",
    "tsconfig.json",
    "jsconfig.json",
    "pyrightconfig.json",
    "pyproject.toml",
    "mypy.ini",
    ".mypy.ini",
    "setup.cfg",
)


@dataclass(frozen=True)
class Delta:
    """The files that differ from a baseline: their text then and now (None: absent)."""

    before: dict[Path, str | None]
    after: dict[Path, str | None]


def differences(ws: Workspace, baseline: str) -> Delta:
    """The source files whose text differs from `baseline`, with both texts."""
    if baseline == "session":
        return _since_session(ws)
    top = git(ws.root, "rev-parse", "--show-toplevel")
    if top is None:
        raise InvalidInput(
            f"{ws.root} is not in a git repository, so there is no {baseline!r}; send "
            '`baseline: "session"` (the files as lspd first read them since the daemon started)'
        )
    if git(ws.root, "rev-parse", "--verify", "--quiet", f"{baseline}^{{commit}}") is None:
        raise InvalidInput(f"{baseline!r} is not a git revision here; send e.g. HEAD or HEAD~1")
    names = git(ws.root, "diff", "--name-only", "-z", "--relative", baseline, "--") or ""
    untracked = git(ws.root, "ls-files", "--others", "--exclude-standard", "-z") or ""
    before: dict[Path, str | None] = {}
    after: dict[Path, str | None] = {}
    for name in {*names.split("\0"), *untracked.split("\0")} - {""}:
        path = ws.root / name
        if ws.handler(path) is None or ws.ignore(path.parent):
            continue
        before[path] = git(ws.root, "show", f"{baseline}:./{name}")
        after[path] = read_text(path)
    return Delta(before, after)


def is_configuration(path: Path) -> bool:
    """Whether `path` is a checker's configuration (tsconfig.base.json, extended, too)."""
    name = path.name
    return name in CONFIG_NAMES or (name.startswith("tsconfig") and name.endswith(".json"))


def configs_then(ws: Workspace, commit: str, configs: list[Path]) -> dict[Path, str | None]:
    """The configurations among `configs` (and those of the same names deleted since) whose
    text at `commit` differs from the disk's, with that text (None: absent there); none for
    `session` (the configurations are the disk's)."""
    if commit == "session":
        return {}
    names = sorted({p.name for p in configs} | set(CONFIG_NAMES))
    specs = [f":(glob)**/{name}" for name in names]
    changed = git(ws.root, "diff", "--name-only", "-z", "--relative", commit, "--", *specs)
    new = git(ws.root, "ls-files", "--others", "--exclude-standard", "-z", "--", *specs)
    then: dict[Path, str | None] = {}
    for name in {*(changed or "").split("\0"), *(new or "").split("\0")} - {""}:
        then[ws.root / name] = git(ws.root, "show", f"{commit}:./{name}")
    return then


def revision(ws: Workspace, baseline: str) -> str | None:
    """The commit `baseline` names now (`session` names itself); None when it names none."""
    if baseline == "session":
        return baseline
    named = git(ws.root, "rev-parse", "--verify", "--quiet", f"{baseline}^{{commit}}")
    return None if named is None else named.strip()


def _since_session(ws: Workspace) -> Delta:
    before: dict[Path, str | None] = {}
    after: dict[Path, str | None] = {}
    for path, seen in ws.first_seen.items():
        now = read_text(path)
        if now != seen:
            before[path], after[path] = seen, now
    return Delta(before, after)


def git(root: Path, *args: str) -> str | None:
    """Git's output, or None when it fails (no repository, no such revision or file)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="replace")
