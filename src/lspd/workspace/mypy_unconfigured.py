"""Whether a Python project that configures no checker gates on mypy all the same: its own
lint script runs mypy on paths of it, or its pre-commit configuration has a mypy hook, and
nothing of it runs pyright. The `hatch new` template's pyproject.toml has no `[tool.mypy]`;
its `types:check` script runs `mypy --install-types --non-interactive {args:src/x tests}`.
Judged by basedpyright's defaults, such a project failed with errors its gate never says
(an unannotated helper's `reportMissingTypeArgument`, where mypy said "Success").

mypy then runs with its defaults on what the script or hook chooses (`mypy_scope`), as the
project's gate runs it.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.checker_runs import run_paths, runs
from lspd.workspace.mypy_precommit import precommit_mypy, precommit_paths
from lspd.workspace.mypy_scripts import script_paths, script_targets
from lspd.workspace.pyright_part import COMMANDS


def mypy_runner(directory: Path) -> str | None:
    """What of the project at `directory` runs mypy (its pre-commit hook, the script naming
    it), where nothing of it runs pyright; None where nothing runs mypy on it."""
    hook = precommit_mypy(directory)
    script = script_targets(directory)
    if hook is not None and hook.path.parent == directory:
        found = hook.label
    elif script is not None:
        found = script.named
    else:
        return None
    return None if runs(directory, COMMANDS) else found


def runner_paths(directory: Path) -> list[Path]:
    """The paths whose change can change `mypy_runner(directory)`."""
    found = [*precommit_paths(directory), *script_paths(directory), *run_paths(directory)]
    return list(dict.fromkeys(found))
