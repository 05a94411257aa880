"""mypy's step of the whole check (`engine/steps.py`): the files of mypy-gated projects,
one warm run of each project's own mypy (`engine/mypy_check.py`), each file's result made by
the caller (`ops/mypy_answers.result_of`: a `DiagnosticsResult`); and how a result names the
mypy that judged it (`toolchain_of`, `why_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from lspd.engine.mypy_blocked import stopped_at
from lspd.engine.mypy_check import MypyRun, daemon_of, run_mypy
from lspd.engine.mypy_project import MypyProject, by_project, project_of
from lspd.engine.stops import MYPY, Stop, stop_of
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.mypy_installed import installed_version

SERVER = "mypy"
ONCE = "; mypy run once with its cache, not dmypy, whose answer after an edit drops unused ignores"
R = TypeVar("R")


@dataclass(frozen=True)
class MypyStep:
    """mypy's step, its files chosen and its runs not yet made: which files are left to the
    next steps is known before mypy runs, so a whole check asks basedpyright's files while
    mypy runs (trio: mypy's 10 s and basedpyright's 5 s, one after the other before)."""

    groups: dict[MypyProject, list[Path]]  # the files mypy judges, by project
    shared: frozenset[Path]  # those of them basedpyright judges too (the caller joins both)
    asked: list[Path]  # the files its runs check
    left: list[Path]  # the files left to ask one by one (basedpyright's)

    @property
    def alone(self) -> int:
        """How many files its runs answer alone (the progress they tick once made)."""
        return len(self.asked) - len(self.shared)

    async def results(
        self,
        ws: Workspace,
        result_of: Callable[[MypyRun, Path, str], R],
        stops: list[Stop] | None = None,
    ) -> list[R]:
        """One warm run per project, each file's result made by `result_of` (a file
        basedpyright judges too: where mypy reports on it; the caller joins the two results
        of such a file); a run that stopped at a blocking error added to `stops`."""
        results: list[R] = []
        for project, files in self.groups.items():
            run = await run_mypy(ws, project)
            if stops is not None and (stop := mypy_stop(ws, run)) is not None:
                stops.append(stop)
            toolchain = toolchain_of(ws, project)
            for path in files:
                if path not in self.shared or run.checked(path) or path in run.errors:
                    results.append(result_of(run, path, toolchain))  # else basedpyright's alone
        return results


def mypy_step(ws: Workspace, rest: list[Path]) -> MypyStep:
    """The files of `rest` mypy judges, by project; those left to the next steps: the rest,
    and the files of a project basedpyright judges too."""
    groups = by_project(ws, rest)
    judged = {p: project for project, files in groups.items() for p in files}
    shared = frozenset(p for p, project in judged.items() if project.pyright_judges(p))
    asked = [p for p in rest if p in judged]
    left = [p for p in rest if p not in judged or p in shared]
    return MypyStep(groups, shared, asked, left)


def mypy_stop(ws: Workspace, run: MypyRun) -> Stop | None:
    """mypy's stop at the errors of `run` that stopped it (`stopped_at`, of the files
    `run.blocking` names where it names any): none of the other files it reports on was
    checked (`reported`)."""
    if not run.stopped or not run.errors:
        return None
    where = run.blocking or run.errors.keys()
    said = [(p, e) for p, errors in run.errors.items() if p in where for e in errors]
    stopped = {id(e) for e in stopped_at([e for _, e in said])}  # not a type error before it
    at = [(ws.display(p), e.line) for p, e in said if id(e) in stopped]
    return stop_of(MYPY, at, map(ws.display, reported(ws, run)))


def reported(ws: Workspace, run: MypyRun) -> list[Path]:
    """The files `run`'s mypy reports errors of: its targets and the modules of its project
    it follows into from them (`run.files`, the run's state's: `mypy_follow`), those whose
    project is the run's (one file, one project: a module of another project it follows
    into is that one's to answer). A module nothing of them imports is none: mypy never
    checks it."""
    own = run.project.directory
    ours: dict[Path, bool] = {}
    known: dict[Path, MypyProject | None] = {}  # by folder: the files' share those above
    found = []
    for path in run.files:
        if path.parent not in ours:
            try:
                project = project_of(ws, path, known)
            except InvalidInput:  # another project's configuration is bad: not this one
                project = None
            ours[path.parent] = project is not None and project.directory == own
        if ours[path.parent]:
            found.append(path)
    return sorted(found)


def why_of(project: MypyProject, once: bool) -> str:
    """The project's checkers and why; where its mypy ran once for the answer (`once`, the
    answer's own: `MypyRun.once`), that too (`mypy_once`)."""
    return project.why + (ONCE if once else "")


def toolchain_of(ws: Workspace, project: MypyProject) -> str:
    """`mypy 2.4.1 (.venv/bin/python)`: the project's mypy that judged, its version read
    from the environment at each check (its `.dist-info`), else the one its dmypy asked:
    an upgrade in its .venv restarts dmypy, whose version was read once, so results of the
    new mypy were labelled with the old and HEAD's kept result was not checked again."""
    daemon = daemon_of(ws, project)
    found = installed_version(daemon.interpreter) or daemon.version
    version = ".".join(map(str, found or ())) or "?"
    return f"mypy {version} ({ws.display(daemon.interpreter)})"
