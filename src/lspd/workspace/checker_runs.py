"""Whether anything of a project runs a checker (mypy, pyright): of a project both mypy and
pyright configure, basedpyright judges no file where something runs mypy and nothing runs
pyright (`pyright_part`). werkzeug's `[tool.pyright]` (`include = ["src"]`, standard) is
its editors': its tox `typing` environment runs `mypy` alone, and its clean tree had 87
pyright errors beside mypy's 1.

Read, each for a command word of the checker (`pyright` or `basedpyright`; a path ending in
one too): the scripts mypy's targets are read from (`mypy_scripts.script_files`: a Makefile,
tox.ini, a noxfile, `scripts/*`, and the task runners of pyproject.toml, hatch.toml,
tox.toml and a justfile: flask's `[tool.tox]` `["pyright"]`), package.json's scripts, a
pre-commit hook of its id or entry (not one of the manual stage alone: `precommit_hooks`),
and the CI workflows (a step running it, or its action); the pre-commit configuration and
`.github/workflows` of the project and of the repository above it. A workflow too large to
read counts as a run.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator
from pathlib import Path

import yaml

from lspd.workspace.mypy_scripts import (
    CHECKS_NOTHING,
    RUNNERS,
    arguments,
    commanded,
    line_words,
    script_commands,
    script_files,
)
from lspd.workspace.npm_installed import PACKAGE
from lspd.workspace.precommit_hooks import CONFIG_NAME, config_hooks, stage_paths
from lspd.workspace.tsc_scripts import package_commands
from lspd.workspace.workflow_runs import WORKFLOWS, workflows

# A workflow's line naming one (`run: uv run pyright src`, `uses: jakebailey/pyright-action@v2`),
# not in a comment; `pyright:` is a key or a pragma.
_YAML = r"^[^#\n]*?(?<![\w.-])({})(-action|-python)?\b(?!:)"
# a workflow line's YAML before a command (`- run: `; none in a `run: |` block); a line of
# another key (`name: pyright`) holds none
# A workflow read whole (one pass of `_YAML`, milliseconds a MB); a generated one is large:
# opentelemetry-python's test.yml is 320 KB, and was taken as running ty (its gate pyright)
_MOST_WORKFLOW = 4_000_000
_STEP_KEY = re.compile(r"^\s*(?:-\s+)?(?:([\w-]+):\s*)?")
# The words before a command that run it (`uv run mypy`, `npx pyright`, `commands = mypy`)
_RUNNERS = {*RUNNERS, "npx", "pnpx", "bunx", "uvx", "pipx", "yarn", "pnpm", "bun", "npm"}
_NODE_SCRIPTS = (".js", ".cjs", ".mjs")
_PYRIGHTS = ("pyright", "basedpyright")
# tox.ini's settings whose words are not commands
_NOT_RUN = {"deps", "dependency_groups", "extras", "requires", "allowlist_externals"}


def runs(directory: Path, commands: tuple[str, ...]) -> bool:
    """Whether a script, a tox environment, a pre-commit hook or a CI workflow of the
    project at `directory` runs one of `commands` (`("pyright", "basedpyright")`)."""
    return bool(ran(directory, commands))


def ran(directory: Path, commands: tuple[str, ...]) -> set[str]:
    """Which of `commands` a script, a tox environment, a pre-commit hook or a CI workflow
    of the project at `directory` runs: each read once for all of them."""
    return {name for name, after in _runs(directory, commands) if _checks(name, after)}


def verified(directory: Path) -> set[str]:
    """The `pyright --verifytypes PACKAGE` runs of the project at `directory` (or
    basedpyright's), as written: the completeness of a package's public types, a step of
    the gate that lspd does not check (exceptiongroup's CI runs it beside pyright and mypy)."""
    found = set()
    for name, after in _runs(directory, _PYRIGHTS):
        own = arguments(after)
        if "--verifytypes" in own[:-1]:
            package = own[own.index("--verifytypes") + 1]
            found.add(f"{name} --verifytypes {package}")
    return found


def _runs(directory: Path, commands: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """Each run of one of `commands` by the project at `directory`: its name, the words
    after it (none for an action or a hook's id, or a workflow too large to read)."""
    found = [c for path in script_files(directory) for c in script_commands(path)]
    found += package_commands(directory / PACKAGE)  # `"typecheck": "pyright"`
    for words in found:
        yield from _ran(words, commands)
    folders = _repository_folders(directory)
    for folder in folders:
        yield from _hook_ran(folder / CONFIG_NAME, commands)
    line = re.compile(_YAML.format("|".join(map(re.escape, commands))), re.M)
    for path in (p for folder in folders for p in workflows(folder / WORKFLOWS)):
        yield from _yaml_ran(path, line, commands)


def _hook_ran(path: Path, commands: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """The runs of `commands` by the hooks of the pre-commit configuration at `path`
    (`precommit_hooks`: not one of the manual stage alone, pytest's pyright): by its id (a
    hook repository's own: mirrors-mypy's `mypy`) or its entry (a local hook's)."""
    try:
        hooks = config_hooks(path)[0] if path.is_file() else []
    except yaml.YAMLError:
        return
    for hook in hooks:
        entry = str(hook.get("entry") or "").split()
        yield from _ran(entry, commands)
        if not entry and str(hook.get("id")) in commands:
            yield str(hook.get("id")), []


def _ran(words: list[str], commands: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """The runs of `commands` in a command's `words`, each with the words after it: a word
    naming one (a path ending in it, `pyright@1.1.390`) first, or after a runner's (`uv
    run`, `npx`, `=` of tox.ini's `commands = mypy`), not a list of what to install (`deps =
    mypy`) or `.PHONY: pyright`."""
    if not words or words[0] in _NOT_RUN:
        return
    for index, word in enumerate(words):
        name = re.split(r"[@=<>]", word.rsplit("/", 1)[-1])[0]
        if name in commands and (commanded(words, index, _RUNNERS) or _node(words[:index])):
            yield name, words[index + 1 :]


def _checks(name: str, after: list[str]) -> bool:
    """Whether the checker `name` given the words `after` it checks types: not click's
    `pyright --verifytypes click` (the completeness of its public types, not its errors),
    `ty version`, a `--version`."""
    own = arguments(after)
    if CHECKS_NOTHING.intersection(own):
        return False
    subcommand = next((word for word in own if not word.startswith("-")), None)
    return name != "ty" or subcommand in (None, "check")


def _node(before: list[str]) -> bool:
    """Whether the words `before` a command's name are a Node script's that runs tools by
    name (openai-python's scripts/run-pyright: `exec node scripts/utils/node-tooling.cjs
    pyright -p "$CONFIG"`)."""
    return len(before) >= 2 and before[-2] == "node" and before[-1].endswith(_NODE_SCRIPTS)


def run_paths(directory: Path) -> list[Path]:
    """The paths beyond the scripts (`mypy_scripts.script_paths`) whose change can change
    `runs`: package.json, the pre-commit configuration, the workflows' folders and files."""
    found = [directory / PACKAGE]
    for folder in _repository_folders(directory):
        found += [folder / CONFIG_NAME, *stage_paths(folder)]
    return list(dict.fromkeys(found))


def _repository_folders(directory: Path) -> list[Path]:
    """The project's folder and each above it up to its repository's root (a folder holding
    `.git`); the project's alone where none above it is one."""
    found = []
    for folder in (directory, *directory.parents):
        found.append(folder)
        if (folder / ".git").exists():
            return found
    return [directory]


def _yaml_ran(
    path: Path, line: re.Pattern[str], commands: tuple[str, ...]
) -> Iterator[tuple[str, list[str]]]:
    """The runs of `commands` by the workflow at `path`: its actions, and the commands of
    its `run` lines naming one (`line`), not `pip install ty`; each where it is too large
    to read."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # a FIFO would block the daemon
            return
        if status.st_size > _MOST_WORKFLOW:  # not read: taken as running each
            yield from ((command, []) for command in commands)
            return
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    for found in line.finditer(text):
        if found[2]:  # its action (`uses: jakebailey/pyright-action@v2`)
            yield found[1], []
            continue
        end = text.find("\n", found.end())  # its line alone, not a copy of all the rest
        step = text[text.rfind("\n", 0, found.start()) + 1 : end if end >= 0 else None]
        key = _STEP_KEY.match(step)
        if key and key[1] in (None, "run"):
            yield from _ran(line_words(step[key.end() :], {}), (found[1],))
