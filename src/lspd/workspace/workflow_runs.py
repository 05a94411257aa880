"""The commands a project's CI workflows run: each step's `run` (`.github/workflows/*.yml`).

Many projects gate on a workflow step alone, with nothing else running the checker: dacite's
`run: mypy dacite` (no mypy configuration: basedpyright's defaults said 113 errors where its
gate says 0), returns' `mypy --enable-error-code=unused-awaitable returns` (the option lost:
an unawaited call went unsaid). `mypy_scripts` reads these commands as a script's lines.
"""

from __future__ import annotations

from pathlib import Path

import yaml

WORKFLOWS = Path(".github/workflows")


def workflows(folder: Path) -> list[Path]:
    """The CI workflows in `folder` (`.github/workflows`)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml"))
    except OSError:
        return []


def run_texts(text: str) -> list[str]:
    """The `run` texts of each job's steps of the workflow `text`, in order; none where it
    is no YAML lspd can read."""
    try:
        body = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError):
        return []
    jobs = body.get("jobs") if isinstance(body, dict) else None
    found: list[str] = []
    for job in jobs.values() if isinstance(jobs, dict) else ():
        steps = job.get("steps") if isinstance(job, dict) else None
        for step in steps if isinstance(steps, list) else ():
            if isinstance(step, dict) and isinstance(run := step.get("run"), str):
                found.append(run)
    return found
