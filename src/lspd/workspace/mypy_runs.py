"""The runs of mypy a project's gate makes beyond the one lspd's scope stands for: one per
set of options changing what mypy reports. A gate running mypy twice fails on an error of
either run, so each is run (its own dmypy: `engine/mypy_check`), and the gate's errors are
both runs' (returns' workflow: `mypy --enable-error-code=unused-awaitable returns`, then
`mypy docs tests`, whose test error was missed; multidict's pre-commit hooks for Python
3.13 and 3.11; trio's tox: `mypy --platform linux`, `darwin`, `win32`). Taken from where
the first run was: the same hooks' configuration, the same script.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from lspd.workspace.mypy_precommit import PrecommitMypy
from lspd.workspace.mypy_scripts import ScriptMypy, configured_runs, script_runs
from lspd.workspace.mypy_walk import named_by, named_files


class Choice(NamedTuple):
    """What one run of mypy is pointed at, and why."""

    files: list[Path]  # of the project's walked Python files, those mypy is pointed at
    note: str  # why: the scope's note
    targets: tuple[str, ...]  # given mypy where they are not those files (the packages)
    read: list[Path]  # the files read to choose (an edit of one chooses again)
    options: tuple[str, ...] = ()  # a hook's or lint script's options changing what mypy says
    configured: bool = False  # `files` alone: mypy run as its configuration says
    named: frozenset[Path] = frozenset()  # the files it names itself: none left out
    more: tuple[Choice, ...] = ()  # the gate's other runs, with other options


def configured_more(
    hook: PrecommitMypy | None, script: ScriptMypy | None, chosen: Choice, directory: Path
) -> Choice:
    """`chosen` (mypy run as its configuration's `files` say, with the options of the
    project's own `hook` running it so, else of the lint `script`'s command) with the other
    runs of the same hooks or script that run it so with other options."""
    if hook is not None and hook.path.parent == directory and hook.configured is not None:
        others = [run.options for run in hook.more if not (run.hooks or run.paths)]
    elif script is not None:
        others = [run.options for run in configured_runs(directory)[1:]]
    else:
        others = []
    return chosen._replace(more=tuple(_also(chosen, options) for options in others))


def hooked_more(hook: PrecommitMypy, chosen: Choice, inside: list[Path], directory: Path) -> Choice:
    """`chosen` (the files `hook`'s mypy hooks pass mypy, or the paths they name) with the
    runs of its other hooks, with other options: the files they pass, the paths they name."""
    more = []
    for run in hook.more:
        if run.hooks:
            files = [p for p in inside if hook.takes(p, run.hooks)]
            more.append(Choice(files, chosen.note, (), [], run.options, named=frozenset(files)))
        elif run.paths:
            files = named_by(directory, inside, run.paths)
            named = named_files(directory, files, run.paths)
            more.append(Choice(files, chosen.note, run.paths, [], run.options, named=named))
    return chosen._replace(more=tuple(c for c in more if c.files))


def scripted_more(chosen: Choice, inside: list[Path], directory: Path) -> Choice:
    """`chosen` (the paths a lint script's first mypy run names) with the script's other
    runs, with other options, on the paths each names."""
    more = []
    for script in script_runs(directory)[1:]:
        files = named_by(directory, inside, script.paths)
        named = named_files(directory, files, script.paths)
        more.append(Choice(files, chosen.note, script.paths, [], script.options, named=named))
    return chosen._replace(more=tuple(c for c in more if c.files))


def _also(chosen: Choice, options: tuple[str, ...]) -> Choice:
    """Another run of mypy on what `chosen` is pointed at, given `options`."""
    return chosen._replace(read=[], options=options, more=())


def also_note(more: tuple[Choice, ...]) -> str:
    """What a scope's note says of its other runs: the paths each names, its options."""
    said = []
    for run in more:
        on = f" on {', '.join(run.targets)}" if run.targets else ""
        given = f" with {' '.join(run.options)}" if run.options else ""
        said.append(f"; mypy run again{on}{given}, as the gate runs it")
    return "".join(said)
