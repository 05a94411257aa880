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
is): mypy's diagnostics do not depend on them, and its cache is lspd's (`--cache-dir` run
once; none for dmypy, or the copy's own `.mypy_cache`).
"""

from __future__ import annotations

import configparser
import re
import tomllib

from lspd.errors import InvalidInput

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
_TOML_KEY = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([\w-]+))\s*=\s*(.*)$""")
_SECTION = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")


def left_out(key: str) -> bool:
    """Whether mypy's option `key` (as written: `-` or `_`) is one the copy leaves out."""
    return key.strip().strip("\"'").lower().replace("-", "_") in LEFT_OUT


def without_outputs(name: str, text: str) -> str:
    """The configuration file `name`'s `text` without `LEFT_OUT`'s options in its mypy
    sections. One written where a line cannot take it out (a dotted TOML key, an inline
    table) is refused, saying so."""
    toml = name == "pyproject.toml"
    lines = (_toml_lines if toml else _ini_lines)(text.splitlines(keepends=True))
    result = "".join(lines)
    if (found := _remaining(toml, result)) is not None:
        raise InvalidInput(
            f"{name}: lspd cannot leave mypy's {found!r} out of its copy of the configuration "
            f"(mypy writes or installs by it): write {found} as a plain key of its "
            "mypy section"
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


def _toml_lines(lines: list[str]) -> list[str]:
    """TOML: each option of `[tool.mypy]` or `[[tool.mypy.overrides]]` made empty, a
    multi-line string value's lines with it."""
    out: list[str] = []
    mypy = False
    closing = ""  # the quotes a dropped multi-line string ends at
    for line in lines:
        if closing:
            out.append(_empty(line))
            closing = "" if closing in line else closing
            continue
        if (section := _SECTION.match(line)) is not None:
            mypy = section.group(1).replace(" ", "") in ("tool.mypy", "tool.mypy.overrides")
        elif mypy and (key := _TOML_KEY.match(line)) is not None:
            written = next(group for group in key.groups()[:3] if group)
            if left_out(written):
                value = key.group(4).lstrip()
                quotes = value[:3]
                if quotes in ('"""', "'''") and quotes not in value[3:]:
                    closing = quotes
                out.append(_empty(line))
                continue
        out.append(line)
    return out


def _empty(line: str) -> str:
    """The line, empty, its line ending kept."""
    return line[len(line.rstrip("\r\n")) :]


def _remaining(toml: bool, text: str) -> str | None:
    """An option of `LEFT_OUT` still in a mypy section of `text` as mypy parses it; None
    when none is (or the text does not parse: mypy says so itself)."""
    try:
        if toml:
            table = tomllib.loads(text).get("tool", {}).get("mypy", {})
            tables = [table] if isinstance(table, dict) else []
            overrides = tables[0].get("overrides", []) if tables else []
            tables += [o for o in overrides if isinstance(o, dict)]
            sections = [list(t) for t in tables]
        else:
            parser = configparser.RawConfigParser()
            parser.read_string(text)
            names = [s for s in parser.sections() if s == "mypy" or s.startswith("mypy-")]
            sections = [list(parser[s]) for s in names] + [list(parser.defaults())]
    except (tomllib.TOMLDecodeError, configparser.Error, AttributeError):
        return None
    return next((key for keys in sections for key in keys if left_out(key)), None)
