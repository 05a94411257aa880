"""The files basedpyright's (and pyright's) CLI checks for one configuration.

Read as basedpyright 1.40 reads them (its `configOptions.ts`, `sourceEnumerator.ts`,
`uriUtils.ts`): the configuration is the directory's `pyrightconfig.json`, else its
`pyproject.toml` `[tool.basedpyright]` or `[tool.pyright]` (both at once is an error), with
`extends` chains. `include` (default: the configuration's directory) and `exclude` are globs
relative to the file that names them (`**`, `*`, `?`); the defaults `**/node_modules`,
`**/__pycache__`, `**/.*` and `**/__editable__.*` are added to any `exclude`, and directories
holding a virtual environment (`pyvenv.cfg`, `bin/activate`, `conda-meta`) are left out.
`ignore` files are checked, their diagnostics dropped by the checker itself: they stay in.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput

CONFIG_JSON = "pyrightconfig.json"
PYPROJECT = "pyproject.toml"
DEFAULT_EXCLUDES = ("**/node_modules", "**/__pycache__", "**/.*", "**/__editable__.*")
ENV_MARKERS = (("bin", "activate"), ("Scripts", "activate"), ("pyvenv.cfg",), ("conda-meta",))
SOURCE = re.compile(r"\.(pyi?|ipynb)$")
_RESERVED = re.compile(r"[^\w\s/]", re.ASCII)


@dataclass(frozen=True)
class Spec:
    """One `include` / `exclude` glob: the directory it starts at and what it matches."""

    root: Path  # the longest leading part without a wildcard
    pattern: re.Pattern[str]
    any_depth: bool  # holds `**`


@dataclass
class PyrightConfig:
    """A project's checker configuration: where it is and what it names."""

    path: Path  # pyrightconfig.json or pyproject.toml
    label: str  # `pyrightconfig.json`, `pyproject.toml [tool.basedpyright]`
    include: list[Spec] = field(default_factory=list)
    exclude: list[Spec] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)  # every file read (extends included)
    included: bool = False  # it names its `include` (else: the whole directory)


def config_in(directory: Path) -> PyrightConfig | None:
    """The directory's own configuration, or None when it has none (a pyproject.toml without
    a pyright table is none). A file that cannot be read raises `InvalidInput`."""
    chosen = directory / CONFIG_JSON
    if not chosen.is_file():
        chosen = directory / PYPROJECT
        if not chosen.is_file() or _table(chosen) is None:
            return None
    config = PyrightConfig(chosen, _label(chosen))
    specs: dict[str, list[Spec]] = {}
    current: Path | None = chosen
    chain: list[tuple[Path, dict[str, Any]]] = []
    while current is not None:  # base configurations first, as basedpyright applies them
        if current in config.read:
            raise InvalidInput(f"{current}: `extends` leads back to itself: break the cycle")
        config.read.append(current)
        table = _table(current) if current.name == PYPROJECT else _json(current)
        if table is None:
            break
        chain.insert(0, (current, table))
        current = _extends(current, table)
    for source, table in chain:
        for key in ("include", "exclude"):
            if key in table:
                specs[key] = [spec(source.parent, entry) for entry in _strings(source, key, table)]
    config.included = "include" in specs
    config.include = specs.get("include") or [spec(directory, ".")]
    config.exclude = list(specs.get("exclude", []))
    known = {s.pattern.pattern for s in config.exclude}
    for default in DEFAULT_EXCLUDES:
        added = spec(directory, default)
        if added.pattern.pattern not in known:
            config.exclude.append(added)
    return config


# The settings whose values are paths relative to the configuration that names them
# (basedpyright's `configOptions.ts`), and an execution environment's.
PATH_KEYS = (
    *("extends", "include", "exclude", "ignore", "strict", "extraPaths", "stubPath"),
    *("typeshedPath", "venvPath", "baselineFile"),
)
ENVIRONMENT_PATH_KEYS = ("root", "extraPaths")


def paths_named(path: Path) -> list[str]:
    """The paths a pyright configuration file names itself (not those of the one it
    extends), as written; none for a pyproject.toml without a pyright table. A file that
    cannot be read raises `InvalidInput`."""
    table = _table(path) if path.name == PYPROJECT else _json(path)
    found: list[str] = []

    def add(value: object) -> None:
        values = value if isinstance(value, list) else [value]
        found.extend(v for v in values if isinstance(v, str))

    for key in PATH_KEYS:
        add((table or {}).get(key))
    environments = (table or {}).get("executionEnvironments")
    for environment in environments if isinstance(environments, list) else []:
        for key in ENVIRONMENT_PATH_KEYS if isinstance(environment, dict) else ():
            add(environment.get(key))
    return found


def files_of(config: PyrightConfig) -> list[Path]:
    """The source files the configuration checks, as basedpyright's enumeration finds them."""
    found: dict[str, Path] = {}
    roots = [os.path.realpath(s.root) for s in config.include]
    for include in config.include:
        if _excluded(str(include.root), config.exclude):
            continue
        if include.root.is_file():
            found[str(include.root)] = include.root
            continue
        seen: set[str] = set()
        stack = [include.root] if include.root.is_dir() else []
        while stack:
            directory = stack.pop()
            real = os.path.realpath(directory)
            if real in seen or not any(real.startswith(root) for root in roots):
                continue
            seen.add(real)
            if any(directory.joinpath(*marker).exists() for marker in ENV_MARKERS):
                continue  # a virtual environment
            files, directories = _entries(directory)
            for file in files:
                text = str(file)
                chosen = include.pattern.match(text) and SOURCE.search(text)
                if chosen and not _excluded(text, config.exclude):
                    found[text] = file
            for sub in reversed(directories):
                entered = include.any_depth or include.pattern.match(str(sub))
                if entered and not _excluded(str(sub), config.exclude):
                    stack.append(sub)
    return sorted(found.values())


def spec(base: Path, glob: str) -> Spec:
    """A glob relative to `base` as basedpyright's `getFileSpec` makes it."""
    absolute = os.path.normpath(os.path.join(base, glob))
    parts = absolute.split("/")[1:]
    pattern = ""
    root = Path("/")
    rooted = True
    for part in parts:
        if part == "**":
            pattern += "(/[^/][^/]*)*?"
            rooted = False
        else:
            pattern += "/" + _RESERVED.sub(_segment, part)
            if rooted and ("*" in part or "?" in part):
                rooted = False
            if rooted:
                root = root / part
    return Spec(root, re.compile(f"^({pattern})($|/)"), "**" in parts)


def _segment(match: re.Match[str]) -> str:
    char = match.group(0)
    return {"*": "[^/]*", "?": "[^/]"}.get(char, "\\" + char)


def _excluded(path: str, excludes: list[Spec]) -> bool:
    return any(s.pattern.match(path) for s in excludes)


def _entries(directory: Path) -> tuple[list[Path], list[Path]]:
    """Its files and directories (links followed), in the order the system lists them."""
    files: list[Path] = []
    directories: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return files, directories
    for entry in entries:
        try:
            if entry.is_file():
                files.append(Path(entry.path))
            elif entry.is_dir():
                directories.append(Path(entry.path))
        except OSError:
            continue
    return files, directories


def _label(path: Path) -> str:
    if path.name == CONFIG_JSON:
        return CONFIG_JSON
    table = "basedpyright" if "basedpyright" in _tool(path) else "pyright"
    return f"{PYPROJECT} [tool.{table}]"


def _tool(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path} cannot be read ({exc}): fix its permissions") from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(
            f"{path} is not valid TOML ({exc}): fix it (the checker cannot read it either), "
            "or check given paths (`lspd check PATH`) or every file (`--all`)"
        ) from None
    tool = data.get("tool")
    return tool if isinstance(tool, dict) else {}


def is_toml(path: Path) -> bool:
    """Whether the file at `path` reads as TOML (an unreadable one does not). A nested
    pyproject.toml that does not is a test's fixture (build's tests/packages/test-bad-syntax,
    which its mypy excludes), read by no checker the project runs from its top: no
    configuration, neither of the gate (`scope`) nor of its folder (`pyright_home`)."""
    try:
        tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return True


def _table(path: Path) -> dict[str, Any] | None:
    """The pyright table of a pyproject.toml (None without one)."""
    tool = _tool(path)
    if "basedpyright" in tool and "pyright" in tool:
        raise InvalidInput(
            f"{path} has both [tool.basedpyright] and [tool.pyright]: basedpyright reads "
            "neither then; keep one"
        )
    table = tool.get("basedpyright", tool.get("pyright"))
    if table is not None and not isinstance(table, dict):
        raise InvalidInput(f"{path}: [tool.pyright] must be a table")
    return table


def _json(path: Path) -> dict[str, Any]:
    """A JSON configuration with comments and trailing commas, as basedpyright allows."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path} cannot be read ({exc}): fix its permissions") from None
    try:
        data = json.loads(_plain_json(text))
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}): fix it (comments "
            "and trailing commas are allowed), or check given paths (`lspd check PATH`) or "
            "every file (`--all`)"
        ) from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path}: expected a JSON object ({{...}}), not {type(data).__name__}")
    return data


_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(?=\s*[}\]])')


def _plain_json(text: str) -> str:
    """JSONC as JSON: comments, then trailing commas, blanked (positions kept)."""

    def blank(match: re.Match[str]) -> str:
        found = match.group(0)
        return found if found.startswith('"') else re.sub(r"[^\n]", " ", found)

    return _TRAILING_COMMA.sub(blank, _COMMENT.sub(blank, text))


def _extends(path: Path, table: dict[str, Any]) -> Path | None:
    extends = table.get("extends")
    if extends is None:
        return None
    if not isinstance(extends, str):
        raise InvalidInput(f"{path}: `extends` must be a path (a string)")
    base = (path.parent / extends).resolve()
    if not base.is_file():
        raise InvalidInput(f"{path}: `extends` names {base}, which does not exist: fix the path")
    return base


def _strings(path: Path, key: str, table: dict[str, Any]) -> list[str]:
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{path}: `{key}` must be a list of paths (strings)")
    return value
