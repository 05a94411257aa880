"""The files that differ from a baseline, read from git (or from what lspd first read).

`HEAD` (or any git revision) is the committed text, read with `git show`: the work tree and
the index are never touched, nothing is written into the repository. `session` is the text
of each file when lspd first read it (for a workspace without git).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lspd.engine.config_parts import same_settings
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from lspd.workspace.pyright_baseline import is_baseline
from lspd.workspace.tsconfig_extends import extended

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
# A package's manifest, which TypeScript's module resolution reads (`exports`, `imports`,
# `types`, `main`, `name`, `type`): a workspace package's edit changes what its importers
# resolve, so it is a configuration of the programs (one in node_modules is no workspace's).
MANIFEST = "package.json"
# `git ls-files -v -z`'s entries (each after a NUL) of an untracked file, and of a tracked one
# git takes as unchanged: assume-unchanged (a lowercase tag) or skip-worktree (`S`).
UNTRACKED = re.compile(r"\0\? ([^\0]*)")
FLAGGED = re.compile(r"\0([a-zS]) ([^\0]*)")


@dataclass(frozen=True)
class Delta:
    """The files that differ from a baseline: their text then and now (None: absent)."""

    before: dict[Path, str | None]
    after: dict[Path, str | None]


@dataclass(frozen=True)
class Listing:
    """What git says of the work tree against a commit, read once for a question and passed
    down to each step needing it (the changed files, the configurations edited since, the
    texts a tsconfig's `extends` has at the commit): each step ran its own `git diff`,
    `ls-files` and `rev-parse` before (a question's git runs: 3-12 ms each at load 10)."""

    commit: str  # as the caller named it (a sha where it resolved one)
    top: Path  # the repository's top directory, resolved
    # root-relative: tracked files differing from it (those git takes as unchanged too), and
    # untracked ones
    names: frozenset[str]
    shown: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)

    def text_at(self, directory: Path, name: str) -> str | None:
        """`name`'s text at the commit (relative to `directory`, in the repository; None:
        absent there, or not read), `git show`n once a question: the changed files' step and
        the configurations' both read a JSON a tsconfig extends under another name
        (settings.json: a JSON module to one, a configuration to the other), each by git."""
        key = os.path.normpath(os.path.join(os.path.realpath(directory), name))
        if key not in self.shown:
            self.shown[key] = git(directory, "show", f"{self.commit}:{name}")
        return self.shown[key]


def at_commit(ws: Workspace, baseline: str) -> tuple[str, Path]:
    """The commit `baseline` names and the repository's top, in one git run (which one
    failed is asked only when one did); InvalidInput saying what to send when none."""
    named = f"{baseline}^{{commit}}"
    found = git(ws.root, "rev-parse", "--show-toplevel", "--verify", "--quiet", named)
    if found is None:
        if git(ws.root, "rev-parse", "--show-toplevel") is None:
            raise InvalidInput(
                f"{ws.root} is not in a git repository, so there is no {baseline!r}; send "
                '`baseline: "session"` (the files as lspd first read them since the daemon '
                "started)"
            )
        raise InvalidInput(f"{baseline!r} is not a git revision here; send e.g. HEAD or HEAD~1")
    top, _, sha = found.partition("\n")
    return sha.strip(), Path(top).resolve()


def listing(ws: Workspace, commit: str, top: Path) -> Listing:
    """The files differing from `commit` (of the repository at `top`, `at_commit`'s): two
    git runs (two more where files are flagged assume-unchanged or skip-worktree:
    `_hidden_edits`), read after the check they are compared with. `--no-renames`: git pairs a
    rename staged in the index (`git mv`; `diff.renames` is on by default) and names the new
    path alone, so the old one was no difference and HEAD's state was made without it (its
    kept result held the rename's own errors: a clean tree after said them fixed)."""
    diff = ("diff", "--no-renames", "--name-only", "-z", "--relative", commit, "--")
    names = set((git(ws.root, *diff) or "").split("\0")) - {""}
    files = git(ws.root, "ls-files", "-v", "--cached", "--others", "--exclude-standard", "-z")
    untracked, flagged = _entries(files or "")
    hidden = _hidden_edits(ws.root, commit, top, {n: t for n, t in flagged if n not in names})
    return Listing(commit, top, frozenset(names | _sources(ws.root, untracked) | hidden))


def _sources(root: Path, untracked: set[str]) -> set[str]:
    """Of git's untracked `names`, those in no environment or cache (a folder holding
    `pyvenv.cfg`, `node_modules`, `.tox`, ...) that git was not told to ignore: httpcore
    ignores `venv*/`, not `.venv`, and its packages' mypy.ini and setup.cfg were read as
    configurations edited since HEAD, the baseline refused."""
    known: dict[str, bool] = {}

    def environment(folder: str) -> bool:
        if folder not in known:
            name = os.path.basename(folder)
            own = name in ENVIRONMENTS or os.path.exists(os.path.join(root, folder, "pyvenv.cfg"))
            known[folder] = bool(folder) and (own or environment(os.path.dirname(folder)))
        return known[folder]

    return {n for n in untracked if not environment(os.path.dirname(n))}


# the folders of an environment or a cache, wherever they are (`ignore.IGNORED_DIRS`' less
# those a build writes: an untracked source there is the work tree's all the same)
ENVIRONMENTS = frozenset(
    {"node_modules", ".venv", "venv", ".tox", ".nox", "__pycache__", ".mypy_cache", ".pytest_cache"}
)


def _entries(listed: str) -> tuple[set[str], list[tuple[str, str]]]:
    """`git ls-files -v -c -o -z`'s untracked names (`?`), and the tracked files git was
    told to take as unchanged, with their tag: assume-unchanged (a lowercase tag) or
    skip-worktree (`S`); none on most repositories. One listing of the index where the
    untracked files' was before: +10 ms in git and 5-8 ms here on 100,000 files (a loop over
    the entries: 25-40 ms)."""
    entries = "\0" + listed  # each entry after a NUL: a name holds none
    return set(UNTRACKED.findall(entries)), [(n, t) for t, n in FLAGGED.findall(entries)]


def _hidden_edits(root: Path, commit: str, top: Path, flagged: dict[str, str]) -> set[str]:
    """The files of `flagged` (root-relative names: their `ls-files -v` tags) whose disk
    text differs from `commit`'s, which git diff does not say: it takes such a file's index
    entry for the disk's (a local config set `--skip-worktree`, `--assume-unchanged`), so an
    edit of one was no difference and HEAD's state held the edit. Compared by content, two
    git runs for all (never the flags changed: lspd writes nothing into the repository): the
    disk's blob ids (`hash-object`, its filters applied) and the commit's (`cat-file`). One
    absent from the disk is deleted when assume-unchanged, and not checked out when
    skip-worktree (a sparse checkout's: the same in both states). A symlink or a submodule
    is left as git has it."""
    gone = {n for n, tag in flagged.items() if tag == "h" and not os.path.lexists(root / n)}
    present = {n for n in flagged if "\n" not in n and _regular(root / n)}
    # not compared (git failed): read as differing (their texts compared)
    return gone | (present - committed_alike(root, commit, top, present))


def committed_alike(root: Path, commit: str, top: Path, names: Iterable[str]) -> set[str]:
    """The files of `names` (relative to `root`, in the repository at `top`) whose disk text
    is `commit`'s, compared by content in two git runs for all, however many: the disk's
    blob ids (`hash-object`, its filters applied) and the commit's (`cat-file`). None is
    where git fails; nor one absent at the commit, or not a regular file on disk."""
    present = sorted(n for n in names if "\n" not in n and _regular(root / n))
    if not present:
        return set()
    prefix = os.path.relpath(os.path.realpath(root), top).replace(os.sep, "/")
    at = "" if prefix == "." else f"{prefix}/"
    # both by the path from the top: hash-object reads --stdin-paths there from a folder too
    now = git(top, "hash-object", "--stdin-paths", given="".join(f"{at}{n}\n" for n in present))
    asked = "".join(f"{commit}:{at}{n}\n" for n in present)
    then = git(top, "cat-file", "--batch-check=%(objectname)", given=asked)
    if now is None or then is None:
        return set()
    ids = zip(present, now.splitlines(), then.splitlines(), strict=False)
    return {n for n, disk, committed in ids if disk == committed}


def _regular(path: Path) -> bool:
    """Whether `path` is a regular file on disk (no link, no folder: a submodule's)."""
    return path.is_file() and not path.is_symlink()


def differences(ws: Workspace, baseline: str, listed: Listing | None = None) -> Delta:
    """The source files whose text differs from `baseline`, with both texts (from `listed`,
    git's listing of this question, when the caller has it)."""
    if baseline == "session":
        return _since_session(ws)
    if listed is None:
        listed = listing(ws, baseline, at_commit(ws, baseline)[1])
    before: dict[Path, str | None] = {}
    after: dict[Path, str | None] = {}
    for name in listed.names:
        path = ws.root / name
        if (ws.handler(path) is None and not program_data(ws, path)) or ws.ignore(path.parent):
            continue
        before[path] = listed.text_at(ws.root, f"./{name}")
        after[path] = read_text(path)
    return Delta(before, after)


def program_data(ws: Workspace, path: Path) -> bool:
    """Whether `path` is a file a TypeScript program may read that no server of lspd checks:
    a JSON module (`resolveJsonModule`), not a configuration, under the root of a workspace
    TypeScript serves, wherever its folder (`../../shared/defaults.json`: no tsconfig.json
    above it, its importer's program reads it). Its edit changes the program's answer
    (tsc -p): it differs from a baseline as a source does, and the baseline's result is made
    of its text there. Which of them a program reads is its own listing's to say
    (`engine/program_data.data_read`)."""
    if path.suffix.lower() != ".json" or is_configuration(path) or ws.handler(path) is not None:
        return False
    if not path.is_relative_to(ws.root):
        return False
    return any(p.definition.toolchain == "typescript" for p in ws.projects_present())


def is_configuration(path: Path, read: Iterable[Path] = ()) -> bool:
    """Whether `path` is a checker's configuration: by its name (tsconfig.base.json too; by
    its place, basedpyright's baseline: `pyright_baseline`), or among the configurations
    `read` (the gate's scope's: a tsconfig's `extends` of any name, ../base.json or a
    package's, as TypeScript followed it)."""
    name = path.name
    if name in CONFIG_NAMES or (name.startswith("tsconfig") and name.endswith(".json")):
        return True
    if is_baseline(path):
        return True
    if is_manifest(path):
        return True
    real = Path(os.path.realpath(path))
    return any(real == Path(os.path.realpath(p)) for p in read)


def is_manifest(path: Path) -> bool:
    """Whether `path` is a package's manifest module resolution reads, outside node_modules
    (a workspace package's: `npm install` links it into node_modules by its name)."""
    return path.name == MANIFEST and "node_modules" not in path.parts


def configs_then(
    ws: Workspace, commit: str, configs: list[Path], listed: Listing | None = None
) -> dict[Path, str | None]:
    """The configurations among `configs` (and those of the usual names deleted since) whose
    text at `commit` differs from the disk's, with that text (None: absent there, or not
    read there); none for `session` (the configurations are the disk's). A tsconfig's
    `extends` of any name is followed in both states (`tsconfig_extends`): one edited, or
    extended at `commit` and not now, is held at its text there; one extended now and not
    at `commit` is not read there (None). basedpyright's baseline (`pyright_baseline`) is
    one too: HEAD's result is made with HEAD's. `listed`: the question's git listing
    against `commit`, when the caller has it (read here otherwise)."""
    if commit == "session":
        return {}
    if listed is None:
        try:
            listed = listing(ws, commit, at_commit(ws, commit)[1])
        except InvalidInput:
            return {}  # no repository, or no such commit: nothing read there
    # a configuration of its own name by its path: starlette's scripts/coverage, read as a
    # script its gate may run, named .venv/bin/coverage (untracked, not ignored) edited
    # since HEAD, and every baseline was refused
    exact = {p.relative_to(ws.root).as_posix() for p in configs if p.is_relative_to(ws.root)}
    names = {*CONFIG_NAMES, MANIFEST}
    then: dict[Path, str | None] = {}
    for name in listed.names:
        named = name.rpartition("/")[2] in names or name in exact or is_baseline(Path(name))
        if not named or "node_modules" in name.split("/"):
            continue
        text = (
            listed.text_at(ws.root, f"./{name}")
            if listed.commit == commit
            else git(ws.root, "show", f"{commit}:./{name}")
        )
        if not same_settings(ws.root / name, text, read_text(ws.root / name), ws.root):
            then[ws.root / name] = text  # pyproject's [project] edited alone: the same
    return then | _extended_then(ws, listed, configs, then)


def _extended_then(
    ws: Workspace, listed: Listing, configs: list[Path], then: dict[Path, str | None]
) -> dict[Path, str | None]:
    """The configurations tsconfigs extend under other names (`configs_then`'s rule)."""
    at = _AtCommit(ws, listed, then)
    named = {p for p in {*configs, *then} if p.name in CONFIG_NAMES}
    roots = {
        p
        for p in {*configs, *then}
        if p.suffix == ".json" and p.name != "pyrightconfig.json" and not is_baseline(p)
    }
    now = {e for root in roots for e in extended(root, read_text)} - named
    past = {e for root in roots for e in extended(root, at.text)} - named
    found: dict[Path, str | None] = {p: None for p in now - past}
    for path in past:
        if (text := at.text(path)) != read_text(path) or path not in now:
            found[path] = text
    return found


class _AtCommit:
    """A file's text at a commit: the disk's for a file under the root git's listing does
    not name (unchanged since, or ignored), git's for another of the repository, the
    disk's for one it does not hold (outside it, or ignored: a package's config in
    node_modules), or a configuration's already read (`then`)."""

    def __init__(self, ws: Workspace, listed: Listing, then: dict[Path, str | None]) -> None:
        self.listed, self.texts = listed, dict(then)
        self.root = Path(os.path.realpath(ws.root))

    def text(self, path: Path) -> str | None:
        if path not in self.texts:
            self.texts[path] = self._read(path)
        return self.texts[path]

    def _read(self, path: Path) -> str | None:
        path = Path(os.path.realpath(path))  # a package linked in: the repository's file
        top = self.listed.top
        if not path.is_relative_to(top):
            return read_text(path)
        inside = path.is_relative_to(self.root)
        if inside and path.relative_to(self.root).as_posix() not in self.listed.names:
            return read_text(path)  # as committed, ignored, or absent in both
        name = path.relative_to(top).as_posix()
        text = self.listed.text_at(top, name)
        if text is None and path.exists() and git(top, "check-ignore", "-q", name) is not None:
            return read_text(path)  # ignored: not versioned, the disk's at any commit
        return text


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


def git(root: Path, *args: str, given: str | None = None) -> str | None:
    """Git's output, or None when it fails (no repository, no such revision or file);
    `given`: its input."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            input=None if given is None else given.encode(),
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="replace")
