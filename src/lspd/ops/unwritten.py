"""Imports of a file a change adds, from another file of the same change: not checked.

A server holds a new file's text while a change is compared, but some resolve imports from
the disk only: basedpyright's import resolver lists directories on disk (no overlay of open
documents: `importResolverFileSystem.ts`), and TypeScript 7 finds no open file in a
directory not on disk (tsserver is told by lspd's plugin, `servers/tsplugin`). So
`from pkg.newmod import f` in a changed `pkg/app.py`, with `pkg/newmod.py` a file of the
same change, is `reportMissingImports` there: an error the CLI will never report once both
files are written, and the importing file is not checked through the import (what it uses
of the new file is `Unknown`). Such an error is never "introduced": it is set aside, and
the answer says which file was not checked through which import, and what to do instead.
basedpyright's importers of such a file are asked of a copy holding it since cc9b47c
(`engine/python_mirror.py`): their imports resolve, and nothing is set aside there unless
that copy could not be used (a server whose project lies outside the workspace).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lspd.ops.models import Changes, DiagnosticsResult, FileDiagnostic, UncheckedImport

# What an unresolved import is called: basedpyright (`from pkg import newmod` is an unknown
# import symbol when pkg/newmod.py is not on disk), TypeScript (TS2792 under `classic`-like
# resolution settings).
IMPORT_CODES = frozenset({"reportMissingImports", "reportAttributeAccessIssue", "2307", "2792"})
PYTHON_SUFFIXES = (".py", ".pyi")
SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d")
_QUOTED = re.compile(r"""["']([^"']+)["']""")
_FROM = re.compile(r"^\s*from\s+([.\w]+)\s+import\b")


def unwritten(texts: Mapping[Path, str | None]) -> set[Path]:
    """The files `texts` holds that are not on disk: a change's new files."""
    return {path for path, text in texts.items() if text is not None and not path.exists()}


def imported(diagnostic: FileDiagnostic, file: Path, line: str, new: set[Path]) -> Path | None:
    """The file of `new` that `diagnostic` (in `file`, on its line `line`) says `file`
    cannot import, when it says that; else None."""
    if diagnostic.code not in IMPORT_CODES:
        return None
    quoted = _QUOTED.search(diagnostic.message)
    if quoted is None:
        return None
    spec = quoted.group(1)
    if file.suffix in PYTHON_SUFFIXES:
        if diagnostic.code == "reportAttributeAccessIssue":  # `from pkg import newmod`
            base = _FROM.match(line)
            if base is None or "unknown import symbol" not in diagnostic.message:
                return None
            spec = base.group(1) + ("" if base.group(1).endswith(".") else ".") + spec
        return _python_module(spec, file, new)
    return None if diagnostic.code == "reportAttributeAccessIssue" else _script(spec, file, new)


def _python_module(spec: str, file: Path, new: set[Path]) -> Path | None:
    """The file of `new` that the Python module `spec` (relative to `file` when it starts
    with dots) names: `a/b.py`, `a/b.pyi` or `a/b/__init__.py`."""
    dots = len(spec) - len(spec.lstrip("."))
    parts = [p for p in spec[dots:].split(".") if p]
    if not parts:
        return None
    for path in sorted(new):
        if path.suffix not in PYTHON_SUFFIXES:
            continue
        named = path.with_suffix("").parts
        named = named[:-1] if named[-1] == "__init__" else named
        if dots:
            base = file.parent.parents[dots - 2] if dots > 1 else file.parent
            if Path(*named) == base.joinpath(*parts):
                return path
        elif tuple(named[-len(parts) :]) == tuple(parts):
            return path
    return None


def _script(spec: str, file: Path, new: set[Path]) -> Path | None:
    """The file of `new` that the module specifier `spec` names: by its path when relative
    (`./fresh`, `../lib/fresh.js`, a directory's `index`), else by its last name (`~/fresh`
    through `paths`, a package's own name). A relative one's extension says the module
    kind (`./a.mjs` names a.mts, a.d.mts or a.mjs: never a new a.cts); an alias's may not
    (package.json `imports` `"#x/*.js": "./src/*.mts"`: tsc resolves `#x/pad.js` to
    src/pad.mts), so a file of that kind is named first, then one of any kind."""
    relative = spec.startswith(("./", "../"))
    target = Path(os.path.normpath(file.parent / spec)) if relative else None
    last = _stem(spec.rstrip("/").rpartition("/")[2])
    kind = _kind(spec.rstrip("/").rpartition("/")[2])
    scripts = [p for p in sorted(new) if p.name.endswith(SCRIPT_SUFFIXES[:-1])]
    kinds = [kind] if relative or kind is None else [kind, None]
    for wanted in kinds:
        for path in scripts:
            if wanted is not None and _kind(path.name) != wanted:
                continue
            stem, home = _stem(path.name), path.parent
            if target is not None:
                if home / stem == _strip(target) or (stem == "index" and home == target):
                    return path
            elif stem == last or (stem == "index" and home.name == last):
                return path
    return None


def _kind(name: str) -> str | None:
    """The module kind a name's extension says (TypeScript maps `.mjs` to `.mts`, `.d.mts`
    and `.mjs` alone, `.cjs` to `.cts` and the like, `.js` to `.ts`, `.tsx`, `.d.ts`...):
    "m", "c" or "" (none of either); None for a name without a script extension."""
    extension = os.path.splitext(name)[1]
    if extension not in SCRIPT_SUFFIXES or extension == ".d":
        return None
    return extension[1] if extension[1] in "mc" else ""


def _stem(name: str) -> str:
    """`name` without its script extensions (`a.d.ts`, `a.js`: `a`)."""
    while (cut := os.path.splitext(name))[1] in SCRIPT_SUFFIXES:
        name = cut[0]
    return name


def _strip(path: Path) -> Path:
    return path.parent / _stem(path.name)


@dataclass(frozen=True)
class SetAside:
    """A comparison without the errors it cannot stand by, and those set aside."""

    changes: Changes
    results: list[DiagnosticsResult]


Key = tuple[str | None, int, int, str | None, str]


def set_aside(
    changes: Changes,
    results: list[DiagnosticsResult],
    seen: list[FileDiagnostic],
    new: set[Path],
    locate: Callable[[str], Path],
    line_of: Callable[[Path, int], str],
    display: Callable[[Path], str],
) -> SetAside:
    """`changes` and `results` without the errors of an import of a file of `new`, nor,
    in a file with such an import, the warnings about `Unknown` types (basedpyright's
    `reportUnknown*`: what it imports is `Unknown` there); none is introduced or counted,
    `changes.unchecked` names the files instead. `seen`: every diagnostic of the changed
    state (an import the disk's text has too is not checked through either). `locate`
    turns a shown path into a file, `line_of` gives a line of a file's text in that state."""
    if not new:
        return SetAside(changes, results)
    imports: dict[str, dict[int, str]] = {}  # shown file: {line: the new file it imports}
    dropped: set[Key] = set()
    for item in seen:
        file = locate(item.path or "")
        target = imported(item, file, line_of(file, item.line), new)
        if target is not None:
            imports.setdefault(item.path or "", {})[item.line] = display(target)
            dropped.add(_key(item.path, item))
    if not imports:
        return SetAside(changes, results)
    counted = dict.fromkeys(imports, 0)
    for item in seen:
        if item.path in imports and (item.code or "").startswith(UNKNOWN_CODES):
            dropped.add(_key(item.path, item))
        if _key(item.path, item) in dropped:
            counted[item.path or ""] += 1
    introduced = [d for d in changes.introduced if _key(d.path, d) not in dropped]
    unchecked = [
        _unchecked(path, lines, counted[path], seen) for path, lines in sorted(imports.items())
    ]
    kept = [_without(r, dropped) for r in results]
    update = {"introduced": introduced, "unchecked": unchecked}
    return SetAside(changes.model_copy(update=update), kept)


UNKNOWN_CODES = ("reportUnknown",)  # what an unresolved import's `Unknown` brings


def _key(path: str | None, item: FileDiagnostic) -> Key:
    return (path, item.line, item.column, item.code, item.message)


def _unchecked(
    path: str, lines: dict[int, str], count: int, items: list[FileDiagnostic]
) -> UncheckedImport:
    targets = sorted(set(lines.values()))
    server = next((d.source for d in items if d.path == path and d.source), None)
    named = ", ".join(targets)
    return UncheckedImport(
        path=path,
        lines=sorted(lines),
        imports=targets,
        set_aside=count,
        why=(
            f"{named} not written yet: {server or 'its language server'} resolves imports "
            f"from the disk only, so {path} was not checked through those imports (what it "
            f"uses of them is unknown there) and its {count} error(s)/warning(s) of them are "
            f"not the change's. Write {named}, then ask `diagnostics {path}`"
        ),
    )


def _without(result: DiagnosticsResult, dropped: set[Key]) -> DiagnosticsResult:
    """`result` without the diagnostics set aside (counted again)."""
    items = [d for d in result.diagnostics if _key(result.path, d) not in dropped]
    if len(items) == len(result.diagnostics):
        return result
    return result.model_copy(
        update={
            "diagnostics": items,
            "errors": sum(d.severity == "error" for d in items),
            "warnings": sum(d.severity == "warning" for d in items),
            "total": len(items),
        }
    )
