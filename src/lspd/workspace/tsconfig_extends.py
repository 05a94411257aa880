"""The configurations a tsconfig.json extends, followed as tsc follows `extends`, in any
state of the files (the disk's, or a commit's texts: `read`), without TypeScript itself
(the gate's scope asks the project's TypeScript for the disk's, `tsconfig_scope`; a
commit's texts are no files it could read).

tsc's rules (`getExtendsConfigPath`): a path that is absolute or starts with `./` or `../`
is the config's directory joined with it, `.json` added when no such file is there and it
lacks one; any other name is a package's, looked up in `node_modules` from the config's
directory up (`nodeNextJsonConfigResolver`): `pkg/sub.json` as named (`.json` added when
missing), the package itself by its package.json's `tsconfig` field, else its
tsconfig.json, and a subpath its package.json's `exports` maps (a string or a condition's).
`extends` may be a list (TypeScript 5.0): each is followed, in order.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from lspd.workspace.files import read_text, stamp

Read = Callable[[Path], str | None]  # a file's text in the state asked (None: absent)
Stamps = tuple[tuple[int, int] | None, ...]  # a tsconfig's and its extended ones' (`stamps`)
MAX_CONFIGS = 64  # configs followed from one tsconfig, at most (a cycle ends sooner)
CONDITIONS = ("types", "require", "node", "import", "default")  # `exports` conditions taken


def extended(config: Path, read: Read) -> list[Path]:
    """The configurations `config` extends, transitively, each once, as `read` has them;
    one that names nothing there is left out (tsc reports it; nothing to read)."""
    found: list[Path] = []
    queue = [config]
    while queue and len(found) < MAX_CONFIGS:
        current = queue.pop(0)
        for name in extends_of(read(current)):
            target = resolve(name, current.parent, read)
            if target is not None and target != config and target not in found:
                found.append(target)
                queue.append(target)
    return found


def extended_by(configs: Iterable[Path], read: Read) -> set[Path]:
    """The configurations any of `configs` extends, transitively, as `read` has them: a
    change of one is a change of the configuration (`extends: "./settings.json"`, a chain
    of any depth, a package's), whatever its name."""
    return {found for config in configs for found in extended(config, read)}


def configured_stamps(config: Path) -> Stamps | None:
    """`config`'s stamp and those of the configurations it extends now, in order: an edit
    of any of them moves it (settings.json given an option tsc refuses); None: `config` is
    absent."""
    own = stamp(config)
    if own is None:
        return None
    return (own, *(stamp(path) for path in extended(config, read_text)))


def extends_of(text: str | None) -> list[str]:
    """The names a config's text extends (none: no text, unparsable, no `extends`)."""
    named = config_body(text).get("extends")
    names = named if isinstance(named, list) else [named]
    return [n for n in names if isinstance(n, str) and n]


def config_body(text: str | None) -> dict[str, object]:
    """A tsconfig's text read as tsc reads it (`plain_json`); empty where there is none or
    it is no JSON object."""
    try:
        body = json.loads(plain_json(text)) if text is not None else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def resolve(name: str, directory: Path, read: Read) -> Path | None:
    """The file `extends: name` of a config in `directory` names, by tsc's rules."""
    name = name.replace("\\", "/")
    if name.startswith(("./", "../", "/")):
        path = Path(os.path.normpath(directory / name))
        if read(path) is None and not name.endswith(".json"):
            path = path.with_name(path.name + ".json")
        return path if read(path) is not None else None
    parts = name.split("/")
    size = 2 if name.startswith("@") else 1
    package, sub = "/".join(parts[:size]), "/".join(parts[size:])
    for folder in (directory, *directory.parents):
        root = folder / "node_modules" / package
        found = _in_package(root, sub, _manifest(read(root / "package.json")), read)
        if found is not None:  # a package linked in (a workspace's): its own file, as tsc
            return Path(os.path.realpath(found))
    return None


def _in_package(root: Path, sub: str, manifest: dict[str, object], read: Read) -> Path | None:
    """The config `sub` (empty: the package's own) of the package at `root`."""
    if "exports" in manifest:  # the paths it lists alone
        exported = _exported(manifest["exports"], f"./{sub}" if sub else ".")
        path = None if exported is None else Path(os.path.normpath(root / exported))
        return path if path is not None and read(path) is not None else None
    if not sub:
        field = manifest.get("tsconfig")
        sub = field if isinstance(field, str) else "tsconfig.json"
    for candidate in (root / sub, root / f"{sub}.json", root / sub / "tsconfig.json"):
        if read(candidate) is not None:
            return candidate
    return None


def _exported(exports: object, key: str) -> str | None:
    """What package.json's `exports` maps `key` to (a plain string, or a condition's)."""
    if isinstance(exports, str):
        return exports if key == "." else None
    if not isinstance(exports, dict):
        return None
    if not any(isinstance(k, str) and k.startswith(".") for k in exports):
        return _condition(exports) if key == "." else None  # conditions of "." alone
    target = exports.get(key)
    if target is None:  # a pattern: "./*": "./configs/*.json"
        for pattern, value in exports.items():
            head, star, tail = str(pattern).partition("*")
            if (
                star
                and key.startswith(head)
                and key.endswith(tail)
                and len(key) >= len(pattern) - 1
            ):
                matched = key[len(head) : len(key) - len(tail)]
                found = value if isinstance(value, str) else _condition(value)
                return None if found is None else found.replace("*", matched)
        return None
    return target if isinstance(target, str) else _condition(target)


def _condition(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for condition in CONDITIONS:
            if condition in value and (found := _condition(value[condition])) is not None:
                return found
    return None


def _manifest(text: str | None) -> dict[str, object]:
    if text is None:
        return {}
    try:
        body = json.loads(text)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def plain_json(text: str) -> str:
    """A tsconfig's text as JSON: its comments and trailing commas left out (tsc reads
    JSON with both), strings kept as they are."""
    out: list[str] = []
    i, size = 0, len(text)
    while i < size:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < size and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else size
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = size if end < 0 else end + 2
        elif char in "]}":
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] == ",":
                out.pop()
            out.append(char)
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)
