"""Which mypy configuration mypy reads where lspd runs it: the copy's, found as mypy's
`_find_config_file` finds it (where it runs, and from mypy 1.15 in each directory above up
to the copy's root), else the user's; and its mypy sections, by mypy's option names.

Read by the rule choosing mypy run once (`mypy_once`: whether it may report unused
ignores), by the kept answers' key (`mypy_kept`: whether it names a path outside the copy),
by the user's configuration as lspd's mypy reads it (`mypy_outputs`), and by the daemon's
restart where a table its plugins read changed (`replugged`: dmypy compares its options and
its plugins' files alone, and kept pydantic's `init_typed` as at its start: a warm check
said 0 errors where mypy's own run, the table edited, says 1).
"""

from __future__ import annotations

import configparser
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lspd.workspace.files import read_text
from lspd.workspace.mypy_files import CONFIG_FILES, MYPY_INI, PYPROJECT

# mypy looks for its configuration up from where it runs since 1.15 (1.13: there alone).
WALKS_UP = (1, 15)


def config_read(
    texts: dict[str, bytes], inside: str, walk: bool
) -> tuple[list[dict[str, Any]], bool] | None:
    """The mypy sections of the configuration mypy reads in the copy holding `texts`, run
    at `inside` (mypy's `_find_config_file`): the first of `CONFIG_FILES` holding its
    section there, and with `walk` (mypy 1.15 and later) in each directory above it up to
    the copy's root, which holds the `.git` that ends the search; else the user's first
    (`user_files`); and whether it is the user's. None: mypy reads none."""
    found = _config_file(texts, inside, walk)
    return None if found is None else (found[2], found[3])


def _config_file(
    texts: dict[str, bytes], inside: str, walk: bool
) -> tuple[str, str, list[dict[str, Any]], bool] | None:
    """`config_read`'s file: its name (`.mypy.ini` for the user's), text, mypy sections and
    whether it is the user's."""
    directory = inside.rstrip("/")
    while True:
        prefix = f"{directory}/" if directory else ""
        for name in CONFIG_FILES:
            if prefix + name in texts:
                text = texts[prefix + name].decode("utf-8", "replace")
                if (sections := sections_of(name, text)) is not None:
                    return name, text, sections, False
        if not walk or not directory:
            break
        directory = directory.rpartition("/")[0]
    for path in user_files():
        if path.is_file():  # read whole, sections or not (`.mypy.ini`'s rule)
            text = path.read_text("utf-8")
            return MYPY_INI[-1], text, sections_of(MYPY_INI[-1], text) or [], True
    return None


def found_in(folder: Path) -> str | None:
    """The configuration file mypy run at `folder` finds there by itself: the first of
    `CONFIG_FILES` holding a mypy section (one it cannot parse is passed over, as mypy says
    what is wrong and reads on); None where none does."""
    for name in CONFIG_FILES:
        if (text := read_text(folder / name)) is None:  # missing, or a FIFO
            continue
        try:
            if sections_of(name, text) is not None:
                return name
        except (tomllib.TOMLDecodeError, configparser.Error):
            continue
    return None


def names_found(folder: Path, value: str) -> bool:
    """Whether `--config-file value`, given mypy run at `folder`, names the file it finds
    there by itself (`found_in`): `--config-file=setup.cfg` where setup.cfg has no `[mypy]`
    and pyproject.toml a `[tool.mypy]` is another, mypy's defaults. Where it finds none,
    the file named holds none either: its defaults too."""
    name = os.path.normpath(value)
    if name not in CONFIG_FILES:
        return False
    found = found_in(folder)
    return found is None or found == name


def other_config(folder: Path, named: str | None) -> str | None:
    """The configuration a command's `--config-file` names (`named`), None for the file mypy
    finds by itself: `mypy --config pyproject.toml pkg` and `mypy tests` are runs of one."""
    return None if named is None or names_found(folder, named) else named


def plugins_read(texts: dict[str, bytes], inside: str, version: tuple[int, ...] | None) -> str:
    """What mypy's plugins may read of the configuration mypy `version` reads in the copy
    holding `texts` (`config_read`; each search where the version is not known): each
    reads a table of its own there (pydantic's `[tool.pydantic-mypy]`, django-stubs'
    `[tool.django-stubs]`). The file's tables (pyproject.toml's `[tool]`, an ini file's
    whole text) where its mypy section names `plugins`; else empty."""
    read = []
    for walk in walks(version):
        try:
            found = _config_file(texts, inside, walk)
        except (tomllib.TOMLDecodeError, configparser.Error, OSError, UnicodeError):
            continue  # mypy itself says what is wrong with it
        if found is not None and found[2] and found[2][0].get("plugins"):
            name, text = found[0], found[1]
            read.append(repr(tomllib.loads(text).get("tool")) if name == PYPROJECT else text)
    return "\0".join(read)


def replugged(
    state: Path, texts: dict[str, bytes], inside: str, version: tuple[int, ...] | None
) -> bool:
    """Whether what mypy's plugins read (`plugins_read`) differs from what it was at the
    last check of the daemon whose state directory is `state` (noted there, for the next
    process too): a running dmypy holds its plugins as they read it at its start, so it
    is ended; noted anew."""
    noted, now = state / "plugins-read", plugins_read(texts, inside, version)
    try:
        then = noted.read_text("utf-8")
    except OSError:
        then = ""
    if then == now:
        return False
    state.mkdir(parents=True, exist_ok=True)
    noted.write_text(now, "utf-8")
    return True


def user_files() -> list[Path]:
    """The user's mypy configuration files, in mypy's order (`defaults.USER_CONFIG_FILES`)."""
    home = os.environ.get("XDG_CONFIG_HOME")
    names = [os.path.join(home, "mypy/config")] if home else []
    return [Path(os.path.expanduser(n)) for n in [*names, "~/.config/mypy/config", "~/.mypy.ini"]]


def walks(version: tuple[int, ...] | None) -> list[bool]:
    """Whether mypy `version` looks for its configuration up from where it runs (1.15 and
    later; 1.13 there alone): both searches where the version is not known."""
    return [True, False] if version is None else [version >= WALKS_UP]


def sections_of(name: str, text: str) -> list[dict[str, Any]] | None:
    """The mypy sections of a configuration file, the global one first (empty when only
    per-module ones are written); None when it has none (mypy reads the next file)."""
    if name == PYPROJECT:
        tool = tomllib.loads(text).get("tool", {})
        table = tool.get("mypy") if isinstance(tool, dict) else None  # `tool = 1`: none here
        # (mypy 1.19 itself stops there with a TypeError)
        if not isinstance(table, dict):
            return None
        overrides = [o for o in table.get("overrides", []) if isinstance(o, dict)]
        return [_keys(section) for section in (table, *overrides)]
    parser = configparser.RawConfigParser()
    parser.read_string(text)
    if not parser.has_section("mypy") and name not in MYPY_INI:
        return None
    named = [_keys(parser[s]) for s in parser.sections() if s.startswith("mypy-")]
    return [_keys(parser["mypy"]) if parser.has_section("mypy") else {}, *named]


def _keys(section: Mapping[str, Any]) -> dict[str, Any]:
    """A section's options by mypy's names (`warn-unused-ignores` is `warn_unused_ignores`)."""
    return {key.replace("-", "_"): value for key, value in section.items()}
