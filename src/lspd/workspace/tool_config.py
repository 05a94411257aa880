"""Whether a project configures a checker that reads its own file or a `[tool.NAME]` table
of its pyproject.toml (ty's ty.toml, pyrefly's pyrefly.toml)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from lspd.workspace.files import read_text
from lspd.workspace.pyright_scope import PYPROJECT


def configures_tool(project: Path, config: str, name: str) -> bool:
    """Whether the checker `name`'s configuration is the project's: its own file `config`,
    or a `[tool.NAME]` table (or one of its subtables: typer's `[tool.ty.terminal]`) in
    pyproject.toml."""
    if (project / config).is_file():
        return True
    if (text := read_text(project / PYPROJECT)) is None or f"[tool.{name}" not in text:
        return False
    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:  # the scope says what is wrong
        return False
    return isinstance(tool, dict) and isinstance(tool.get(name), dict)
