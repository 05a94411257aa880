"""The files of each tsconfig.json, as the project's own TypeScript reads them.

`files`, `include`, `exclude`, `extends` (from a package too) and `references` have rules of
their own (globs with implicit extensions, `outDir` left out, `allowJs`, ...): TypeScript's
`getParsedCommandLineOfConfigFile` applies them, in a small Node script run once per
TypeScript package (`tsconfig_files.js`; 0.3 s of CPU for a few configs here, most of it
loading TypeScript). A TypeScript without that API (7's native compiler) leaves the reading
to lspd's own TypeScript 5, whose tsconfig rules are the same. Node keeps its compiled code of
that run in lspd's cache directory (`NODE_COMPILE_CACHE`, Node 22.1+; an older one ignores
it): TypeScript's 9 MB loaded again in 0.5 s, not 0.8-1.2 (docs/benchmarks.md, "TypeScript 7
one-shot"). A cache Node cannot write costs nothing; one it hangs on (Node 24.19 under /proc)
is what the run's timeout is for.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from lspd.dirs import cache_dir
from lspd.errors import InvalidInput
from lspd.servers.registry import node_executable
from lspd.workspace.files import read_text
from lspd.workspace.tsconfig_extends import plain_json

log = logging.getLogger(__name__)

CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
TIMEOUT_S = 60.0
COMPILE_CACHE = "node-compile-cache"  # Node's compiled code of the run, in `cache_dir()`
# A config TypeScript cannot read at all: a syntax error (1xxx), a file it cannot read (5083)
# or find (6053, e.g. `extends` or a reference to nothing). Other diagnostics (no inputs,
# an unknown option) leave the file set readable: the checker reports them itself.
UNREADABLE = {5083, 6053}


@dataclass(frozen=True)
class TsConfig:
    """One tsconfig as TypeScript read it: its root files and the configs it uses."""

    config: Path
    files: tuple[Path, ...]
    references: tuple[Path, ...]
    extended: tuple[Path, ...]  # the configs it extends (their changes change its files)
    notes: tuple[str, ...]  # TypeScript's diagnostics about it that leave it readable
    data: tuple[Path, ...] = ()  # the JSON modules its files import (resolveJsonModule)
    # Its program's declaration files no root file names (`/// <reference path>`, a typeRoots
    # package): in `files` too; tsc reports their errors unless `skip_lib_check`
    declarations: tuple[Path, ...] = ()
    skip_lib_check: bool = False
    # Why TypeScript cannot read it at all (then no files): the check's error where it is
    # the gate's; an editor's that no script runs stops nothing (pinia's nuxt playground
    # extends a .nuxt/tsconfig.json its `nuxi prepare` writes)
    unreadable: str | None = None


class NoTypeScriptApi(Exception):
    """The TypeScript package has no `getParsedCommandLineOfConfigFile` (TypeScript 7)."""


def read_tsconfigs(
    configs: list[Path], typescript: Path, shown: Callable[[Path], str] = str
) -> list[TsConfig]:
    """`configs` and every config they reference, read by the TypeScript package at
    `typescript`. A config that cannot be read says why (`TsConfig.unreadable`, naming it
    as `shown` writes a path)."""
    if not (typescript / "lib" / "typescript.js").is_file():  # 7: a native binary, no API
        raise NoTypeScriptApi(str(typescript))
    script = resources.files("lspd.workspace").joinpath("tsconfig_files.js")
    with resources.as_file(script) as path:
        try:
            done = subprocess.run(
                [node_executable(), str(path), str(typescript)],
                input=json.dumps({"configs": [str(c) for c in configs]}),
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                cwd=typescript,
                env={**os.environ, "NODE_COMPILE_CACHE": str(cache_dir() / COMPILE_CACHE)},
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise InvalidInput(
                f"could not read tsconfig files with {typescript} ({exc}); check given paths "
                "(`lspd check PATH`) or every file (`--all`)"
            ) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise InvalidInput(
            f"could not read tsconfig files with {typescript}: node exited with "
            f"{done.returncode} ({last}); check given paths (`lspd check PATH`) or every file "
            "(`--all`)"
        )
    answer = json.loads(done.stdout)
    if "unsupported" in answer:
        raise NoTypeScriptApi(answer["unsupported"])
    return [_read(entry, shown) for entry in answer["configs"]]


def _read(entry: dict[str, Any], shown: Callable[[Path], str]) -> TsConfig:
    config = Path(str(entry["config"]))
    notes = []
    for error in entry.get("errors") or []:
        code, message = int(error["code"]), str(error["message"])
        where = error.get("where")
        if error.get("fatal") or code in UNREADABLE or 1000 <= code < 2000:
            at = f"{shown(Path(where[0]))}:{where[1]}:{where[2]}" if where else shown(config)
            unreadable = (
                f"{at}: TypeScript cannot read this tsconfig: TS{code} {message} Fix it (`tsc "
                f"-p {shown(config)}` says the same), or check given paths (`lspd check "
                "PATH`) or every file (`lspd check --all`)"
            )
            extended = tuple(_paths(entry.get("extended")))
            return TsConfig(config, (), (), extended, (), unreadable=unreadable)
        notes.append(f"TS{code}: {message}")
    return TsConfig(
        config,
        tuple(_paths(entry.get("files"))),
        tuple(_paths(entry.get("references"))),
        tuple(_paths(entry.get("extended"))),
        tuple(notes),
        tuple(_paths(entry.get("data"))),
        tuple(_paths(entry.get("declarations"))),
        bool(entry.get("skipLibCheck")),
    )


def _paths(value: object) -> list[Path]:
    return [Path(os.path.normpath(str(p))) for p in value] if isinstance(value, list) else []


@dataclass(frozen=True)
class Solution:
    """The files of solution-style layouts (a tsconfig.json that holds not the file, one it
    references does: Vite's `{"files": [], "references": [app, node]}`), as `tsc -b` builds
    them: the config TypeScript's server answers a file from (the first of the references,
    depth first, that holds it) and the other configs of the same build that hold it too
    (`tsc -b` checks the file in each of their programs)."""

    owners: dict[Path, Path]
    also: dict[Path, tuple[Path, ...]]
    files: dict[Path, tuple[Path, ...]]  # the files of each config `also` names
    # A program's files that the nearest tsconfig.json above them does not hold (none is:
    # `../../types/env/index.d.ts` of packages/app's typeRoots), by the config holding them
    held: dict[Path, Path] = field(default_factory=dict)
    # Files whose nearest tsconfig.json no `tsc -b` builds (src/tools/tsconfig.json, which no
    # solution references, under an app's src/**): TypeScript's server answers them from that
    # program, tsc -b from those of `owners` and `also` alone
    unbuilt: set[Path] = field(default_factory=set)
    # Files of `also` two tsconfig programs hold outside solution layouts (ts-pattern's src/
    # in tsconfig.json's and tests/tsconfig.json's): each its own gate, `tsc -p`, so an error
    # both say is said once (`solution_check.not_owned`)
    once: set[Path] = field(default_factory=set)


def solutions(tsconfigs: dict[Path, TsConfig], gated: set[Path]) -> Solution:
    """The owners and other holders of the files of `tsconfigs`' solution-style layouts
    whose solution is the gate's (`gated`: hono's root solution, an editor's, made its
    tsconfig.build.json the owner of src/, which `tsc -p tsconfig.spec.json` checks): a
    file counts where its nearest tsconfig.json above is the solution's and lists it not."""
    roots = {c for c in tsconfigs if c.name == "tsconfig.json"}
    named = {c for c in roots if tsconfigs[c].references and c in gated}
    builds = {r: _built(r, tsconfigs, set()) for r in sorted(named)}
    built = {c for order in builds.values() for c in order}
    owners: dict[Path, Path] = {}
    also: dict[Path, tuple[Path, ...]] = {}
    unbuilt: set[Path] = set()
    for root, whole in builds.items():
        order = whole[1:]
        own = set(tsconfigs[root].files)
        for path in dict.fromkeys(p for c in order for p in tsconfigs[c].files):
            nearest = _nearest(path, roots)
            # the solution's own, or a referenced project's below it (src/tsconfig.json), or
            # one whose nearest no build holds (src/tools/tsconfig.json under an app's src/**)
            apart = nearest is not None and nearest not in built
            if (
                path in own
                or path in owners
                or not (
                    nearest == root
                    or (nearest in order and _nearest(path, named) == root)
                    or (apart and root in _above(path, named))
                )
            ):
                continue
            if apart:
                unbuilt.add(path)
            holders = [c for c in order if path in tsconfigs[c].files]
            owners[path] = holders[0]
            if len(holders) > 1:
                also[path] = tuple(holders[1:])
    others = {c for configs in also.values() for c in configs} | {owners[p] for p in unbuilt}
    files = {c: tsconfigs[c].files for c in sorted(others)}
    return Solution(owners, also, files, unbuilt=unbuilt)


def _built(config: Path, tsconfigs: dict[Path, TsConfig], seen: set[Path]) -> list[Path]:
    """`config` and the configs it references, depth first, each once."""
    if config in seen or config not in tsconfigs:
        return []
    seen.add(config)
    found = [config]
    for reference in tsconfigs[config].references:
        found += _built(reference, tsconfigs, seen)
    return found


def _above(path: Path, roots: set[Path]) -> list[Path]:
    """The configs of `roots` in the folders above `path`."""
    return [d / "tsconfig.json" for d in path.parents if d / "tsconfig.json" in roots]


def _nearest(path: Path, roots: set[Path]) -> Path | None:
    for directory in path.parents:
        if (candidate := directory / "tsconfig.json") in roots:
            return candidate
    return None


def referencing(root: Path, ignore: Callable[[Path], bool], path: Path) -> tuple[Path, bool] | None:
    """The tsconfig.json that may make a layout holding `path`, and whether it is its
    nearest that the gate's scope reads (the walk's: not ignored), `references` named
    (else one ignored on the way, one above a nearest without references that references
    it, beside which another program may hold the file: src/tsconfig.json under Vite's
    root, the node program's TS2584; or one that cannot be read as JSON); None where none
    names references (TypeScript inherits none through `extends`)."""
    if not path.is_relative_to(root):
        return path, False
    nearest: Path | None = None
    for directory in path.parents:
        config = directory / CONFIG_NAMES[0]
        if config.exists():
            try:
                body = json.loads(plain_json(read_text(config) or "-"))
            except ValueError:
                return config, False
            if not isinstance(body, dict) or "references" in body:
                if nearest is None:
                    return config, isinstance(body, dict) and not ignore(config)
                if _reaches(config, nearest, set()):
                    return config, False
            elif nearest is None and not ignore(config):
                nearest = config
        if directory == root:
            return None
    return None


def _reaches(config: Path, target: Path, seen: set[Path]) -> bool:
    """Whether `config`'s references name `target`, directly or through others (one that
    cannot be read: may)."""
    if config in seen:
        return False
    seen.add(config)
    try:
        body = json.loads(plain_json(read_text(config) or "-"))
    except ValueError:
        return True
    references = body.get("references") if isinstance(body, dict) else None
    for reference in references if isinstance(references, list) else ():
        named = reference.get("path") if isinstance(reference, dict) else None
        if not isinstance(named, str):
            continue
        there = Path(os.path.normpath(config.parent / named))
        there = there if there.suffix == ".json" else there / CONFIG_NAMES[0]
        if there == target or (there.exists() and _reaches(there, target, seen)):
            return True
    return False


def built_above(root: Path, path: Path) -> list[Path] | None:
    """The configs the tsconfig.json files above `path` (to `root`) that name `references`
    build, depth first, each once: one of their programs may include `path` where its
    nearest tsconfig.json is in no build (src/tools/x.ts under an app's src/**, its
    src/tools/tsconfig.json referenced by none: `Solution.unbuilt`). None where one cannot
    be read as JSON (any may)."""
    found: list[Path] = []
    for directory in path.parents:
        config = directory / CONFIG_NAMES[0]
        if config.exists():
            named = _named(config)
            if named is None:
                return None
            if named:
                for built in _referenced(config, set()):
                    if built is None:
                        return None
                    if built not in found:
                        found.append(built)
        if directory == root:
            break
    return found


def _referenced(config: Path, seen: set[Path]) -> list[Path | None]:
    """The configs `config` references, directly or through others (None: one that
    cannot be read)."""
    if config in seen:
        return []
    seen.add(config)
    named = _named(config)
    if named is None:
        return [None]
    found: list[Path | None] = []
    for there in named:
        found.append(there)
        if there.exists():
            found += _referenced(there, seen)
    return found


def _named(config: Path) -> list[Path] | None:
    """The configs `config`'s `references` name (None: it cannot be read as JSON)."""
    try:
        body = json.loads(plain_json(read_text(config) or "-"))
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    references = body.get("references")
    found = []
    for reference in references if isinstance(references, list) else ():
        named = reference.get("path") if isinstance(reference, dict) else None
        if isinstance(named, str):
            there = Path(os.path.normpath(config.parent / named))
            found.append(there if there.suffix == ".json" else there / CONFIG_NAMES[0])
    return found
