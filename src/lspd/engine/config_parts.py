"""Whether two texts of a checker's configuration file say the same to the checkers.

A baseline's kept result is keyed by the configurations as they were then
(`revisions.configs_then`): one edited since leaves no result to compare with unless one was
kept under it (`committed.NotKept`, exit 2). But pyproject.toml and setup.cfg hold more than
the checkers read: a version bump or a dependency added to `[project]` changes nothing the
checkers say, and `check --baseline HEAD` was refused all the same. So of those two files
only what a checker lspd runs reads is compared: pyproject.toml's `[tool.mypy]`,
`[tool.pyright]`, `[tool.basedpyright]`, `[tool.ty]`, `[tool.lspd]` and `[project]`'s
`requires-python` (ty's Python version); setup.cfg's `[mypy]` and `[mypy-...]` sections.
Where mypy's section there names `plugins`, every `[tool.*]` table of pyproject.toml and every
section of setup.cfg is compared: a plugin reads a section of its own from mypy's
configuration file (pydantic's `[tool.pydantic-mypy]` / `[pydantic-mypy]`, django-stubs'
`[tool.django-stubs]`), and its edit changes mypy's answer (pydantic 2.12.5's init_typed
false -> true: mypy 2.4.1's own run 0 -> 1 error, where check --baseline HEAD said 0 new,
1 unchanged). A package.json (a workspace package's manifest) is compared by what
TypeScript's module resolution reads of it: `name`, `type`, `main`, `types`, `typings`,
`typesVersions`, `exports`, `imports` (a version bump or a script changes nothing tsc says;
`"exports": {".": ...}` -> `{"./lib": ...}` made 30 errors in the examiner's monorepo).
A text that does not parse differs (the checker says why).
"""

from __future__ import annotations

import configparser
import json
import tomllib
from pathlib import Path
from typing import Any

TOOLS = ("mypy", "pyright", "basedpyright", "ty", "lspd")
RESOLVED = ("name", "type", "main", "types", "typings", "typesVersions", "exports", "imports")


def same_settings(path: Path, then: str | None, now: str | None, root: Path | None = None) -> bool:
    """Whether `path`'s texts `then` and `now` (None: absent) configure the checkers alike.
    At the workspace's `root` a pyproject.toml or setup.cfg configuring no checker (`[project]`
    alone) is the same as none: it marks the root a project, which the root is anyway
    (basedpyright reads such a file as no configuration and searches above it either way;
    mypy reads neither); deeper, one marks a project root of its own (its coming or going
    moves the root basedpyright resolves that folder's imports from)."""
    if then == now:
        return True
    if then is None or now is None:
        text = then if now is None else now
        return path.parent == root and text is not None and _configures_nothing(path, text)
    readers = {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg, "package.json": _manifest}
    read = readers.get(path.name)
    if read is None:
        return False
    try:
        return bool(read(then) == read(now))
    except (tomllib.TOMLDecodeError, configparser.Error, UnicodeError, ValueError):
        return False


def _configures_nothing(path: Path, text: str) -> bool:
    """Whether a pyproject.toml or setup.cfg holds nothing a checker lspd runs reads."""
    try:
        if path.name == "pyproject.toml":
            tool, python = _pyproject(text)
            return python is None and (tool is None or tool == dict.fromkeys(TOOLS))
        if path.name == "setup.cfg":
            return bool(_setup_cfg(text) == ({}, {}))
    except (tomllib.TOMLDecodeError, configparser.Error, UnicodeError, ValueError):
        return False  # the checker says why it cannot read it
    return False


def _manifest(text: str) -> Any:
    """What TypeScript's module resolution reads of a package.json (`RESOLVED`)."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return {key: data.get(key) for key in RESOLVED}


def _pyproject(text: str) -> Any:
    """What the checkers read of a pyproject.toml: their tables (every tool's where mypy's
    names plugins) and `[project]`'s requires-python."""
    data = tomllib.loads(text)
    tool, project = data.get("tool"), data.get("project")
    if isinstance(tool, dict) and not _plugins(tool.get("mypy")):
        tool = {name: tool.get(name) for name in TOOLS}
    python = project.get("requires-python") if isinstance(project, dict) else project
    return tool, python


def _setup_cfg(text: str) -> Any:
    """What mypy reads of a setup.cfg: its sections (every section where `[mypy]` names
    plugins)."""
    parser = configparser.RawConfigParser()
    parser.read_string(text)
    plugins = parser.has_section("mypy") and _plugins(dict(parser["mypy"]))
    mypy = (s for s in parser.sections() if plugins or s == "mypy" or s.startswith("mypy-"))
    return {section: dict(parser[section]) for section in mypy}, dict(parser.defaults())


def _plugins(mypy: object) -> bool:
    """Whether mypy's global section `mypy` names plugins (each may read a section of its
    own: `[tool.pydantic-mypy]`)."""
    return isinstance(mypy, dict) and bool(mypy.get("plugins"))
