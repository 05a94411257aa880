"""Whether a package's own type-check scripts are run by the repository, where its root
checks its own program: a script of a package below the root runs only where something
runs it there (`pnpm -r typecheck`, `pnpm -C docs typecheck`, `turbo run typecheck`,
`cd docs && npm run typecheck`).

unplugin's docs/package.json has `"typecheck": "vue-tsc --noEmit"`. Its CI runs the root's
`pnpm run typecheck` (`tsgo --noEmit`) and `pnpm -C docs run build`, never docs' own
check: lspd took docs/tsconfig.json as a gate program and said errors its gate never does.

Read: the root package.json's scripts and the files beside them that run commands (CI
workflows, a Makefile, commit hooks: `tsc_scripts.outside_texts`). A line counts where it
names one of the package's check scripts beside a word that runs scripts elsewhere. What
is not read here counts as running them: a task graph (turbo.json, nx.json: a task's
`dependsOn` may reach any script), a workflow's `working-directory`.
"""

from __future__ import annotations

import re
from pathlib import Path

from lspd.workspace.npm_installed import PACKAGE, json_object
from lspd.workspace.tsc_scripts import ANY_TSC

# Words that run a script in another package, or in several (pnpm's `-r`, `-C docs`,
# `--filter`; npm's `-w`, `--workspaces`, `--prefix`; yarn's `workspaces foreach`, `--cwd`;
# the monorepo runners; a shell's `cd`)
_ELSEWHERE = re.compile(
    r"(?<![\w.-])(?:-r|--recursive|--filter|-F|-C|--dir|-w|-ws|--workspaces?|--prefix|--cwd"
    r"|foreach|turbo|nx|lerna|wsrun|ultra|cd|pushd)(?=$|[\s=:'\"])"
)
_GRAPHS = ("turbo.json", "nx.json")
_WORKING_DIRECTORY = "working-directory"
_WORD = re.compile(r"[\w:.-]+")


def checks_run(package: Path, root: Path, texts: list[str]) -> bool:
    """Whether the type-check scripts of the package.json at `package` are run: it is the
    root's, it has none, or a line of the root's scripts or of `texts` names one beside a
    word running scripts elsewhere (`_ELSEWHERE`); a task graph at the root runs them."""
    names = check_scripts(package)
    if package.parent == root or not names or any((root / g).is_file() for g in _GRAPHS):
        return True
    if any(_WORKING_DIRECTORY in text for text in texts):
        return True
    read = [*texts, *_scripts(root / PACKAGE).values()]
    lines = [line for text in read for line in text.splitlines()]
    return any(
        _ELSEWHERE.search(line) and names.intersection(_WORD.findall(line)) for line in lines
    )


def check_scripts(package: Path) -> set[str]:
    """The names of the scripts of the package.json at `package` that run a TypeScript
    checker, or run such a script (`"test": "vitest && pnpm typecheck"`)."""
    scripts = _scripts(package)
    found = {name for name, script in scripts.items() if ANY_TSC.search(script)}
    while more := {
        name
        for name, script in scripts.items()
        if name not in found and found.intersection(_WORD.findall(script))
    }:
        found |= more
    return found


def _scripts(package: Path) -> dict[str, str]:
    scripts = json_object(package).get("scripts")
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}
