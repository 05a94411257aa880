"""The project's modules mypy follows into from its sources, whose errors it reports.

mypy checks its sources (`files`, the packages its CI names) and every module they import,
transitively, that it finds (its `follow_imports`, `normal` by default), and reports their
errors too: `files = ["app/main.py"]` importing `app.helper` says `app/helper.py`'s errors.
So the gate's files of such a project are the sources and the project's modules they reach
(`followed`), made again from the texts of a state (HEAD's, a preview's), as mypy would.

A static walk of the imports, as mypy's `build.py` reads them (`mypy_imports`: every
import statement anywhere, its module's enclosing packages, `from pkg import mod`'s
submodule, none in a branch mypy finds unreachable), resolved as mypy's `modulefinder`
does, in `mypy_path`, then the directory mypy runs in and each source's base folder (the
folder above its packages: `crawl_up`), then the environment's `.pth` folders inside the
project, a stub (`.pyi`) before its module and a package before a module of its name. A
module under `follow_imports = skip` or `error` (globally or by its per-module section) is
not checked; under `silent` it is (its imports followed) but its errors are not said:
neither is the gate's.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from lspd.workspace.files import stamp
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_imports import KEPT_IMPORTS, ImportsRead, imports_of
from lspd.workspace.mypy_reachable import facts_of
from lspd.workspace.python_links import named_through

SUFFIXES = (".pyi", ".py")
NOT_FOLLOWED = ("skip", "error")  # mypy does not check such a module
UNSAID = "silent"  # checked, its errors not said


class Followed(NamedTuple):
    """What mypy reaches from its sources (`followed`)."""

    said: list[Path]  # the files whose errors it reports: the sources and what they reach
    read: dict[Path, ImportsRead]  # the files whose imports were read, with what was read
    # followed into under another name than mypy gives the file as a source: `scripts.tool`
    # (imported from testing/, beside scripts/ with no `__init__.py`) is `tool` as a source,
    # and both given mypy: "Source file found twice under different module names"
    renamed: dict[Path, str]


class Reached(NamedTuple):
    """What a scope's mypy reports and reads (`mypy_scope`): `Followed`'s, stamped."""

    files: tuple[Path, ...]
    read: tuple[tuple[Path, tuple[int, int] | None], ...]  # with `files.stamp`'s
    imports: tuple[tuple[Path, ImportsRead], ...]
    renamed: tuple[tuple[Path, str], ...]


def followed(
    directory: Path,
    config: MypyConfig,
    sources: Iterable[Path],
    python: Iterable[Path],
    folders: Iterable[Path] = (),
    texts: Mapping[Path, str | None] | None = None,
    only: set[Path] | None = None,
) -> Followed:
    """The files of `python` (the project's Python files in the state) mypy reports errors
    of when pointed at `sources`: the sources and the modules it follows into from them;
    the files whose imports were read (their edits can change the answer), with what was
    read of them; and the modules followed into under another name than the one mypy
    gives the file as a source (`renamed`). `folders`:
    the `.pth` folders of mypy's environment inside the project; `texts`: a state's texts
    standing in for the disk's (None: the file is not there); `only`: the modules to follow
    into, and the sources read those that may import one (`_may_import`), the others
    being checked all the same (`unwalked`)."""
    known = set(python)
    real = named_through(directory, known)  # `app/vendor -> ../shared/vendor`: names there
    named = {real.get(name, name): name for name in sorted(sources)}  # a source by its name
    sources = sorted(set(named) & known)
    search = _search(directory, config, [named[p] for p in sources], folders)
    index = _indexed(search, known | real.keys())
    said: set[Path] = set(sources)
    seen: set[Path] = set(sources)  # checked or to be
    spaces, facts = config.namespace_packages, facts_of(config)

    def find(module: str) -> Path | None:  # by its real place
        found = _find(module, index, spaces)
        return None if found is None else real.get(found, found)

    read: dict[Path, ImportsRead] = {}
    names: dict[Path, str] = {}  # each followed file's module name, as first imported
    starts = sources if only is None else _may_import(sources, only, texts or {})
    queue = [(path, module_of(named[path], config, directory)) for path in starts]
    while queue:
        path, module = queue.pop()
        if path in read:
            continue
        imports, exact, read[path] = imports_of(path, module, texts or {}, False, facts)
        new = (f for i in imports if (f := find(i)) is not None and f not in seen)
        if not exact and any(new):  # its parse
            imports, exact, read[path] = imports_of(path, module, texts or {}, True, facts)
        for imported in imports:
            found = find(imported)
            if found is None or found in read or (only is not None and found not in only):
                continue
            follow = _follow_of(config, imported)
            if follow in NOT_FOLLOWED:
                continue
            if follow != UNSAID:
                said.add(found)
            seen.add(found)
            queue.append((found, imported))
            names.setdefault(found, imported)
    renamed = _renamed(names, said.difference(sources), config, directory)
    return Followed(sorted(said), dict(sorted(read.items())), renamed)


def _renamed(
    names: Mapping[Path, str], followed: set[Path], config: MypyConfig, directory: Path
) -> dict[Path, str]:
    """Of the `followed` files (not sources), those first imported (`names`) under another
    name than mypy gives the file as a source."""
    return {
        path: name
        for path, name in names.items()
        if path in followed and name != module_of(path, config, directory)
    }


def unwalked(
    directory: Path,
    config: MypyConfig,
    sources: list[Path],
    ignored: list[Path],
    folders: Iterable[Path] = (),
    texts: Mapping[Path, str | None] | None = None,
) -> tuple[list[Path], list[Path], dict[Path, ImportsRead]]:
    """Of `ignored` (the Python files lspd's walk leaves out: git ignores them), those mypy
    follows into from `sources` (every other file of the project, each checked: `mypy .`);
    the files whose edits can change that (every source: one may import such a module
    anew); and what was read of the imports of those read. Only the sources that may
    import one are read (a project's every file read for its imports cost 3.9 s on mypy's
    own 956 files, a build/ copy ignored beside them)."""
    if not ignored:
        return [], [], {}
    python = [*sources, *ignored]
    reached, read, _ = followed(directory, config, sources, python, folders, texts, set(ignored))
    return sorted(set(ignored).intersection(reached)), sorted({*sources, *read}), read


def _may_import(
    sources: list[Path], modules: set[Path], texts: Mapping[Path, str | None]
) -> list[Path]:
    """The files of `sources` that may import one of `modules`: naming the module's own
    name (its folder's, a package's), or below a package of them (mypy loads a module's
    packages with it)."""
    names = {p.parent.name if p.stem == "__init__" else p.stem for p in modules}
    packages = {p.parent for p in modules if p.stem == "__init__"}
    word = re.compile("|".join(sorted(map(re.escape, names))))  # a literal search: fast
    key = frozenset(names)
    found = []
    for path in sources:
        if any(folder in path.parents for folder in packages):
            found.append(path)
            continue
        if path in texts:
            text = texts[path]
            if text is not None and _names(text, word):
                found.append(path)
            continue
        was = stamp(path)
        kept = _MENTIONS.get(path)
        if kept is None or kept[:2] != (was, key):
            try:
                said = _names(path.read_text("utf-8", "replace"), word)
            except OSError:
                said = False
            if len(_MENTIONS) > KEPT_IMPORTS:
                _MENTIONS.clear()
            kept = _MENTIONS[path] = (was, key, said)
        if kept[2]:
            found.append(path)
    return found


# Per path: its stamp and the names looked for when `_may_import` read it, whether it names one.
_MENTIONS: dict[Path, tuple[object, frozenset[str], bool]] = {}


def _names(text: str, word: re.Pattern[str]) -> bool:
    """Whether `text` holds one of `word`'s names as a whole word."""
    return any(_whole(text, m.start(), m.end()) for m in word.finditer(text))


def _whole(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` is a whole word of it."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "_" or after.isalnum() or after == "_")


def _search(
    directory: Path, config: MypyConfig, sources: list[Path], folders: Iterable[Path]
) -> list[Path]:
    """Where mypy looks for a module, in its order (`compute_search_paths`, `_find_module`):
    `mypy_path`, the directory it runs in, each source's base folder; then the environment's
    folders (an editable install's)."""
    found = _paths(directory, config)
    firsts = {path.parent: path for path in sources}  # one source a folder: the same base
    found += [_base_of(path, config, directory) for path in firsts.values()]
    found += list(folders)
    return list(dict.fromkeys(found))


def _base_of(path: Path, config: MypyConfig, directory: Path) -> Path:
    """The folder mypy names the source `path`'s module from (its `crawl_up`): up through
    its packages (folders with an `__init__.py`), and with `explicit_package_bases` through
    namespace folders up to a base (a `mypy_path` entry, the run's directory); else its
    own folder."""
    bases = set(_paths(directory, config)) if config.explicit_package_bases else set()

    def up(folder: Path) -> Path | None:
        if folder in bases:
            return folder
        if folder == folder.parent:
            return None
        if any((folder / f"__init__{s}").is_file() for s in SUFFIXES):
            return up(folder.parent) or folder.parent
        if not config.namespace_packages or not folder.name.isidentifier():
            return None
        return up(folder.parent)

    return up(path.parent) or path.parent


def _paths(directory: Path, config: MypyConfig) -> list[Path]:
    """`mypy_path`'s folders, then the run's directory."""
    found = []
    for entry in config.mypy_path:
        entry = entry.replace("$MYPY_CONFIG_FILE_DIR", str(directory))
        found.append(Path(os.path.normpath(directory / entry)))
    return [*found, directory]


def module_of(path: Path, config: MypyConfig, directory: Path) -> str:
    """The module name mypy gives the source `path`."""
    relative = path.relative_to(_base_of(path, config, directory)).with_suffix("")
    parts = list(relative.parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# Per search folder: module -> (rank, the __init__ files above it it lacks, its file).
Index = list[dict[str, tuple[int, int, Path]]]


def _indexed(search: list[Path], known: set[Path]) -> Index:
    """The modules of the project's Python files as each search folder names them, each
    with its file: a package's stub before its `__init__.py`, before a stub of its name,
    before a module (mypy's order in one folder), and how many of the folders between it
    and the search folder have no `__init__.py` (a namespace package's: mypy's near miss)."""
    index: Index = [{} for _ in search]
    packages = {p.parent for p in known if p.stem == "__init__"}  # an __init__.py or .pyi
    lacks: dict[tuple[int, tuple[str, ...]], int] = {}  # by search folder and folders between
    prefixes = [os.path.join(folder, "") for folder in search]  # its path and a separator
    for path in known:
        stem, package, name = path.stem, path.stem == "__init__", str(path)
        rank = (0 if package else 2) + (0 if path.suffix == ".pyi" else 1)
        for at, folder in enumerate(search):
            if not name.startswith(prefixes[at]):
                continue
            parts = tuple(name[len(prefixes[at]) :].split(os.sep)[:-1])
            parts += () if package else (stem,)
            if not parts or not all(part.isidentifier() for part in parts):
                continue
            above = parts[:-1]  # the folders between: each a package, or a namespace's
            lacking = lacks.get((at, above))
            if lacking is None:
                between = (folder.joinpath(*above[: i + 1]) for i in range(len(above)))
                lacking = lacks[at, above] = sum(f not in packages for f in between)
            module = ".".join(parts)
            kept = index[at].get(module)
            if kept is None or rank < kept[0]:
                index[at][module] = (rank, lacking, path)
    return index


def _find(module: str, index: Index, namespaces: bool = True) -> Path | None:
    """The project's file of `module` where mypy finds it (`_find_module`): in the first
    search folder holding it in packages all the way; else, with namespace packages, where
    the fewest folders above it lack an `__init__.py`; None when none has it (a namespace
    package has no file; a module of the environment is no project's)."""
    near: tuple[int, Path] | None = None
    for folder in index:
        if (found := folder.get(module)) is not None:
            if not found[1]:
                return found[2]
            if near is None or found[1] < near[0]:
                near = (found[1], found[2])
    return near[1] if near is not None and namespaces else None


def _follow_of(config: MypyConfig, module: str) -> str:
    """`follow_imports` for `module`: its per-module section's (an exact name before a
    pattern, the longest pattern first), else the configuration's."""
    exact = [value for pattern, value in config.follows if pattern == module]
    if exact:
        return exact[-1]
    best: tuple[int, str] | None = None
    for pattern, value in config.follows:
        if pattern.endswith(".*"):
            prefix = pattern[:-2]
            hit = module == prefix or module.startswith(prefix + ".")
        else:
            hit = "*" in pattern and fnmatch.fnmatchcase(module, pattern)
        if hit and (best is None or len(pattern) >= best[0]):
            best = (len(pattern), value)
    return best[1] if best is not None else config.follow_imports
