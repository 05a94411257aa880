"""The tsconfigs a project's package.json scripts type-check that lspd's walk does not find
by name: neverthrow's `"test-types": "tsc --noEmit -p ./tests/tsconfig.tests.json"` checks
its tests beside `"typecheck": "tsc --noEmit"`; named neither tsconfig.json nor
jsconfig.json, that configuration was no project of the gate, and its 7 files were left out.

Only a type-check is read: a `tsc` command with `-p`/`--project` naming a file of the
project that emits nothing (`--noEmit`, or `noEmit` in that configuration) or whose output
its script removes (a build's `tsc -p tsconfig.build.json` emits, and checking its program
too would check the same files twice). A folder named is its tsconfig.json, which the walk
finds already.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

from lspd.workspace.files import read_text
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.npm_installed import json_object
from lspd.workspace.tsc_in_files import script_files, tsc_commands
from lspd.workspace.tsconfig_extends import config_body, extended

_PROJECT = ("-p", "--project")
_SPLIT = ("&&", "||", ";", "|", "&")
_RUNS = {"npx", "pnpm", "yarn", "bunx", "exec", "run", "pnpx", "bun"}  # words before a tool


def scripted_configs(packages: list[Path], root: Path) -> tuple[list[Path], list[Path]]:
    """The configuration files under `root` the scripts of the package.json files at
    `packages` type-check with `tsc --noEmit -p FILE`, and those named not there yet (to
    watch: one written later is a project then)."""
    found: list[Path] = []
    missing: list[Path] = []
    for package in packages:
        configs = _checked_by(package)
        if configs and not checks_own(package):  # its tsconfig.json an editor's: its builds too
            configs = _checked_by(package, builds=True)
        configs += [c for words in package_commands(package) for c in built(words, package.parent)]
        for config in configs:
            if root not in config.parents:
                continue
            into = found if config.is_file() else missing
            into += [] if config in into else [config]
    return found, missing


def checks_other(package: Path) -> bool:
    """Whether a script of the package.json at `package` type-checks a configuration other
    than its folder's tsconfig.json (`tsc --noEmit -p tsconfig.test.json`)."""
    own = package.parent / "tsconfig.json"
    return any(config != own for config in _checked_by(package))


def _checked_by(package: Path, builds: bool = False) -> list[Path]:
    """The configuration files the scripts of the package.json at `package` type-check with
    `tsc -p FILE` (`_checked`), and with `builds` those they emit with it too (where no
    script checks the package's own tsconfig.json, a build's errors are the gate's to say
    as no other program's)."""
    found = []
    for script in _scripts(package):
        # `cd test && tsc --noEmit -p tsconfig.types.json`: test's
        for i, (words, here) in enumerate(_located(script, package.parent)):
            config = _checked(words, here, script[i + 1 :], builds)
            found += [] if config is None else [config]
    return found


def _located(script: list[list[str]], folder: Path) -> Iterator[tuple[list[str], Path]]:
    """Each command of a script run in `folder`, with the folder it runs in: `cd FOLDER`
    moves the commands after it."""
    here = folder
    for words in script:
        if len(words) == 2 and words[0] == "cd":
            here = (here / words[1]).resolve()
        yield words, here


_BUILD = ("-b", "--build")


def built(words: list[str], folder: Path) -> list[Path]:
    """The configuration files a `tsc -b FILE...` command builds (checking them and the
    projects they reference), from `folder`: wretch's `"test:types": "tsc -b
    tsconfig.type-tests.json"` beside its build's `tsc` was no project of the gate, and the
    test projects it references none either (a test's TS2322 its gate says, unsaid). A
    folder named is its tsconfig.json; none named, the folder's (`checks_own` reads it)."""
    if (at := tool_at(words)) is None:
        return []
    arguments = words[at + 1 :]
    if not any(w.lower() in _BUILD for w in arguments):
        return []
    paths = [w for w in arguments if not w.startswith("-")]
    named = [(folder / w).resolve() for w in paths if w.endswith(".json") or (folder / w).is_dir()]
    return [path / "tsconfig.json" if path.is_dir() else path for path in named]


def package_commands(package: Path) -> list[list[str]]:
    """Each command's words of the package.json at `package`'s scripts (`a && b`: two)."""
    return [command for script in _scripts(package) for command in script]


def _scripts(package: Path) -> list[list[list[str]]]:
    """Each script of the package.json at `package` as its commands' words, in order, then
    the tsc commands of the script files they run (`tsc_in_files`), each a script; read
    again only when one changed (a scope's build asks of each package several times)."""
    return _SCRIPTS.get(package, (package,), lambda: _read_scripts(package))[0]


def script_sources(package: Path) -> list[Path]:
    """The script files holding tsc commands the scripts of the package.json at `package` run."""
    return list(_SCRIPTS.get(package, (package,), lambda: _read_scripts(package))[1])


def _read_scripts(package: Path) -> tuple[_Read, tuple[Path, ...]]:
    scripts = json_object(package).get("scripts")
    found = [_commands(str(s)) for s in (scripts.values() if isinstance(scripts, dict) else ())]
    files = tuple(script_files([c for script in found for c in script], package.parent))
    held = {path: commands for path in files if (commands := tsc_commands(path))}
    return (found + [[c] for cs in held.values() for c in cs], tuple(held)), files


# a package's scripts, and the script files they run holding tsc commands
_Read = tuple[list[list[list[str]]], tuple[Path, ...]]
_SCRIPTS: Memo[_Read] = Memo()


def _commands(script: str) -> list[list[str]]:
    """A shell line's commands' words (`a && b`, `a & b`, `a;b`: two); none unreadable."""
    try:
        words = list(shlex.shlex(script, posix=True, punctuation_chars=True))
    except ValueError:
        return []
    commands: list[list[str]] = []
    command: list[str] = []
    for word in [*words, ";"]:
        if word in _SPLIT:
            commands.append(command)
            command = []
        else:
            command.append(word)
    return commands


def _checked(
    words: list[str], folder: Path, after: list[list[str]], builds: bool = False
) -> Path | None:
    """The configuration file a `tsc -p FILE` command run in `folder` names, where it only
    checks (or `builds`): `--noEmit`, the configuration's `noEmit`, or its `--outDir` removed
    by a command `after` it in its script (tsc's options are read whatever their case)."""
    if (at := tool_at(words)) is None:
        return None
    arguments = words[at + 1 :]
    options = [w.lower() for w in arguments]
    named = [arguments[i + 1] for i, option in enumerate(options[:-1]) if option in _PROJECT]
    if not named or (config := (folder / named[0]).resolve()).is_dir():
        return None
    checks = "--noemit" in options or _removed(arguments, folder, after)
    return config if builds or checks or _emits_nothing(config) else None


# Commands that delete the paths they are given (`rimraf`, `rm -rf`, `shx rm -rf`, `del`)
_REMOVERS = ("rimraf", "rm", "del", "del-cli", "premove")


def _removed(arguments: list[str], folder: Path, after: list[list[str]]) -> bool:
    """Whether the folder a tsc command emits into (`--outDir D`) is removed by a command
    `after` it: ts-essentials' test `tsc --project tsconfig.test.json --outDir ./testDist &&
    rimraf ./testDist` is its gate (13 errors of the tsconfig.json no script runs were said
    where it says none)."""
    options = [w.lower() for w in arguments[:-1]]
    if "--outdir" not in options:
        return False
    out = (folder / arguments[options.index("--outdir") + 1]).resolve()
    for words in after:
        if (at := tool_at(words, _REMOVERS)) is None:
            continue
        if out in {(folder / w).resolve() for w in words[at + 1 :] if not w.startswith("-")}:
            return True
    return False


def _emits_nothing(config: Path) -> bool:
    """Whether `config`'s compilerOptions say `noEmit` (its own, else those of what it
    extends, nearest first): its `tsc -p` only checks."""
    for path in [config, *extended(config, read_text)]:
        options = config_body(read_text(path)).get("compilerOptions")
        if isinstance(options, dict) and "noEmit" in options:
            return options["noEmit"] is True
    return False


def named_configs(packages: list[Path]) -> set[Path]:
    """The configurations the scripts of the package.json files at `packages` give tsc with
    `-p`, a folder's tsconfig.json too, emitting or not (kysely's `tsc -p test/node`), or
    build (`tsc -b FILE`)."""
    return {
        config
        for package in packages
        for script in _scripts(package)
        for config in named_in(script, package.parent)
    }


def named_in(script: list[list[str]], folder: Path) -> set[Path]:
    """The configurations one script's commands (run in `folder`) give tsc: `-p`, `-b`, and
    a folder's tsconfig.json after `cd FOLDER`."""
    named: set[Path] = set()
    for words, here in _located(script, folder):  # `cd __tests__ && tsc`: its tsconfig.json
        if (at := tool_at(words)) is None:
            continue
        arguments = words[at + 1 :]
        for i, option in enumerate(w.lower() for w in arguments[:-1]):
            if option in _PROJECT:
                path = (here / arguments[i + 1]).resolve()
                named.add(path / "tsconfig.json" if path.is_dir() else path)
        named.update(built(words, here))
        if here != folder:
            named.add(here / "tsconfig.json")
    return named


def named_outside(root: Path, texts: list[str]) -> set[Path]:
    """The configurations tsc is given outside the package.json scripts (`texts`:
    `outside_texts`: a workflow's `npx tsc -p test --noEmit`, a Makefile's, a commit
    hook's), each line a command run at `root` (a workflow's `working-directory` is not
    read)."""
    named: set[Path] = set()
    for line in (line for text in texts for line in text.splitlines()):
        if ANY_TSC.search(line):
            named |= named_in(_commands(line.split("run:", 1)[-1]), root)
    return named


# Node's heap limit as a command gives it, to `node` or in NODE_OPTIONS (MB)
_HEAP = re.compile(r"--max[-_]old[-_]space[-_]size(?:=(\d+)|$)")


def tsc_heap(packages: list[Path]) -> int | None:
    """The largest heap (MB) the scripts of the package.json files at `packages` give the
    Node running their tsc (`node --max-old-space-size=6144 ./node_modules/.bin/tsc`,
    `NODE_OPTIONS=--max-old-space-size=8192 tsc`): type-fest's program needs 5.7 GB, and
    lspd's builder on Node's default (~4 GB) died where its gate passes. None: none given."""
    found: list[int] = []
    for package in packages:
        for words in package_commands(package):
            if (at := tool_at(words)) is None:
                continue
            before = words[:at]
            for i, word in enumerate(before):
                if (match := _HEAP.search(word)) is None:
                    continue
                value = match.group(1)
                if value is None and i + 1 < len(before) and before[i + 1].isdigit():
                    value = before[i + 1]
                if value is not None:
                    found.append(int(value))
    return max(found, default=None)


# Any TypeScript checker's command in a file's text: a wrapper's (vue-tsc) too
ANY_TSC = re.compile(r"(?<![\w.-])(?:vue-tsc|tsc|tsgo)(?![\w.-])")


# Where a repository runs commands beside its package.json scripts: its CI, its Makefile,
# its commit hooks
_OUTSIDE = (
    ".github/workflows/*.yml",
    ".github/workflows/*.yaml",
    "Makefile",
    ".husky/*",
    "lefthook.yml",
    ".lefthook.yml",
    ".pre-commit-config.yaml",
)


# a workflow step's label (`- name: "Latest version of tsgo"`) or a key alone (a job's
# `tsgo:`, a Makefile's target), no command
_LABEL = re.compile(r"^\s*(?:-\s+)?(?:name:\s|[\w.-]+:\s*$)")


def checks_outside(root: Path, texts: list[str]) -> bool:
    """Whether the repository at `root` runs a TypeScript checker (tsc, tsgo, vue-tsc)
    outside its package.json scripts, which lspd reads, on configurations it does not name
    (`texts`: `outside_texts`): a CI workflow's `npx tsc`, a Makefile's, a commit hook's
    (husky, lefthook, pre-commit), or package.json's lint-staged; a line naming one that is
    no command it reads counts too. What it checks is then not known here. A command naming
    its configurations (true-myth's workflow `tsc --noEmit --project ts/test.tsconfig.json`)
    is known: `named_outside` has them."""
    lint_staged = json.dumps(json_object(root / "package.json").get("lint-staged") or "")
    if ANY_TSC.search(lint_staged):
        return True
    lines = (line for text in texts for line in text.splitlines() if ANY_TSC.search(line))
    return any(not _names_configs(line, root) for line in lines if not _LABEL.match(line))


def _names_configs(line: str, root: Path) -> bool:
    """Whether `line` runs tsc, and every tsc command of it names what it checks (`-p`, `-b`
    a file or folder, after `cd FOLDER`), each there: a workflow's `working-directory` is
    not read (`tsc -p a` of a folder elsewhere is not known)."""
    located = _located(_commands(line.split("run:", 1)[-1]), root)
    runs = [(words, here) for words, here in located if tool_at(words) is not None]
    named = [named_in([w], h) or ({h / "tsconfig.json"} if h != root else set()) for w, h in runs]
    return bool(runs) and all(found and all(p.is_file() for p in found) for found in named)


def outside_texts(root: Path) -> list[str]:
    """The texts of `_OUTSIDE`'s files at `root` (one unreadable: none)."""
    texts = []
    for place in (path for pattern in _OUTSIDE for path in root.glob(pattern)):
        try:
            texts.append(place.read_text(errors="replace"))
        except OSError:
            continue
    return texts


def scripts_name_checker(package: Path) -> bool:
    """Whether a script of the package.json at `package` names a TypeScript checker
    anywhere (`vue-tsc --noEmit`, `npm run typecheck -ws && tsc`)."""
    scripts = json_object(package).get("scripts")
    texts = [str(v) for v in scripts.values()] if isinstance(scripts, dict) else []
    return any(ANY_TSC.search(text) for text in texts)


def runs_tsc(package: Path) -> bool:
    """Whether a script of the package.json at `package` runs tsc (tsgo, vue-tsc: a
    package's `"type-check": "vue-tsc --noEmit"` checks its tsconfig.json)."""
    return any(tool_at(words, CHECKERS) is not None for words in package_commands(package))


def checks_own(package: Path) -> bool:
    """Whether a script of the package.json at `package` type-checks its folder's
    tsconfig.json: `tsc`, `vue-tsc --noEmit`, `tsc -p .`, a build of it, `tsc -b` (pinia's
    `tsc --build ./tsconfig.json`: five tsconfigs below it that no script runs said 281
    errors where its gate says none)."""
    own = package.parent / "tsconfig.json"
    for words in package_commands(package):
        if (at := tool_at(words, CHECKERS)) is None:  # (unimport's root: vue-tsc)
            continue
        options = [w.lower() for w in words[at + 1 :]]
        if "-b" in options or "--build" in options:
            paths = [w for w in words[at + 1 :] if not w.startswith("-")]
            if not paths or own.resolve() in built(words, package.parent):
                return True
            continue
        named = [words[at + 1 + i + 1] for i, o in enumerate(options[:-1]) if o in _PROJECT]
        if not named or (package.parent / named[-1]).resolve() in (own, own.parent):
            return True
    return False


# TypeScript's command line: `tsc`, and TypeScript 7's preview's `tsgo` (its options are
# tsc's; rolldown-plugin-dts's `"typecheck": "tsgo --noEmit"` was no check of its root
# tsconfig, and 12 errors of test fixtures it excludes were said where its gate says none)
TSC = ("tsc", "tsgo")
CHECKERS = (*TSC, "vue-tsc")  # and a wrapper checking as tsc does (.vue files too)


# Commands whose words are the names of package.json scripts to run, not commands
# (preact's `"lint": "run-s oxlint tsc"` runs its script `tsc`, `tsc -p jsconfig-lint.json`)
_SCRIPT_RUNNERS = (("run-s",), ("run-p",), ("npm-run-all",), ("npm", "run"), ("npm", "run-script"))


def tool_at(words: list[str], tool: str | tuple[str, ...] = TSC) -> int | None:
    """Where `tool` (one of them; a path ending in it too) is in a command's words (None:
    not there, or a script's name: `npm run tsc`)."""
    tools = (tool,) if isinstance(tool, str) else tool
    if any(tuple(words[: len(r)]) == r for r in _SCRIPT_RUNNERS):
        return None
    return next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] in tools), None)


# tsd's test files (`index.test-d.ts`, `test-d/**/*.test-d.ts`): tsd checks them, not tsc
TSD_TESTS = (".test-d.ts", ".test-d.tsx", ".test-d.mts", ".test-d.cts")


def tsd_folders(packages: list[Path]) -> set[Path]:
    """The folders of the test files the scripts of the package.json files at `packages`
    run tsd on (`tsd`, `tsd test/typings`: its project, then its package.json's
    `tsd.directory`, else `test-d`), and each tsd project's own folder (its
    `index.test-d.ts`). Their `expectError(...)` calls hold errors on purpose: kysely's
    test/typings said 334 errors where `tsd test/typings` passes. lspd runs no tsd: an
    error of such a file outside `expectError` is left unsaid, as the file is."""
    found: set[Path] = set()
    for package in packages:
        for words in package_commands(package):
            at = tool_at(words, "tsd")
            if at is None or (at > 0 and words[at - 1] not in _RUNS):
                continue
            named = [w for w in words[at + 1 :] if not w.startswith("-")]
            project = (package.parent / named[0]) if named else package.parent
            options = json_object(project / "package.json").get("tsd")
            folder = options.get("directory") if isinstance(options, dict) else None
            found |= {project, project / (folder if isinstance(folder, str) else "test-d")}
    return found
