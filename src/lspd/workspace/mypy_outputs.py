"""The project's mypy configuration as lspd's copy holds it: without what makes mypy write
or install anything.

A configuration may name report outputs (`html_report`, `junit_xml`, ...: mypy's
`config_parser.parse_section`, `defaults.REPORTER_NAMES`), a `cache_dir`, and
`install_types` (mypy then runs pip in the project's environment). Run in the copy, an
absolute path (or one leaving the copy with `..`) wrote outside it: `linecount_report =
/tmp/x` wrote /tmp/x/linecount.txt at every mypy run once (mypy 2.4.1), `junit_xml =
../out.xml` into lspd's state directory; and dmypy refused them (its start drops
`junit_xml`, so every run said "configuration changed" and restarted it: no answer at
all). The command line cannot take a configured report back, so the copy's configuration
leaves these options out (their lines made empty, so every other line stays where it
is; in a pyproject.toml however TOML writes them, an inline table written again on its
first line: `mypy_outputs_toml`): mypy's diagnostics do not depend on them, and its cache
is lspd's (`--cache-dir` run once; none for dmypy, or the copy's own `.mypy_cache`).

Where the project has no configuration, mypy reads the user's (`$XDG_CONFIG_HOME/mypy/config`,
`~/.config/mypy/config`, `~/.mypy.ini`; `mypy_config_read.user_files`), and its reports were
written too (mypy 2.4.1 run once: `linecount_report = /tmp/x` wrote /tmp/x/linecount.txt).
So lspd's mypy runs with an `XDG_CONFIG_HOME` of lspd's (`users_config`: in the project's
mypy state), holding the first of the user's files without these options, which mypy reads
first; where the user has none, it holds none either. What names the file's own directory
still does: `$MYPY_CONFIG_FILE_DIR`, and a plugin file given relative (mypy finds it from
the configuration's directory), are written as the user's directory.
"""

from __future__ import annotations

import configparser
import os
import re
import tomllib
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config_read import user_files
from lspd.workspace.mypy_outputs_toml import toml_without

REPORTS = (
    "linecount",
    "any_exprs",
    "linecoverage",
    "memory_xml",
    "cobertura_xml",
    "xml",
    "xslt_html",
    "xslt_txt",
    "html",
    "txt",
    "lineprecision",
)
# What mypy writes to, or runs, beyond its answer, by the options' names in a section.
LEFT_OUT = frozenset(
    {f"{name}_report" for name in REPORTS}
    | {"junit_xml", "junit_format", "cache_dir", "install_types", "non_interactive"}
)
_INI_KEY = re.compile(r"^([^\s=:\[#;][^=:]*?)\s*[=:]")
_SECTION = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")


def left_out(key: str) -> bool:
    """Whether mypy's option `key` (as written: `-` or `_`) is one the copy leaves out."""
    return key.strip().strip("\"'").lower().replace("-", "_") in LEFT_OUT


def without_outputs(name: str, text: str) -> str:
    """The configuration file `name`'s `text` without `LEFT_OUT`'s options in its mypy
    sections, each other line where it is (`mypy_outputs_toml` for a pyproject.toml: plain,
    dotted or in an inline table). One left in, or a text read otherwise than the original
    but for them, is refused, saying so (neither is known to happen)."""
    written = text.lower().replace("-", "_")
    if not any(option in written for option in LEFT_OUT):
        return text  # none of them written (most files): nothing to read
    lines = text.splitlines(keepends=True)
    toml = name == "pyproject.toml"
    result = "".join(toml_without(lines, LEFT_OUT) if toml else _ini_lines(lines))
    found = _remaining(toml, result)
    if not found and toml and result != text and _without(text) != _without(result):
        found = _remaining(toml, text)
    if found:
        raise InvalidInput(
            f"{name}: lspd cannot leave mypy's {', '.join(map(repr, found))} out of its copy "
            "of the configuration (mypy writes or installs by it): write it as a plain key "
            "of its mypy section"
        )
    return result


def _ini_lines(lines: list[str]) -> list[str]:
    """INI: each option of a `[mypy]`, `[mypy-...]` or `[DEFAULT]` section (whose values
    every section takes) made empty, its continuation lines (indented) with it."""
    out: list[str] = []
    mypy = dropping = False
    for line in lines:
        if dropping and line.strip() and line[:1].isspace():
            out.append(_empty(line))
            continue
        dropping = False
        if (section := _SECTION.match(line)) is not None and not line[:1].isspace():
            title = section.group(1)
            mypy = title == "mypy" or title.startswith("mypy-") or title == "DEFAULT"
        elif mypy and (key := _INI_KEY.match(line)) is not None and left_out(key.group(1)):
            dropping = True
            out.append(_empty(line))
            continue
        out.append(line)
    return out


def _empty(line: str) -> str:
    """The line, empty, its line ending kept."""
    return line[len(line.rstrip("\r\n")) :]


def _remaining(toml: bool, text: str) -> list[str]:
    """The options of `LEFT_OUT` in a mypy section of `text` as mypy parses it (a
    pyproject.toml's global table alone: mypy takes none of them from a per-module one,
    its `PER_MODULE_OPTIONS`); none where the text does not parse (mypy says so itself)."""
    try:
        if toml:
            table = tomllib.loads(text).get("tool", {}).get("mypy", {})
            sections = [list(table)] if isinstance(table, dict) else []
        else:
            parser = configparser.RawConfigParser()
            parser.read_string(text)
            names = [s for s in parser.sections() if s == "mypy" or s.startswith("mypy-")]
            sections = [list(parser[s]) for s in names] + [list(parser.defaults())]
    except (tomllib.TOMLDecodeError, configparser.Error, AttributeError):
        return []
    return [key for keys in sections for key in keys if left_out(key)]


def _without(text: str) -> object:
    """A pyproject.toml as tomllib reads it, without `LEFT_OUT`'s options in its mypy
    tables; None when it does not parse."""
    try:
        read = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    mypy = read.get("tool", {}).get("mypy") if isinstance(read.get("tool"), dict) else None
    tables = [mypy] if isinstance(mypy, dict) else []
    if tables and isinstance(overrides := tables[0].get("overrides"), list):
        tables += [table for table in overrides if isinstance(table, dict)]
    for table in tables:
        for name in [name for name in table if left_out(name)]:
            del table[name]
    return read


USERS = "mypy/config"  # the user's configuration in lspd's XDG_CONFIG_HOME, as mypy names it
_CONFIG_DIR = re.compile(r"\$(?:MYPY_CONFIG_FILE_DIR\b|\{MYPY_CONFIG_FILE_DIR\})")


def users_config(home: Path) -> str:
    """Make `home`, the `XDG_CONFIG_HOME` lspd's mypy runs with (`mypy_server.tool_env`),
    hold the user's mypy configuration as lspd's mypy reads it: the first of `user_files`
    (the one mypy reads where the project has none) without `LEFT_OUT`'s options, what
    names its directory naming the user's (`_relocated`); none where the user has none.
    Its text ("" for none), which the answers kept in memory are keyed by too."""
    target = home / USERS
    for path in user_files():
        if path.is_file():
            text = path.read_bytes().decode("utf-8", "surrogateescape")
            directory = Path(os.path.dirname(os.path.abspath(path)))  # as mypy has it
            held = _relocated(without_outputs(str(path), text), directory)
            break
    else:
        target.unlink(missing_ok=True)
        return ""
    data = held.encode("utf-8", "surrogateescape")
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".config.{os.getpid()}")
        partial.write_bytes(data)
        partial.replace(target)  # whole: another process's mypy may read it meanwhile
    return held


def _relocated(text: str, directory: Path) -> str:
    """The user's configuration, moved out of `directory`, naming what it named there:
    `$MYPY_CONFIG_FILE_DIR` (mypy sets it to the file's directory) written as `directory`,
    and each plugin file of its `[mypy]` section given relative (`plugin.py`,
    `../p.py:fn`: mypy joins it to the file's directory) written absolute."""
    text = _CONFIG_DIR.sub(lambda _: str(directory), text)
    out: list[str] = []
    mypy = plugins = False
    for line in text.splitlines(keepends=True):
        if plugins and line.strip() and line[:1].isspace():
            out.append(_absolute(line, directory))
            continue
        plugins = False
        if (section := _SECTION.match(line)) is not None and not line[:1].isspace():
            mypy = section.group(1) == "mypy"
        elif mypy and (key := _INI_KEY.match(line)) is not None and key.group(1) == "plugins":
            plugins = True
            start = key.end()
            line = line[:start] + _absolute(line[start:], directory)
        out.append(line)
    return "".join(out)


def _absolute(values: str, directory: Path) -> str:
    """A line of comma-separated plugins with each relative plugin file made absolute."""
    parts = re.split(r"(,)", values)
    for index, part in enumerate(parts):
        plugin = part.strip()
        path = plugin.rsplit(":", 1)[0] if ":" in os.path.basename(plugin) else plugin
        if path.endswith(".py") and not os.path.isabs(path):
            parts[index] = part.replace(plugin, str(directory / plugin), 1)
    return "".join(parts)
