"""A mypy configuration below the root that no mypy run of the gate reads.

sqlglot's `sqlglotc/pyproject.toml` holds a `[tool.mypy]` table mypyc reads when it builds,
naming no `files`; the repository's gate is its pre-commit hook's `mypy sqlglot tests`, run
at the top. Taken for a project of its own (every file, its configuration), it said 4
errors of `sqlglotc/setup.py` no run of the gate checks. Such a configuration is the
gate's only where something of its own folder runs mypy (a script, a Makefile, tox: as
`mypy_scripts` reads them), or the root's own runs name no paths (a hook passing every
file, a bare `mypy`), or name one holding it.
"""

from __future__ import annotations

from pathlib import Path

from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_precommit import precommit_mypy
from lspd.workspace.mypy_scripts import script_configured, script_targets


def run_elsewhere(directory: Path, config: MypyConfig, root: Path) -> bool:
    """Whether the configuration at `directory` (below `root`) is read by no run of the
    gate: it names no `files`, nothing of its folder runs mypy, and the root's runs name
    paths, none of them holding it."""
    if directory == root or config.files:
        return False
    if script_targets(directory) is not None or script_configured(directory) is not None:
        return False
    hook = precommit_mypy(root)
    if hook is not None and (hook.hooks or hook.configured is not None):
        return False  # passes every file it takes (or runs mypy as configured)
    script = script_targets(root)
    named = [*(hook.runs if hook is not None else ()), *(script.paths if script else ())]
    if not named or script_configured(root) is not None:
        return False
    held = [(root / p).resolve() for p in named]
    return not any(directory == path or path in directory.parents for path in held)
