"""Reading, merging and writing agent config files without disturbing the rest of them.

JSON is re-serialised with the file's own indentation; TOML goes through tomlkit,
which keeps comments, ordering and formatting of everything we do not touch. A
merge that changes no value leaves the text alone, so an up-to-date file is never
rewritten, whatever its formatting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions
import tomlkit.items

from lspd.agents.descriptor import Format
from lspd.errors import LspdError

AUTHORIZATION = "Authorization"


class ConfigParseError(LspdError):
    """An existing config file is not valid JSON/TOML; it is left exactly as it was."""


class ConfigShapeError(LspdError):
    """A key on our path holds something other than a table, so merging would destroy data."""


def parse(text: str, fmt: Format, path: Path) -> MutableMapping[str, Any]:
    """Parse a config; an empty file counts as an empty config."""
    if not text.strip():
        return tomlkit.document() if fmt == "toml" else {}
    if fmt == "toml":
        try:
            return tomlkit.parse(text)
        except tomlkit.exceptions.ParseError as exc:
            raise ConfigParseError(_unparsable(path, "TOML", str(exc))) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        if re.search(r"^\s*//|/\*", text, re.MULTILINE):
            detail += " (comments are not supported: remove them or add the entry by hand)"
        raise ConfigParseError(_unparsable(path, "JSON", detail)) from exc
    if not isinstance(data, dict):
        raise ConfigParseError(
            _unparsable(path, "JSON", f"the top level is {type(data).__name__}, not an object")
        )
    return data


def _unparsable(path: Path, kind: str, detail: str) -> str:
    return (
        f"cannot parse {path} as {kind}: {detail}; left it untouched. "
        "Fix the file (or move it away) and run `lspd sync` again."
    )


def merge_entry(
    doc: MutableMapping[str, Any],
    key: list[str],
    entry: Mapping[str, Any],
    fmt: Format,
    *,
    headers_key: str | None,
    authorization: str | None,
    path: Path,
    drop: tuple[str, ...] = (),
) -> bool:
    """Put `entry` at `key` in `doc`, keeping the entry's other keys; True when anything changed.

    The entry under our name is ours: its template keys are set, keys the user
    added (a timeout, a trust flag) are kept, the keys in `drop` (the other form's: `url`
    when writing a command) removed. The Authorization header is set when
    `authorization` is given and removed otherwise, so leaving token mode cleans up.
    """
    changed = False
    node = doc
    for depth, part in enumerate(key):
        child = node.get(part)
        if child is None:
            child = _new_table(fmt, super_table=depth < len(key) - 1)
            node[part] = child
            changed = True
        elif not isinstance(child, MutableMapping):
            where = ".".join(key[: depth + 1])
            raise ConfigShapeError(
                f"{path}: {where} is a {type(child).__name__}, not a table; left the file "
                "untouched. Fix that key and run `lspd sync` again."
            )
        node = child
    for name, value in entry.items():
        if _plain(node.get(name)) != value or name not in node:
            node[name] = _new_value(fmt, value)
            changed = True
    for name in drop:
        if name in node and name not in entry:
            del node[name]
            changed = True
    if headers_key:
        changed |= _set_authorization(node, headers_key, authorization, fmt, path)
    return changed


def _set_authorization(
    node: MutableMapping[str, Any],
    headers_key: str,
    authorization: str | None,
    fmt: Format,
    path: Path,
) -> bool:
    headers = node.get(headers_key)
    if headers is not None and not isinstance(headers, MutableMapping):
        raise ConfigShapeError(f"{path}: {headers_key} is not a table; left the file untouched.")
    if authorization is None:
        if headers is None or AUTHORIZATION not in headers:
            return False
        del headers[AUTHORIZATION]
        if not headers:
            del node[headers_key]
        return True
    if headers is None:
        node[headers_key] = _new_value(fmt, {AUTHORIZATION: authorization})
        return True
    if _plain(headers.get(AUTHORIZATION)) == authorization:
        return False
    headers[AUTHORIZATION] = authorization
    return True


def _new_table(fmt: Format, *, super_table: bool) -> MutableMapping[str, Any]:
    if fmt == "toml":
        # A super table renders as `[mcp_servers.lspd]` instead of an empty `[mcp_servers]`.
        return tomlkit.table(is_super_table=super_table)
    return {}


def _new_value(fmt: Format, value: Any) -> Any:
    if fmt == "toml" and isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update(value)
        return table
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, (tomlkit.items.Item, tomlkit.TOMLDocument)):
        return value.unwrap()
    return value


def dump(doc: Mapping[str, Any], fmt: Format, original: str) -> str:
    """Serialise `doc` in the style of the file it came from."""
    if fmt == "toml":
        return tomlkit.dumps(doc)
    text = json.dumps(doc, indent=_json_indent(original), ensure_ascii=False)
    return text + "\n" if original.endswith("\n") or not original else text


def _json_indent(original: str) -> int | str:
    match = re.search(r"^[{\[][^\n]*\n([ \t]+)\S", original, re.MULTILINE)
    if not match:
        return 2
    indent = match.group(1)
    return indent if "\t" in indent else len(indent)
