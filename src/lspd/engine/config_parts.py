"""Whether two texts of a checker's configuration file say the same to the checkers.

A baseline's kept result is keyed by the configurations as they were then
(`revisions.configs_then`): one edited since leaves no result to compare with unless one was
kept under it (`committed.NotKept`, exit 2). But pyproject.toml and setup.cfg hold more than
the checkers read: a version bump or a dependency added to `[project]` changes nothing the
checkers say, and `check --baseline HEAD` was refused all the same. So of those two files
only what a checker lspd runs reads is compared: pyproject.toml's `[tool.mypy]`,
`[tool.pyright]`, `[tool.basedpyright]`, `[tool.ty]`, `[tool.lspd]` and `[project]`'s
`requires-python` (ty's Python version); setup.cfg's `[mypy]` and `[mypy-...]` sections. A
text that does not parse differs (the checker says why).
"""

from __future__ import annotations

import configparser
import tomllib
from pathlib import Path
from typing import Any

TOOLS = ("mypy", "pyright", "basedpyright", "ty", "lspd")


def same_settings(path: Path, then: str | None, now: str | None) -> bool:
    """Whether `path`'s texts `then` and `now` (None: absent) configure the checkers alike."""
    if then is None or now is None or then == now:
        return then == now
    read = {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg}.get(path.name)
    if read is None:
        return False
    try:
        return bool(read(then) == read(now))
    except (tomllib.TOMLDecodeError, configparser.Error, UnicodeError):
        return False


def _pyproject(text: str) -> Any:
    data = tomllib.loads(text)
    tool, project = data.get("tool"), data.get("project")
    tools = {name: tool.get(name) for name in TOOLS} if isinstance(tool, dict) else tool
    python = project.get("requires-python") if isinstance(project, dict) else project
    return tools, python


def _setup_cfg(text: str) -> Any:
    parser = configparser.RawConfigParser()
    parser.read_string(text)
    sections = (s for s in parser.sections() if s == "mypy" or s.startswith("mypy-"))
    return {section: dict(parser[section]) for section in sections}, dict(parser.defaults())
