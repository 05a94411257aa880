"""`lspd.toml` at the workspace root: servers per language, their arguments and settings,
the idle timeout and ignore globs (docs/configuration.md).

It is read once, when the workspace opens, and checked before any server starts: a mistake
stops `lspd serve` and the CLI with a message naming the key and what it may hold. The check
is plain code, not pydantic: `lspd serve` reads this file before it starts its servers, and
importing pydantic cost 35 ms of that cold start.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from lspd.errors import ConfigError
from lspd.servers.registry import ServerDefinition, definitions, servers_by_language

CONFIG_NAME = "lspd.toml"


@dataclass(frozen=True)
class LanguageOptions:
    """`[languages.NAME]` of lspd.toml: which server answers that language."""

    server: str


@dataclass(frozen=True)
class ServerOptions:
    """`[servers.NAME]` of lspd.toml: extra arguments and settings for that server, and
    whether a whole check of 100 files or more starts a second server of it
    (`second_server`: None keeps servers.toml's)."""

    args: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    second_server: bool | None = None


@dataclass(frozen=True)
class Config:
    """lspd.toml as read: every key optional, None where the built-in default applies."""

    idle_timeout: float | None = None
    memory_mb: float | None = None
    ignore: list[str] = field(default_factory=list)
    python: str | None = None
    typescript: str = "project"
    python_checker: str = "project"  # or mypy, basedpyright, both (`mypy_config.CHOICES`)
    max_file_bytes: int | None = None
    max_file_lines: int | None = None
    busy_after: float | None = None
    restart_after: float | None = None
    languages: dict[str, LanguageOptions] = field(default_factory=dict)
    servers: dict[str, ServerOptions] = field(default_factory=dict)

    @property
    def chosen(self) -> dict[str, str]:
        """The server chosen per language (language -> server name)."""
        return {language: options.server for language, options in self.languages.items()}

    def apply(self, definition: ServerDefinition) -> ServerDefinition:
        """`definition` with this workspace's extra arguments and settings, and a Go
        server's collector told the memory ceiling (`go_memory_limit`)."""
        definition = go_memory_limit(definition, self.memory_mb)
        options = self.servers.get(definition.name)
        if options is None:
            return definition
        second = (
            definition.second_server if options.second_server is None else options.second_server
        )
        return dataclasses.replace(
            definition,
            command=(*definition.command, *options.args),
            settings=merge(definition.settings, options.settings),
            second_server=second,
        )


def go_memory_limit(definition: ServerDefinition, memory_mb: float | None) -> ServerDefinition:
    """A Go server (gopls, TypeScript 7's `tsc`) with `memory_mb` as its GOMEMLIMIT: its
    collector, which otherwise lets the heap reach twice what is live before collecting
    (GOGC=100), collects harder as the heap nears the ceiling, instead of lspd stopping the
    server once past it. A GOMEMLIMIT in lspd's environment or the server's `env` stays."""
    if not definition.go_runtime or memory_mb is None or "GOMEMLIMIT" in os.environ:
        return definition
    if "GOMEMLIMIT" in definition.env:
        return definition
    env = {**definition.env, "GOMEMLIMIT": f"{int(memory_mb)}MiB"}
    return dataclasses.replace(definition, env=env)


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
    # Every mistake at once: the well-formed keys are kept, and the names in them checked too.
    config = Config(**_keys(data, (), _CONFIG, problems))
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
    for name, server in config.servers.items():
        if name not in known:
            problems.append(
                f"servers.{name}: no server is named '{name}'; servers are {', '.join(known)}"
            )
        elif server.second_server and not known[name].second_server:
            can = ", ".join(n for n, d in known.items() if d.second_server)
            problems.append(
                f"servers.{name}.second_server: true is for a server checking files on one "
                f"thread ({can}), not {name}: remove the key"
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


# -- what each key holds -------------------------------------------------------------------

# A key's place in the file: ("servers", "basedpyright", "args", 0).
Place = tuple[int | str, ...]


class _Kind(NamedTuple):
    """What a key holds: `what` says it in messages; `take` returns the value checked (an
    integer where a number is wanted becomes a float), adding one problem per mistake."""

    what: str
    take: Callable[[Any, Place, list[str]], Any]
    required: bool = False


def _number(what: str, *, zero: bool) -> _Kind:
    """A number above 0 (or 0 too, with `zero`): a float, or an integer; not a bool."""

    def take(value: Any, place: Place, problems: list[str]) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
            if number > 0 or (zero and number == 0):  # never NaN
                return number
        problems.append(_expected(place, what, value))
        return None

    return _Kind(what, take)


def _count(what: str) -> _Kind:
    """A whole number above 0 (not a bool, not a float)."""

    def take(value: Any, place: Place, problems: list[str]) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        problems.append(_expected(place, what, value))
        return None

    return _Kind(what, take)


def _of(what: str, kind: type, then: Callable[[Any, Place, list[str]], Any] | None = None) -> _Kind:
    """A value of `kind` (strict: a number is no string), as it is or as `then` checks it."""

    def take(value: Any, place: Place, problems: list[str]) -> Any:
        if not isinstance(value, kind):
            problems.append(_expected(place, what, value))
            return None
        return value if then is None else then(value, place, problems)

    return _Kind(what, take)


def _list(what: str, item: _Kind) -> _Kind:
    def each(value: list[Any], place: Place, problems: list[str]) -> Any:
        return [item.take(one, (*place, index), problems) for index, one in enumerate(value)]

    return _of(what, list, each)


def _named(what: str, item: _Kind) -> _Kind:
    """A table of names (of languages, of servers), each holding `item`."""

    def each(value: dict[str, Any], place: Place, problems: list[str]) -> Any:
        return {name: item.take(one, (*place, name), problems) for name, one in value.items()}

    return _of(what, dict, each)


def _table(what: str, make: Callable[..., Any], keys: dict[str, _Kind]) -> _Kind:
    """A table of the `keys` (no others), made into `make(**keys)`."""

    def made(value: dict[str, Any], place: Place, problems: list[str]) -> Any:
        before = len(problems)
        kept = _keys(value, place, keys, problems)
        return make(**kept) if len(problems) == before else None

    return _of(what, dict, made)


def _keys(
    table: dict[str, Any], place: Place, keys: dict[str, _Kind], problems: list[str]
) -> dict[str, Any]:
    """The keys of `table` that hold what they should; a problem for each other one. In the
    order of `keys`, unknown ones last (the order pydantic, which checked this before, used)."""
    kept = {}
    for name, kind in keys.items():
        if name not in table:
            if kind.required:
                problems.append(f"{_dotted((*place, name))}: missing; it must be {kind.what}")
            continue
        before = len(problems)
        value = kind.take(table[name], (*place, name), problems)
        if len(problems) == before:
            kept[name] = value
    allowed = ", ".join(keys)
    problems += [
        f"{_dotted((*place, key))}: unknown key; allowed here: {allowed}"
        for key in table
        if key not in keys
    ]
    return kept


def _expected(place: Place, what: str, value: Any) -> str:
    return f"{_dotted(place)}: expected {what}, got {value!r}"


def _dotted(place: Place) -> str:
    text = ""
    for part in place:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


_STRING = _of("a string", str)
_LANGUAGE = _table(
    'a table with `server = "NAME"`',
    LanguageOptions,
    {"server": _of("a server name (a string)", str)._replace(required=True)},
)
_SERVER = _table(
    "a table with `args`, `settings` and `second_server`",
    ServerOptions,
    {
        "args": _list('a list of strings, e.g. ["--verbose"]', _STRING),
        "settings": _of("a table of settings (sent to the server as they are)", dict),
        "second_server": _of(
            "true or false (a second server for a whole check of 100 files or more)", bool
        ),
    },
)
# The keys of Config, in its order (the order `allowed here:` lists them).
_CONFIG = {
    "idle_timeout": _number(
        "a number of seconds, 0 or more (0 = never stop idle servers)", zero=True
    ),
    "memory_mb": _number(
        "a number of megabytes above 0 (the language servers' memory ceiling)", zero=False
    ),
    "ignore": _list(
        'a list of globs, e.g. ["generated/**", "*.min.js"]',
        _of('a glob string, e.g. "generated/**"', str),
    ),
    "python": _of(
        'the project\'s interpreter or environment, e.g. ".venv" or "/opt/py/bin/python"', str
    ),
    "typescript": _of('"project", "lspd" or the path of a typescript package', str),
    "python_checker": _of('"project", "mypy", "basedpyright" or "both"', str),
    "max_file_bytes": _count(
        "a whole number of bytes above 0 (larger files are left out of workspace-wide work)"
    ),
    "max_file_lines": _count(
        "a whole number of lines above 0 (longer files are left out of workspace-wide work)"
    ),
    "busy_after": _number(
        "a number of seconds above 0 (a server answering nothing this long is busy)", zero=False
    ),
    "restart_after": _number(
        "a number of seconds above 0 (a server answering nothing this long is restarted)",
        zero=False,
    ),
    "languages": _named(
        'a table of languages, e.g. [languages.python] server = "basedpyright"', _LANGUAGE
    ),
    "servers": _named("a table of servers, e.g. [servers.basedpyright]", _SERVER),
}
