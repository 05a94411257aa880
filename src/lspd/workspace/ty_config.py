"""Whether a project's gate is ty's: what runs its checker runs ty alone (`ty_gate`
chooses its server, `ty_scope` its files, `mypy_config` leaves it to ty where a mypy
configuration is left over that nothing runs), or ty beside mypy (typer's lint.sh: `mypy
typer`, then `ty check typer`; `mypy_config` has both judge it). Read where the project
configures ty, and at a repository's outermost project configuring none (gimmegit's
justfile runs `uv run ty check`, its pyproject.toml has no `[tool.ty]`: ty's defaults
judge it; lspd's basedpyright said 11 errors and 744 warnings where its gate says none). A
package below configuring no ty is its top's: what runs ty there runs it at the top."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import yaml

from lspd.workspace.checker_runs import ran, run_paths
from lspd.workspace.files import read_text
from lspd.workspace.mypy_scripts import (
    RUNNERS,
    commanded,
    named_paths,
    script_paths,
    script_targets,
)
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.precommit_hooks import CONFIG_NAME, config_hooks
from lspd.workspace.pyright_given import pyright_given
from lspd.workspace.pyright_scope import CONFIG_JSON, PYPROJECT, config_in
from lspd.workspace.tool_config import configures_tool

TY = "ty"
CONFIG = "ty.toml"
DEFAULTS = "ty's defaults"  # the label of a project configuring no ty whose gate runs it
_MYPYS = frozenset({"mypy", "dmypy"})
_PYRIGHTS = frozenset({"pyright", "basedpyright"})
_CHECKERS = (TY, *_MYPYS, *_PYRIGHTS)
_PYREFLY = "pyrefly"
_RAN: Memo[frozenset[str]] = Memo()
_UNRUN: Memo[frozenset[str]] = Memo()  # (`unrun_note`: read again only when one changed)


def gated_ty(project: Path) -> bool:
    """Whether the project at `project` gates on ty alone (nothing of it runs another
    checker). Read again when a file it was read from changes."""
    return _ran(project) == {TY}


def ty_beside_mypy(project: Path) -> bool:
    """Whether the project at `project` gates on ty and mypy (or dmypy). Where it runs
    pyright too (structlog's tox: `mypy src`, `ty check`, `pyright tests/typing`), ty is the
    server beside mypy: it checks what the command names, pyright a folder or two (lspd runs
    one server beside mypy; before, it ran mypy alone, and an error ty alone reports was
    never told)."""
    checkers = _ran(project)
    if TY not in checkers or not checkers & _MYPYS:
        return False
    # pyright run over its own configuration (argon2-cffi's tox: `pyright`, its `include`)
    # checks what ty does: pyright is the server beside mypy, as the scope line says it is
    configured = bool(checkers & _PYRIGHTS) and config_in(project) is not None
    return not (configured and pyright_given(project) is None)


def unrun_note(project: Path, server: str) -> str | None:
    """The scope's words for the checkers the gate of the project at `project` runs that
    lspd does not, as it runs one server (`server`: ty or pyright), beside mypy or alone:
    structlog's tox runs `pyright tests/typing` and `pyrefly check` beside mypy and ty,
    svcs's `ty check` and `pyrefly check` beside mypy and pyright, and an error of theirs
    alone was said as none, in silence. None where it runs no other."""
    others = [TY, *_PYRIGHTS, _PYREFLY]
    others = [n for n in others if n != server and not {n, server} <= _PYRIGHTS]
    given = pyright_given(project)
    paths, key = tuple(gate_paths(project)), (project, *others)
    found = _UNRUN.get(key, paths, lambda: (frozenset(ran(project, tuple(others))), ()))
    unrun = [
        f"{name} ({given.note})" if name in _PYRIGHTS and given and not given.configured else name
        for name in sorted(found)
    ]
    if not unrun:
        return None
    said = ", ".join(unrun)
    return f"not checked: {said}, which the gate runs too (lspd runs one server here: {server})"


def ty_home(project: Path) -> bool:
    """Whether ty's reading of the project at `project` is the question: it configures ty,
    or (its repository's outermost project) something of it runs ty; its gate ty's or not."""
    return configures_ty(project) or (outermost(project) and TY in _ran(project))


def may_gate_ty(project: Path) -> bool:
    """Whether the project at `project` may gate on ty (`gated_ty`): it configures ty, or
    is its repository's outermost project; what runs its checker decides."""
    return configures_ty(project) or outermost(project)


def gate_paths(project: Path) -> list[Path]:
    """The paths whose change can change `gated_ty(project)`, `ty_beside_mypy(project)` (a
    pyrightconfig.json: pyright run over its own configuration is the one beside mypy)."""
    configs = [project / name for name in (PYPROJECT, CONFIG, CONFIG_JSON)]
    return list(dict.fromkeys([*configs, *script_paths(project), *run_paths(project)]))


def _ran(project: Path) -> frozenset[str]:
    """The checkers the project's scripts, hooks and workflows run where it configures ty
    or is its repository's outermost project; none elsewhere."""
    if not may_gate_ty(project):  # no script read (a uv workspace's 400 members)
        return frozenset()
    paths = tuple(gate_paths(project))
    return _RAN.get(project, paths, lambda: (frozenset(ran(project, _CHECKERS)), ()))


def outermost(project: Path) -> bool:
    """Whether `project` holds a pyproject.toml and no folder above it in its repository
    does: what runs ty there runs it on this project (a package below is its files)."""
    if not (project / PYPROJECT).is_file():
        return False
    for folder in (project, *project.parents):
        if folder != project and (folder / PYPROJECT).is_file():
            return False
        if (folder / ".git").exists():
            return True
    return True


def errors_on_warning(project: Path) -> bool:
    """Whether ty's configuration of the project at `project` makes a warning fail its
    gate (`[tool.ty.terminal] error-on-warning = true`, ty.toml's `[terminal]`: typer's)."""
    terminal = ty_table(project).get("terminal")
    return isinstance(terminal, dict) and terminal.get("error-on-warning") is True


def ty_table(project: Path) -> dict[str, Any]:
    """ty's configuration of the project at `project`: ty.toml's, else pyproject.toml's
    `[tool.ty]`; empty where it has none or it does not parse (the scope says so)."""
    config = project / CONFIG
    path = config if config.is_file() else project / PYPROJECT
    try:
        data = tomllib.loads(read_text(path) or "")
    except tomllib.TOMLDecodeError:
        return {}
    table = data if path == config else data.get("tool", {}).get(TY, {})
    return table if isinstance(table, dict) else {}


def label(project: Path) -> str:
    """How answers name the ty configuration of the project at `project`."""
    if (project / CONFIG).is_file():
        return CONFIG
    return f"{PYPROJECT} [tool.ty]" if configures_ty(project) else DEFAULTS


def configures_ty(project: Path) -> bool:
    """Whether ty's configuration is the project's: a ty.toml, or a `[tool.ty]` table."""
    return configures_tool(project, CONFIG, TY)


def ran_on(directory: Path) -> tuple[str, tuple[str, ...]] | None:
    """What names the paths ty is run on (relative to `directory`) and those paths: the
    first of the project's scripts running ty on paths, else its pre-commit hooks passing
    no file names; None where none names paths."""
    script = script_targets(directory, (TY,))
    if script is not None and script.paths:
        return script.named, script.paths
    return _hook_paths(directory)


def _hook_paths(directory: Path) -> tuple[str, tuple[str, ...]] | None:
    """The paths (relative to `directory`) a pre-commit hook of the project's repository
    runs ty on where it passes no file names, and how the note names the hook; None where
    none does. A hook passing file names is left to the configuration's files."""
    found: dict[str, None] = {}
    for folder, hook in precommit_hooks(directory):
        if hook.get("pass_filenames", True) is False:
            for named in named_paths(folder, ty_words(hook_words(hook)) or []):
                if (absolute := folder / named).is_relative_to(directory):
                    found[absolute.relative_to(directory).as_posix()] = None
    return (f"{CONFIG_NAME}'s ty hook", tuple(found)) if found else None


def precommit_hooks(directory: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The hooks the pre-commit configuration over the project at `directory` runs (in it,
    or a folder above up to its repository's top), each with the configuration's folder;
    none without one, or where it is no YAML (the pre-commit reading says so)."""
    for folder in (directory, *directory.parents):
        if (config := folder / CONFIG_NAME).is_file():
            try:
                return [(folder, hook) for hook in config_hooks(config)[0]]
            except yaml.YAMLError:
                return []
        if (folder / ".git").exists():
            return []
    return []


def hook_words(hook: dict[str, Any]) -> list[str]:
    """The words a hook runs: its entry's, then its `args`."""
    args = hook.get("args") or []
    words = str(hook.get("entry") or "").split()
    return words + list(map(str, args if isinstance(args, list) else [args]))


def ty_words(words: list[str]) -> list[str] | None:
    """The words after `ty` where a command's `words` run ty; None where they do not."""
    for index, word in enumerate(words):
        if word.rsplit("/", 1)[-1] == TY and commanded(words, index, RUNNERS):
            return words[index + 1 :]
    return None
