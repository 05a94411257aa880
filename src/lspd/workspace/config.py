"""`lspd.toml` at the workspace root: servers per language, their arguments and settings,
the idle timeout and ignore globs (docs/configuration.md).

It is read once, when the workspace opens, and checked before any server starts: a mistake
stops `lspd serve` and the CLI with a message naming the key and what it may hold.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lspd.errors import ConfigError
from lspd.servers.registry import ServerDefinition, definitions, servers_by_language

CONFIG_NAME = "lspd.toml"


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LanguageOptions(_Table):
    server: str


class ServerOptions(_Table):
    args: list[str] = []
    settings: dict[str, Any] = {}


class Config(_Table):
    idle_timeout: float | None = Field(default=None, ge=0)
    memory_mb: float | None = Field(default=None, gt=0)
    ignore: list[str] = []
    python: str | None = None
    typescript: str = "project"
    languages: dict[str, LanguageOptions] = {}
    servers: dict[str, ServerOptions] = {}

    @property
    def chosen(self) -> dict[str, str]:
        """The server chosen per language (language -> server name)."""
        return {language: options.server for language, options in self.languages.items()}

    def apply(self, definition: ServerDefinition) -> ServerDefinition:
        """`definition` with this workspace's extra arguments and settings."""
        options = self.servers.get(definition.name)
        if options is None:
            return definition
        return dataclasses.replace(
            definition,
            command=(*definition.command, *options.args),
            settings=merge(definition.settings, options.settings),
        )


def load_config(root: Path) -> Config:
    """The config of the workspace at `root` (defaults when it has no lspd.toml)."""
    path = root / CONFIG_NAME
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{CONFIG_NAME}: cannot be read ({exc}); fix or remove it") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{CONFIG_NAME}: not valid TOML: {exc}") from None
    problems: list[str] = []
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        problems = [_explain(error) for error in exc.errors()]
        # Every mistake at once: the names in the well-formed keys are checked too.
        wrong = {error["loc"][0] for error in exc.errors() if error["loc"]}
        try:
            config = Config.model_validate({k: v for k, v in data.items() if k not in wrong})
        except ValidationError:
            config = Config()
    problems += _check_names(config)
    if problems:
        raise ConfigError("\n".join(f"{CONFIG_NAME}: {problem}" for problem in problems))
    return config


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """`override` over `base`, table by table (a non-table value replaces)."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _check_names(config: Config) -> list[str]:
    """Languages and servers named in the file must be defined (servers.toml)."""
    by_language = servers_by_language()
    problems = []
    for language, options in config.languages.items():
        names = by_language.get(language)
        if names is None:
            problems.append(
                f"languages.{language}: no server is defined for '{language}'; "
                f"languages are {', '.join(by_language)}{_served_by(language)}"
            )
        elif options.server not in names:
            problems.append(
                f"languages.{language}.server: '{options.server}' is not a server for "
                f"{language}; choose one of {', '.join(names)}"
            )
    known = definitions()
    for name in config.servers:
        if name not in known:
            problems.append(
                f"servers.{name}: no server is named '{name}'; servers are {', '.join(known)}"
            )
    problems += [f"ignore: {glob!r} is empty; remove it" for glob in config.ignore if not glob]
    if config.python == "":
        problems.append("python: empty; name an interpreter or environment, or remove the key")
    return problems


def user_restricted() -> bool:
    """The user-level default for restricted mode (`restricted = true` in
    `~/.config/lspd/config.toml`): never read from the workspace, which it guards against."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    try:
        data = tomllib.loads((base / "lspd" / "config.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return data.get("restricted") is True


def _served_by(language_id: str) -> str:
    """A hint when `language_id` is a file language another key covers (javascript: typescript)."""
    for definition in definitions().values():
        if language_id in definition.extensions.values():
            return f" ({language_id} files belong to [languages.{definition.language}])"
    return ""


# What each key holds, by its place: "*" stands for a language or server name, "#" for an
# index in a list.
_EXPECTED: dict[tuple[str, ...], str] = {
    ("idle_timeout",): "a number of seconds, 0 or more (0 = never stop idle servers)",
    ("memory_mb",): "a number of megabytes above 0 (the language servers' memory ceiling)",
    ("ignore",): 'a list of globs, e.g. ["generated/**", "*.min.js"]',
    ("ignore", "#"): 'a glob string, e.g. "generated/**"',
    ("python",): 'the project\'s interpreter or environment, e.g. ".venv" or "/opt/py/bin/python"',
    ("typescript",): '"project", "lspd" or the path of a typescript package',
    ("languages",): 'a table of languages, e.g. [languages.python] server = "basedpyright"',
    ("languages", "*"): 'a table with `server = "NAME"`',
    ("languages", "*", "server"): "a server name (a string)",
    ("servers",): "a table of servers, e.g. [servers.basedpyright]",
    ("servers", "*"): "a table with `args` and `settings`",
    ("servers", "*", "args"): 'a list of strings, e.g. ["--verbose"]',
    ("servers", "*", "args", "#"): "a string",
    ("servers", "*", "settings"): "a table of settings (sent to the server as they are)",
}
_KEYS: dict[tuple[str, ...], type[BaseModel]] = {
    (): Config,
    ("languages", "*"): LanguageOptions,
    ("servers", "*"): ServerOptions,
}


def _place(loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """A key's place: ("servers", "basedpyright", "args", 0) -> ("servers", "*", "args", "#")."""
    out: list[str] = []
    for part in loc:
        if isinstance(part, int):
            out.append("#")
        elif len(out) == 1 and out[0] in ("languages", "servers"):
            out.append("*")
        else:
            out.append(part)
    return tuple(out)


def _dotted(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


def _explain(error: Any) -> str:
    loc = tuple(error["loc"])
    key = _dotted(loc)
    place = _place(loc)
    if error["type"] == "extra_forbidden":
        allowed = ", ".join(_KEYS[place[:-1]].model_fields) if place[:-1] in _KEYS else "none"
        return f"{key}: unknown key; allowed here: {allowed}"
    expected = _EXPECTED.get(place, error["msg"])
    if error["type"] == "missing":
        return f"{key}: missing; it must be {expected}"
    return f"{key}: expected {expected}, got {error['input']!r}"
