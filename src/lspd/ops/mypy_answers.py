"""mypy's answers in lspd's shapes: each file's result of the whole check's mypy step
(`engine/mypy_step.py`: `result_of`), one file's diagnostics, and the diagnostics of a held
state (preview, baseline) for the files of mypy-gated projects.

The engine (`engine/mypy_check.py`) runs the project's own mypy and says what it found; here
each error becomes a `Diagnostic` (`source` "mypy", its notes attached) and each file of
the project a `DiagnosticsResult` naming the checker that judged it and why. A project
configured for both mypy and basedpyright gets both, each diagnostic naming its checker
(`merged`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.engine.mypy_check import MypyRun, run_mypy
from lspd.engine.mypy_errors import MypyError
from lspd.engine.mypy_project import MypyProject, by_project
from lspd.engine.mypy_step import SERVER, mypy_stop, toolchain_of, why_of
from lspd.engine.stops import Stop
from lspd.ops.environment_hint import environment_hint, pinned_hint
from lspd.ops.models import Diagnostic, DiagnosticsResult
from lspd.workspace import Workspace

OUTSIDE = "; this file is outside the files mypy checks: mypy did not check it"


@dataclass(frozen=True)
class Judged:
    """mypy's diagnostics of one file, its project and the toolchain that judged."""

    project: MypyProject
    items: list[Diagnostic]
    toolchain: str
    why: str  # the project's checker and why; said when mypy's targets leave the file out
    stop: Stop | None = None  # mypy stopped at a blocking error (a syntax error), maybe elsewhere


async def mypy_file(ws: Workspace, path: Path, content: str | None) -> Judged | None:
    """mypy's diagnostics of one file (with `content` for its text, in the daemon's copy);
    None when mypy does not judge it."""
    groups = by_project(ws, [path])
    if not groups:
        return None
    project = next(iter(groups))
    run = await run_mypy(ws, project, {path: content} if content is not None else None)
    items = [diagnostic_of(e) for e in run.errors.get(path, [])]
    why = _why(run)
    if not run.checked(path) and path not in run.errors:  # as its CI: said, not hidden
        why += OUTSIDE
    stop = mypy_stop(ws, run)
    if stop is not None and path not in run.errors:  # said, never a clean file
        where = ", ".join(f"{p}:{line}" for p, line in stop.at[:3])
        why += f"; mypy stopped at the error at {where} (errors prevented further checking)"
        why += " and did not check this file"
    return Judged(project, items, toolchain_of(ws, project), why, stop)


async def mypy_diagnosed(
    ws: Workspace,
    files: list[Path],
    texts: Mapping[Path, str | None],
    stops: list[Stop] | None = None,
) -> tuple[dict[Path, list[Diagnostic]], dict[Path, MypyProject], dict[Path, str]]:
    """mypy's diagnostics with `texts` held (in the daemon's copy: nothing is written into
    the project), by file: of `files` and of every other file mypy checked in their projects
    (one run checks them all: a caller broken by a changed signature is found wherever it
    is); each file's project, and its `checker` (`why_of` the run that answered). A run
    that stopped at a blocking error (a syntax error) is added to `stops`."""
    found: dict[Path, list[Diagnostic]] = {}
    projects: dict[Path, MypyProject] = {}
    checkers: dict[Path, str] = {}
    # A file gone in this state still names its project: its importers' errors are asked.
    asked = [*files, *(path for path in texts if path not in files)]
    for project, members in by_project(ws, asked).items():
        run = await run_mypy(ws, project, texts)
        if stops is not None and (stop := mypy_stop(ws, run)) is not None:
            stops.append(stop)
        for path in dict.fromkeys([*members, *run.files]):
            if path in texts and texts[path] is None:
                continue  # not there: no diagnostics of its own
            found[path] = [diagnostic_of(e) for e in run.errors.get(path, [])]
            projects[path] = project
            checkers[path] = _why(run)
    return found, projects, checkers


def result_of(ws: Workspace, run: MypyRun, path: Path, toolchain: str) -> DiagnosticsResult:
    """One file's whole result of mypy's errors in `run` (the whole check's: no paging)."""
    errors = run.errors.get(path, [])
    items = sorted((diagnostic_of(e) for e in errors), key=lambda d: (d.line, d.column))
    outside = not run.checked(path) and not errors  # `check --all`: said, never clean
    return DiagnosticsResult(
        path=ws.display(path),
        server=SERVER,
        toolchain=toolchain,
        checker=_why(run) + (OUTSIDE if outside else ""),
        errors=len(items),
        warnings=0,
        diagnostics=items,
        total=len(items),
        # each line said once in the whole check's answer (`checked`)
        environment="\n".join(_environment(ws, run, path, toolchain, items)) or None,
    )


def _environment(
    ws: Workspace, run: MypyRun, path: Path, toolchain: str, items: list[Diagnostic]
) -> list[str]:
    """What the run's environment lacks: the other runs of the gate mypy failed in, the
    imports that did not resolve, another mypy than the pre-commit hook's."""
    hints = [environment_hint(toolchain, items, root=ws.root, path=path)]
    hints.append(pinned_hint(toolchain, path))
    return [*run.failed, *(h for h in hints if h is not None)]


def _why(run: MypyRun) -> str:
    """The checker of the run's files, and why; the other runs of the gate mypy failed in."""
    return why_of(run.project, run.once) + "".join(f"; {failed}" for failed in run.failed)


def diagnostic_of(error: MypyError) -> Diagnostic:
    """A mypy error as lspd shows it, its notes attached."""
    return Diagnostic(
        line=error.line,
        column=error.column,
        end_line=error.end_line,
        end_column=error.end_column,
        severity="error",
        message=error.message,
        code=error.code,
        source=SERVER,
        notes=list(error.notes) or None,
    )


def merged(results: list[DiagnosticsResult]) -> list[DiagnosticsResult]:
    """One result per file: a file both checkers judged gets both's diagnostics (each
    naming its checker), errors first, and mypy's `checker`."""
    by_path: dict[str, DiagnosticsResult] = {}
    out: list[DiagnosticsResult] = []
    for result in results:
        first = by_path.get(result.path)
        if first is None:
            by_path[result.path] = result
            out.append(result)
            continue
        both = [*first.diagnostics, *result.diagnostics]
        both.sort(key=lambda d: (d.severity != "error", d.line, d.column))
        joined = first.model_copy(
            update={
                "diagnostics": both,
                "errors": first.errors + result.errors,
                "warnings": first.warnings + result.warnings,
                "total": len(both),
                "checker": first.checker or result.checker,
                "server": f"{first.server}+{result.server}",
            }
        )
        out[out.index(first)] = by_path[result.path] = joined
    return out
