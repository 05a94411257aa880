"""The hooks a pre-commit configuration runs: each of its repositories' hooks, less those of
the manual stage alone. A hook of `stages: [manual]` runs only when asked by name
(`pre-commit run --hook-stage manual ...`), neither on a commit nor in `pre-commit run
--all-files`: pytest's pyright hook ("Manual because passing pyright is a work in
progress") is no gate of it, and basedpyright's 301 diagnostics were lspd's answer where
its gate, mypy, said 0. Such a hook runs where the repository's own CI workflows or scripts
run that stage (`--hook-stage manual`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from lspd.workspace.files import read_text

CONFIG_NAME = ".pre-commit-config.yaml"
WORKFLOWS = Path(".github/workflows")
_MANUAL = re.compile(r"--hook-stage[= ]+manual\b")
# the scripts at a repository's top that may run the manual stage
_SCRIPTS = ("tox.ini", "tox.toml", "noxfile.py", "Makefile", "justfile", "pyproject.toml")
_MOST_BYTES = 256_000  # a file this large runs no stage lspd reads


def config_hooks(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any], list[Path]]:
    """The hooks the pre-commit configuration at `path` runs, its top-level table, and the
    files read beside it (whose change can change which run). Raises `yaml.YAMLError` where
    it is no YAML (or holds a value YAML cannot make); none where it is no table."""
    try:
        body = yaml.safe_load(read_text(path) or "")
    except ValueError as exc:  # a value YAML cannot make (`rev: 2024-02-30`, a date)
        raise yaml.YAMLError(str(exc)) from None
    if not isinstance(body, dict):
        return [], {}, []
    listed = [hook for repo in _listed(body.get("repos")) for hook in _listed(repo.get("hooks"))]
    default = body.get("default_stages")
    manual = [hook for hook in listed if _manual_only(hook.get("stages", default))]
    if not manual:
        return listed, body, []
    run, read = manual_stage_run(path.parent)
    return [hook for hook in listed if run or hook not in manual], body, read


def manual_stage_run(top: Path) -> tuple[bool, list[Path]]:
    """Whether the CI workflows or scripts of the repository whose top is `top` run
    pre-commit's manual stage, and the files and folders read to say it."""
    read = stage_paths(top)
    for path in read:
        try:
            small = path.is_file() and path.stat().st_size <= _MOST_BYTES
            if small and _MANUAL.search(path.read_text(encoding="utf-8", errors="replace")):
                return True, read
        except OSError:
            continue
    return False, read


def stage_paths(top: Path) -> list[Path]:
    """The files and folders saying whether the repository at `top` runs the manual stage:
    its workflows' folder and each workflow, its scripts."""
    return [top / WORKFLOWS, *workflows(top / WORKFLOWS), *(top / name for name in _SCRIPTS)]


def workflows(folder: Path) -> list[Path]:
    """The CI workflows in `folder` (`.github/workflows`)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml"))
    except OSError:
        return []


def _manual_only(stages: Any) -> bool:
    """Whether a hook's `stages` (or the configuration's `default_stages`) are the manual
    stage alone."""
    return isinstance(stages, list) and bool(stages) and set(map(str, stages)) == {"manual"}


def _listed(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
