"""The files a project's pre-commit mypy hook checks, where its mypy configuration names no
`files`: then its gate is what its CI runs, and many projects run mypy through pre-commit
(`.pre-commit-config.yaml`: mirrors-mypy, or a local hook). pre-commit passes mypy the
tracked files its `files` regex takes and its `exclude` regex leaves (the configuration's
top-level pair first), each searched in the path from the configuration's folder. A hook of
the manual stage alone is none, unless the CI runs that stage (`precommit_hooks`) or
nothing else of the repository runs mypy (`checker_runs`): then it is how the project runs
mypy (apscheduler's one mypy, `stages: [manual]` with `exclude: docs/conf.py`). black
24.10 excludes `^(docs/conf.py|scripts/generate_schema.py)$`: the second holds a match
statement under `python_version = 3.9`, which stops `mypy .` there. A hook told to pass no
file names (`pass_filenames: false`, a local `entry: mypy src tests`) runs mypy on the
paths its entry and `args` name: those are taken, as a lint script's (`mypy_scripts`).

lspd runs the project's mypy with its configuration on the files chosen, and the hooks'
options that change what mypy reports (`--strict`, `--python-version=3.10`:
`mypy_scripts.checking_options`) where every hook taken gives the same: one mypy run holds
one set. Where they differ, those with none are taken, and each other set is a run of its
own (`HookRun`, `mypy_runs`: black's second hook, over one script with
`--python-version=3.10 --strict`); a hook with an option lspd does not know is never taken, nor one
whose `--config-file` names another file than mypy reads by itself (`--config-file=
pyproject.toml` is the file lspd reads too, where it holds mypy's table). Those only
shaping the output, and `--ignore-missing-imports` (mirrors-mypy's default), are no such
change of which files the project proves (the errors of a missing import aside). The
environment a hook installs is not made: lspd's mypy runs in the project's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import yaml

from lspd.workspace.checker_runs import run_paths, runs
from lspd.workspace.command_options import option_values, spelled
from lspd.workspace.mypy_config_read import names_found
from lspd.workspace.mypy_files import CONFIG_FILES
from lspd.workspace.mypy_scripts import (
    REPORTS,
    RUNNERS,
    checking_options,
    commanded,
    named_paths,
    script_paths,
    unexcluded,
)
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.precommit_hooks import (
    CONFIG_NAME,
    config_hooks,
    config_over,
    listed_hooks,
    stage_paths,
)

# `args` a hook may hold and still be taken: the output's shape, mirrors-mypy's defaults, and
# how its cache is kept (arrow's `--cache-fine-grained`: its hook was not taken)
SAME_CHECK = frozenset(
    {"--ignore-missing-imports", "--scroll-output", "--show-error-codes", "--pretty"}
    | {"--no-pretty", "--show-column-numbers", "--show-error-context", "--no-error-summary"}
    | {"--color-output", "--no-color-output", "--show-traceback", "--install-types"}
    | {"--non-interactive", "--hide-error-context", "--show-error-code-links"}
    | {"--cache-fine-grained", "--sqlite-cache", "--skip-cache-mtime-checks", "--incremental"}
    | {"--skip-version-check"}
    | REPORTS
)
_CONFIG_FILE = "--config-file"
Regexes = tuple[re.Pattern[str], re.Pattern[str]]  # (files, exclude), pre-commit's pair
T = TypeVar("T")


class HookRun(NamedTuple):
    """Another run of mypy the hooks make, with other options than those of the run lspd
    takes for them (multidict's two hooks, `--python-version=3.13` and `=3.11`): the gate's
    too. Neither `hooks` nor `paths`: mypy run as its configuration says."""

    options: tuple[str, ...]  # its options changing what mypy reports
    hooks: tuple[Regexes, ...] = ()  # its hooks passing file names, each its pair
    paths: tuple[str, ...] = ()  # the paths its hooks name (`pass_filenames: false`)


@dataclass(frozen=True)
class PrecommitMypy:
    """The mypy hooks of a pre-commit configuration: which files they pass mypy."""

    path: Path  # the configuration, in the repository's top folder
    top: Regexes  # its top-level `files` and `exclude`
    hooks: tuple[Regexes, ...]  # each mypy hook's that passes file names
    runs: tuple[str, ...] = ()  # the paths the others name (`pass_filenames: false`)
    options: tuple[str, ...] = ()  # the options the hooks passing file names give mypy
    runs_options: tuple[str, ...] = ()  # those the others give
    # a hook passing file names ignores missing imports (`--ignore-missing-imports`, or
    # mirrors-mypy's default `args`, none written)
    ignores_missing: bool = False
    # the options of the hooks running mypy as its configuration says (`pass_filenames:
    # false`, no path named: yarl's `--python-version=3.11`); None where no hook does
    configured: tuple[str, ...] | None = None
    manual: bool = False  # its hooks are of the manual stage alone, nothing else running mypy
    more: tuple[HookRun, ...] = ()  # its hooks' runs with other options, the gate's too

    def takes(self, path: Path, hooks: tuple[Regexes, ...] | None = None) -> bool:
        """Whether a hook (of `hooks`, else of `self.hooks`) passes mypy `path` (under the
        configuration's folder)."""
        name = path.relative_to(self.path.parent).as_posix()
        if not passes(self.top, name):
            return False
        return any(passes(hook, name) for hook in (self.hooks if hooks is None else hooks))

    @property
    def label(self) -> str:
        """How the scope's note names it."""
        return f"{CONFIG_NAME}'s mypy hook" + (" of the manual stage" if self.manual else "")


def precommit_mypy(directory: Path) -> PrecommitMypy | None:
    """The pre-commit mypy hooks over the project at `directory`: the configuration in it
    or a folder above, up to the repository's top; None without one, without a mypy hook
    lspd can take (passing file names, or naming paths), or where it cannot be read (not
    YAML, a regex Python cannot compile). Read again only when it changed."""
    if (path := config_over(directory)) is None:
        return None
    return _READ.get(path, (path,), functools.partial(_kept, path))


def precommit_paths(directory: Path) -> list[Path]:
    """The paths whose change can change `precommit_mypy(directory)`: a configuration in
    the project's folder or one above, up to the first there or its repository's top, and
    beside each what says whether the manual stage runs (`precommit_hooks.stage_paths`)."""
    found: list[Path] = []
    for folder in (directory, *directory.parents):
        found += [folder / CONFIG_NAME, *stage_paths(folder)]
        if (folder / CONFIG_NAME).is_file() or (folder / ".git").exists():
            break
    return found


_READ: Memo[PrecommitMypy | None] = Memo()


def _kept(path: Path) -> tuple[PrecommitMypy | None, tuple[Path, ...]]:
    try:
        run, body, read = config_hooks(path)
    except yaml.YAMLError:
        return None, ()
    # a hook's `--config-file` names the file mypy reads by itself, or another (`names_found`)
    read += [path.parent / name for name in CONFIG_FILES]
    if any(_is_mypy(hook) for hook in run):
        return _read(path, run, body), tuple(read)
    return _manual(path, body, read), tuple(read)


def _manual(path: Path, body: dict[str, Any], read: list[Path]) -> PrecommitMypy | None:
    """The mypy hooks of the manual stage alone of the configuration at `path` (`body`, its
    table; none of its mypy hooks runs) where nothing else of the repository runs mypy (a
    script, tox, nox, a workflow: `checker_runs`): run by hand (`pre-commit run
    --hook-stage manual mypy`), they are the project's mypy gate. apscheduler's one mypy
    is such a hook, `exclude: docs/conf.py`: lspd judged that file, its gate never. The
    files saying what else runs mypy are added to `read`."""
    if not (hooks := [hook for hook in listed_hooks(body) if _is_mypy(hook)]):
        return None
    read += [*script_paths(path.parent), *run_paths(path.parent)]  # a mypy run written later
    if runs(path.parent, ("mypy",)) or (found := _read(path, hooks, body)) is None:
        return None
    return replace(found, manual=True)


def _read(path: Path, run: list[dict[str, Any]], body: dict[str, Any]) -> PrecommitMypy | None:
    """The mypy hooks of `run` (the hooks the configuration at `path` runs:
    `precommit_hooks`) lspd can take; `body` is its top-level table."""
    try:
        mypys = [hook for hook in run if _is_mypy(hook)]
        passing = [hook for hook in mypys if hook.get("pass_filenames", True) is not False]
        given = [(hook, _named_files(_options(_after(hook), path.parent))) for hook in passing]
        (taken, options), *more_passing = _groups(given) or [([], ())]
        options += _ignoring(taken)
        hooks = tuple(regexes(hook) for hook in taken)
        others = [(hook, _after(hook)) for hook in mypys if hook not in passing]
        runs = [(hook, named_paths(path.parent, a), _options(a, path.parent)) for hook, a in others]
        paths = {id(hook): named for hook, named, _ in runs}
        (ran_by, runs_options), *more_runs = _groups(
            [(h, options) for h, named, options in runs if named]
        ) or [([], ())]
        runs_options += _ignoring(ran_by)
        ran = [paths[id(hook)] for hook in ran_by]
        bare = _groups([(hook, options) for hook, named, options in runs if not named])
        configured = None if not bare else bare[0][1] + _ignoring(bare[0][0])
        more = [HookRun(o + _ignoring(h), hooks=tuple(map(regexes, h))) for h, o in more_passing]
        more += [
            HookRun(o + _ignoring(h), paths=_joined(paths[id(x)] for x in h)) for h, o in more_runs
        ]
        more += [HookRun(o + _ignoring(h)) for h, o in bare[1:]]
        top = regexes(body)
    except (re.error, TypeError):
        return None
    named = _joined(ran)
    if not (hooks or named or configured is not None):
        return None
    ignoring = any(_ignores_missing(hook) for hook in taken)
    return PrecommitMypy(
        path, top, hooks, named, options, runs_options, ignoring, configured, more=tuple(more)
    )


def _joined(paths: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Each path of `paths` once, in order."""
    return tuple(dict.fromkeys(p for named in paths for p in named))


def _ignoring(hooks: list[dict[str, Any]]) -> tuple[str, ...]:
    """`--ignore-missing-imports` where each of the hooks one run stands for ignores missing
    imports: an import the project's environment lacks too is no error of its gate
    (typeguard's `typeshed.stdlib.types` under TYPE_CHECKING, mirrors-mypy's default args:
    0 errors, where lspd said 1); else nothing."""
    ignoring = hooks and all(_ignores_missing(hook) for hook in hooks)
    return ("--ignore-missing-imports",) if ignoring else ()


def _ignores_missing(hook: dict[str, Any]) -> bool:
    """Whether a hook's mypy ignores missing imports: its `args` say so, or it writes none
    of a hook repository's (mirrors-mypy's defaults: `--ignore-missing-imports
    --scripts-are-modules` since 2018; its latest revisions add `--no-warn-unused-ignores`,
    not read: which revision added it is not known here)."""
    if "args" not in hook and not hook.get("entry"):
        return True
    return "--ignore-missing-imports" in _after(hook)


def _after(hook: dict[str, Any]) -> list[str]:
    """A hook's words after mypy: its entry's (a local hook: `mypy src tests`), its `args`."""
    return spelled(words_after(hook, ("mypy",), "mypy"))


def words_after(hook: dict[str, Any], tools: tuple[str, ...], entry: str) -> list[str]:
    """A hook's words after the first of `tools` in its entry (`entry` where it names
    none) and its `args`; none where no such word is there."""
    args = hook.get("args") or []
    words = [*str(hook.get("entry") or entry).split()]
    words += map(str, args) if isinstance(args, list) else [str(args)]
    at = next((i for i, w in enumerate(words) if w in tools), None)
    return [] if at is None else words[at + 1 :]


def _options(words: list[str], folder: Path) -> tuple[str, ...] | None:
    """A hook's options changing what mypy reports; None where one is neither such nor one
    only shaping its output (`SAME_CHECK`), nor a `--config-file` naming the file mypy
    finds by itself (`_found_anyway`): such a hook is never taken."""
    words = _found_anyway(words, folder)
    taken = tuple(w for w in checking_options(words) if w not in SAME_CHECK)
    unknown = [w for w in words if w.startswith("-") and w not in taken]
    return None if any(w.split("=")[0] not in SAME_CHECK for w in unknown) else taken


def _named_files(options: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """A hook's options where it passes mypy file names: less `--exclude`, which leaves
    out what mypy's walk of a folder finds, never a file named (`mypy_walk`)."""
    return None if options is None else unexcluded(options)


def _found_anyway(words: list[str], folder: Path) -> list[str]:
    """A hook's words less its `--config-file` where that names the file mypy reads by
    itself where the hook runs, `folder` (`args: [--config-file=pyproject.toml]`, written
    by many: the same configuration lspd reads)."""
    named, rest = option_values(words, _CONFIG_FILE)
    return rest if named and names_found(folder, named[-1]) else words


def _groups(
    hooks: list[tuple[T, tuple[str, ...] | None]],
) -> list[tuple[list[T], tuple[str, ...]]]:
    """The hooks (each as its caller holds it) by the run of mypy standing for them, one per
    set of options, with those options: the hooks giving none first where some give other
    options (black's second hook, over one script, `--python-version=3.10 --strict`), else
    those giving the first's; a hook with an option lspd does not know (None) is in none."""
    runs: dict[tuple[str, ...], list[T]] = {}
    for hook, options in hooks:
        if options is not None:
            runs.setdefault(options, []).append(hook)
    if () in runs:
        runs = {(): runs.pop(()), **runs}
    return [(found, options) for options, found in runs.items()]


def _is_mypy(hook: dict[str, Any]) -> bool:
    """mirrors-mypy's hook, or a local one whose command is mypy (`entry: mypy`,
    `entry: python -m mypy`, polyfactory's `uv run --all-groups mypy`; not `dmypy`, whose
    targets its arguments name)."""
    return runs_tool(hook, ("mypy",))


def runs_tool(hook: dict[str, Any], tools: tuple[str, ...]) -> bool:
    """Whether a hook runs one of `tools`: a hook repository's of its id (no `entry`), or a
    local one whose command is one (first, or after a runner: `mypy_scripts.commanded`)."""
    entry = str(hook.get("entry") or "").split()
    if hook.get("id") in tools and not entry:
        return True
    return any(w in tools and commanded(entry, i, RUNNERS) for i, w in enumerate(entry))


def regexes(table: dict[str, Any]) -> Regexes:
    """A table's `files` and `exclude` (pre-commit's defaults: every file, none left)."""
    files, exclude = table.get("files", ""), table.get("exclude", "^$")
    return re.compile(str(files or "")), re.compile(str(exclude or "^$"))


def passes(pair: Regexes, name: str) -> bool:
    """Whether pre-commit passes the file `name` (relative to its configuration) by `pair`."""
    files, exclude = pair
    return files.search(name) is not None and exclude.search(name) is None
