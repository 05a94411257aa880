"""The part of a project both mypy and basedpyright judge that basedpyright judges.

A project with both configurations often gates on mypy and runs pyright on a few folders:
trio's `[tool.pyright]` (strict, no `include`) is its editors', while its tox runs `mypy`
on the `files` mypy's configuration names and `pyright src/trio/_tests/type_tests` and
`pyright src/trio/_core/_tests/type_tests`. Judged by basedpyright everywhere its
configuration reaches, trio's clean tree had 1,871 errors (mypy: 5, pyright on those
folders: 0). So what the project's own pyright (or basedpyright) runs are given is its
part, in place of its `include`, as pyright reads its command line (`pyright_given`: the
paths a script names, the files a pre-commit hook passes); without them, its `include`;
without either, the configuration's files, all of them. Where
something of the project runs mypy and nothing runs pyright (`checker_runs`: werkzeug's
`include = ["src"]` is its editors', its gate mypy alone), its part is no file. Where ty is
the server beside mypy (`ty_config`: typer's lint.sh runs `mypy typer`, `ty check typer`),
its part is what a script runs ty on, where it names paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lspd.workspace.checker_runs import run_paths, runs
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.pyright_given import COMMANDS, PyrightGiven, given_paths, pyright_given
from lspd.workspace.pyright_scope import CONFIG_JSON, DEFAULT_EXCLUDES, PYPROJECT, config_in, spec
from lspd.workspace.ty_config import TY, ran_on, ty_beside_mypy

# (`pyright --verifytypes`, click's, checks no file's errors: no run of it counts)
NOT_RUN = (
    "no file: the project runs mypy, no pyright checks its files (its configuration is its "
    "editors')"
)


@dataclass(frozen=True)
class PyrightPart:
    """Where basedpyright judges a project both checkers judge, as basedpyright's specs."""

    include: tuple[str, ...]  # the patterns of its paths (`pyright_scope.Spec`)
    exclude: tuple[str, ...]  # its configuration's `exclude` patterns (and the defaults)
    note: str  # which chose them, as the scope says it
    given: PyrightGiven | None = None  # what the gate's pyright runs are given, if they name files

    def judges(self, path: Path) -> bool:
        """Whether basedpyright judges the file at `path`."""
        text = str(path)
        if any(re.match(p, text) for p in self.exclude):
            return False
        if self.given is not None and self.given.takes(path):
            return True
        configured = self.given is None or self.given.configured
        return configured and any(re.match(p, text) for p in self.include)


_PARTS: Memo[PyrightPart | None] = Memo()


def pyright_part(directory: Path) -> PyrightPart | None:
    """basedpyright's part of the project at `directory` where it is not every file its
    configuration reaches: no file where mypy runs and pyright not, else its `include`, else what
    its scripts run pyright on; None where neither limits it. Read again when the
    configuration or what may run a checker changed or came (`part_paths`)."""
    paths = (directory / CONFIG_JSON, directory / PYPROJECT, *part_paths(directory))
    return _PARTS.get(directory, paths, lambda: (_part(directory), ()))


def part_paths(directory: Path) -> list[Path]:
    """The paths beyond the configuration whose change can change the part: what may run
    a checker (`checker_runs`), the scripts and hooks its runs are given paths by."""
    return [*run_paths(directory), *given_paths(directory)]


def _part(directory: Path) -> PyrightPart | None:
    config = config_in(directory)
    if config is None:  # ty beside mypy: what runs ty on paths; else what runs pyright
        if ty_beside_mypy(directory):
            given = ran_on(directory)
            return None if given is None else _ran_on(directory, *given, TY)
        if (runs_given := pyright_given(directory)) is None or runs_given.configured:
            return None
        exclude = tuple(spec(directory, glob).pattern.pattern for glob in DEFAULT_EXCLUDES)
        return PyrightPart((), exclude, runs_given.note, runs_given)
    if not runs(directory, COMMANDS) and runs(directory, ("mypy", "dmypy")):
        return PyrightPart((), (), NOT_RUN)
    exclude = tuple(s.pattern.pattern for s in config.exclude)
    if (runs_given := pyright_given(directory)) is not None:  # in place of its `include`
        include = tuple(s.pattern.pattern for s in config.include)
        return PyrightPart(include, exclude, runs_given.note, runs_given)
    if config.included:
        return PyrightPart(tuple(s.pattern.pattern for s in config.include), exclude, "its include")
    return None


def _ran_on(directory: Path, named: str, paths: tuple[str, ...], command: str) -> PyrightPart:
    """The part of `paths` (what `named` runs `command` on)."""
    include = tuple(spec(directory, path).pattern.pattern for path in paths)
    return PyrightPart(include, (), f"what {named} runs {command} on: " + ", ".join(paths))
