"""Which of a workspace's tsconfigs are the gate's programs, and which are an editor's: a
configuration no script, workflow or hook runs tsc on, whose files the gate checks (if at
all) in another program. Read from the package.json scripts and the files beside them that
run commands (`tsc_scripts`), never from the configurations' contents alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from lspd.workspace.member_checks import checks_run
from lspd.workspace.npm_installed import PACKAGE, member, package_of
from lspd.workspace.tsc_scripts import (
    checks_other,
    checks_outside,
    checks_own,
    named_configs,
    named_outside,
    outside_texts,
    runs_tsc,
    scripts_name_checker,
)
from lspd.workspace.tsconfig_scope import CONFIG_NAMES, TsConfig


def gate_configs(
    root: Path, tsconfigs: dict[Path, TsConfig], found: list[Path], scripted: list[Path]
) -> dict[Path, TsConfig]:
    """The configurations a file's program is chosen among: where a package's scripts check
    its tsconfig.json (xstate's root `"typecheck": "tsc"`; mobx's packages/mobx `"test:types":
    "tsc --noEmit"`, whose __tests__/tsconfig.json said 147 TS2304 of `__DEV__` its gate
    never does, its src/global.d.ts left out), a tsconfig.json below that (or the root's,
    where the packages checking theirs are its workspace's and no root script names a
    TypeScript checker: mobx's root program; neither where a workflow, Makefile or commit
    hook names one, unless the root checks its own) no
    script runs (none of its package's runs tsc, none names it: `-p`) and no other
    configuration of the gate references is its editors', and so are the configurations
    only editors' reference (rolldown-plugin-dts's test fixtures' solutions: 3 errors of
    their tsconfig.react.json its `tsgo --noEmit` never reads): their files are the root
    program's, as the gate checks them (xstate's package tsconfig left out the root's vue
    shim: a TS2307 its gate never says), and those the root program does not hold no gate
    checks (kysely's scripts/ and test/ts-benchmarks: 5 TS6059 of their rootDir, said by no
    tsc the project runs). A package checking other configurations and never its tsconfig.json
    makes that an editor's too, and those below of no package of their own (`elsewhere`).
    Where the root checks its own, a package's script checks count only where the
    repository runs them there (`member_checks`: unplugin's docs/ `vue-tsc --noEmit`)."""
    texts = outside_texts(root)
    outside = checks_outside(root, texts)
    checking, run = _checking(root, tsconfigs, texts, outside)
    root_checks = root in checking  # (its tsconfig.json's folder)
    # every package.json from a configuration up: pinia's packages/pinia runs `tsc -p
    # ./test-dts/tsconfig.json` and holds no tsconfig.json of its own
    above = {d for c in found for d in (c.parent, *c.parent.parents) if root in (d, *d.parents)}
    named = named_configs([root / PACKAGE, *sorted(d / PACKAGE for d in above)])
    named |= named_outside(root, texts)  # a workflow's `npx tsc -p test`
    elsewhere = set() if outside else {c for c in tsconfigs if _checked_elsewhere(c, named, root)}
    if not elsewhere and (not checking or (not root_checks and outside)):
        return tsconfigs  # a workflow's, a hook's tsc may check any of them

    # a workspace's root whose packages check theirs, and nothing else its own (a root
    # `vue-tsc --noEmit`)
    members = (
        not root_checks
        and any(member(f, root) for f in checking)
        and not scripts_name_checker(root / PACKAGE)
    )

    def editors(config: Path) -> bool:
        return (
            config.parent not in checking
            and (any(f in checking for f in config.parents) or (config.parent == root and members))
            and config.name == "tsconfig.json"
            and config not in scripted
            and config not in named
            and not (runs_tsc(config.parent / PACKAGE) and run(config.parent / PACKAGE))
        )

    gated = {c for c in found if c in tsconfigs and c not in elsewhere and not editors(c)}
    ahead = list(gated)
    while ahead:  # what the gate's configurations reference, transitively
        for reference in tsconfigs[ahead.pop()].references:
            if reference in tsconfigs and reference not in gated:
                gated.add(reference)
                ahead.append(reference)
    return {c: t for c, t in tsconfigs.items() if c in gated}


def _checking(
    root: Path, tsconfigs: dict[Path, TsConfig], texts: list[str], outside: bool
) -> tuple[set[Path], Callable[[Path], bool]]:
    """The folders of the tsconfig.json files their package's scripts check, where those
    scripts are run; and whether a package's own check scripts are: where the root checks
    its own, and no line outside the scripts runs tsc on what it does not name, only those
    something runs there (`member_checks`)."""
    root_checks = checks_own(root / PACKAGE) and (root / "tsconfig.json") in tsconfigs

    @functools.cache  # (asked of a package twice: its folder's checks, then its editors')
    def run(package: Path) -> bool:
        return not root_checks or outside or checks_run(package, root, texts)

    folders = (c.parent for c in tsconfigs if c.name == "tsconfig.json")
    return {f for f in folders if checks_own(f / PACKAGE) and run(f / PACKAGE)}, run


def _checked_elsewhere(config: Path, named: set[Path], root: Path) -> bool:
    """Whether `config` is a tsconfig.json (or jsconfig.json) whose package (the nearest
    package.json from its folder up) has scripts type-checking other configurations of
    theirs and never it (ts-essentials' `tsc --project tsconfig.test.json --outDir
    ./testDist && rimraf ./testDist`: its tsconfig.json's lib said 13 errors where its gate
    says none; preact's `tsc -p jsconfig-lint.json`, whose jsconfig.json's checkJs said
    1049; true-myth's `tsc -p ts/test.tsconfig.json`, whose test/fixtures/tsconfig.json, a
    lint test's, said a TS5101 and stopped), and nothing else names it."""
    folder = package_of(config.parent, root)
    package = None if folder is None else folder / PACKAGE
    return (
        package is not None
        and config.name in CONFIG_NAMES
        and config not in named
        and not checks_own(package)
        and checks_other(package)
    )


def editors_note(alone: int, unreadable: str | None = None) -> str:
    """The note of an editor's tsconfig (`gate_configs`), `alone` of its files in no gate
    program; one TypeScript cannot read says why (`unreadable`)."""
    editors = "not checked: nothing the repository runs checks it (an editor's tsconfig)"
    if unreadable is not None:
        return f"{editors}; {unreadable}"
    if not alone:
        return "nothing the repository runs checks it: its files are a gate program's"
    return f"{editors}, and no program of the gate holds {alone} of its file(s)"
