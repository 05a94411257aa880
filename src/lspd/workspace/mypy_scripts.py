"""The paths a project's own lint script runs mypy on, where its mypy configuration names no
`files` and no pre-commit hook chooses (`mypy_precommit`): many projects gate on a script
(`scripts/lint.sh`: fastapi's `mypy fastapi`, where `mypy .` stops at "Duplicate module
named" in `docs_src/`), a Makefile recipe or a tox command. Read: `scripts/*` (no suffix
or `.sh`), `Makefile`, `tox.ini`, `noxfile.py` (`mypy_nox`), the task runners of
pyproject.toml, hatch.toml, tox.toml and a justfile (`task_runners`), each line a command,
a variable set by a plain assignment in the file replaced by its value; the arguments
after `mypy` (or `stubtest`: `mypy_stubtest`) up to the command's end that name a file or
folder of the project are its targets, and its options that change what mypy reports
(`--strict`, `--python-version 3.9`, `--exclude`: `checking_options`) are given mypy. The
first file naming any is taken, each command of it one run per set of options
(`script_runs`; structlog's tox `mypy tests/typing`, `mypy src`: one run; a tox command's
factor condition and `{posargs:DEFAULT}` read as tox reads them). A module `-p`/`-m`
names is its folder, stub or file (at the top, under src/ or lib/). Not read:
`--config-file` (a script naming another file than mypy finds by itself chooses no mypy:
`mypy_unconfigured`), `--follow-imports` (dmypy's own rule).
"""

from __future__ import annotations

import os
import re
import shlex
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from lspd.workspace.command_options import option_values, spelled
from lspd.workspace.mypy_config_read import other_config
from lspd.workspace.mypy_nox import NOXFILE, nox_commands
from lspd.workspace.mypy_stubtest import STUBTEST, as_mypy
from lspd.workspace.script_blocks import Blocks
from lspd.workspace.task_runners import (
    HATCH,
    JUSTFILES,
    PYPROJECT,
    TOX_TOML,
    just_text,
    toml_commands,
)
from lspd.workspace.workflow_runs import WORKFLOWS, run_texts, workflows

SCRIPTS = ("scripts", "script", "tools")  # folders of a project's own scripts
MAKEFILES = ("Makefile", "makefile", "GNUmakefile")  # each GNU make reads (aiosqlite's)
FILES = (*MAKEFILES, "tox.ini", TOX_TOML, NOXFILE, PYPROJECT, HATCH, *JUSTFILES)
MOST_BYTES = 64_000  # a script this large is no lint script
_ASSIGNED = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_ENV = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)  # a variable set for a command alone
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# a Makefile's variable, set (`run := poetry run`, `SOURCES = app tests`) and used (`$(run)`)
_MAKE_ASSIGNED = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::{1,3}=|\?=|=)\s*(.*)$")
_MAKE_VARIABLE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
# a tox command's factor condition (`mypy:`, `py312,py313:`, `!windows:`) and substitution
_TOX_FACTORS = re.compile(r"^(\s*(?:commands\s*=\s*)?)!?[\w.{}-]+(?:,!?[\w.{}-]+)*:\s+")
_TOX_SUBSTITUTION = re.compile(r"\{(posargs|toxinidir|tox_root)(?::([^}]*))?\}")
_TOX_VALUES = {"toxinidir": ".", "tox_root": "."}
_TOX_KEY = re.compile(r"^([A-Za-z_][\w.-]*)\s*=")  # a setting's first line (not indented)
_TOX_COMMANDS = {"commands", "commands_pre", "commands_post"}
_END = {";", "&&", "||", "|", "&", ">", "2>", ">>"}
# the words a command running mypy may have before it: a command's start, a runner's
RUNNERS = {*_END, "-m", "run", "exec", "=", "then", "do", "time", "--", "env", "!", "if"}
RUNNERS |= {"elif", "while", "until", "uvx"}  # outcome's `if ! mypy src/ ; then`; `uvx mypy`
# mypy's options that take a value as the next argument (their value is no target)
_VALUED = {"--config-file", "--cache-dir", "--python-version", "--platform", "--exclude"}
_NAMES_MODULE = {"-m", "--module", "-p", "--package"}
# a command's options that make it check other than what the configuration names, or nothing
# a checker's options that check no file's errors (`pyright --verifytypes pkg`: its API's types)
CHECKS_NOTHING = {"--version", "-V", "--help", "-h", "--verifytypes"}
_NO_TARGET = {*_NAMES_MODULE, "-c", "--command", *CHECKS_NOTHING}
# mypy's reports: each writes into the folder (or file) it is given, and changes no error
REPORTS = frozenset(
    {"--junit-xml", "--html-report", "--txt-report", "--xml-report", "--cobertura-xml-report"}
    | {"--linecount-report", "--linecoverage-report", "--lineprecision-report"}
    | {"--any-exprs-report", "--xslt-html-report", "--xslt-txt-report"}
)
_VALUED |= {*_NAMES_MODULE, *REPORTS, "-c"}
# mypy's options that change what it reports, given it as a script gives them (the others
# shape its output or cache, or choose what lspd reads itself: configuration, targets)
# (`--exclude`: which files of a folder mypy walks, `mypy_walk`)
_CHECKING_VALUED = {"--python-version", "--platform", "--always-true", "--always-false"}
_CHECKING_VALUED |= {"--exclude", "--enable-error-code", "--disable-error-code"}
_CHECKING_VALUED |= {"--enable-incomplete-feature"}
_VALUED |= _CHECKING_VALUED
_CHECKING = re.compile(
    r"--(?:no-)?(?:strict(?:-[a-z-]+)?|warn-[a-z-]+|disallow-[a-z-]+|allow-[a-z-]+"
    r"|check-untyped-defs|ignore-missing-imports|explicit-package-bases|namespace-packages"
    r"|local-partial-types|implicit-optional|implicit-reexport|extra-checks"
    r"|(?:silence-)?site-packages|follow-untyped-imports)"
)


class ScriptMypy(NamedTuple):
    """A lint script's mypy command on paths of the project."""

    named: str  # the file saying it, relative to the project
    paths: tuple[str, ...]  # the paths it names, relative to the project
    options: tuple[str, ...]  # its options changing what mypy reports, as given
    config: str | None = None  # another configuration its `--config-file` names, as given


def script_targets(directory: Path, tools: tuple[str, ...] = ("mypy",)) -> ScriptMypy | None:
    """The first run (`script_runs`) of a script running mypy, or another of `tools`."""
    return next(iter(script_runs(directory, tools)), None)


def script_runs(directory: Path, tools: tuple[str, ...] = ("mypy",)) -> list[ScriptMypy]:
    """The runs of the first of the project's scripts running mypy on paths of it, one per
    set of options changing what it reports (returns' workflow: `mypy
    --enable-error-code=unused-awaitable returns`, then `mypy docs tests`), the first
    command's first; none where no script does."""
    for path in script_files(directory):
        if found := _commands(directory, script_commands(path), tools):
            return [ScriptMypy(path.relative_to(directory).as_posix(), *run) for run in found]
    return []


def script_configured(directory: Path) -> ScriptMypy | None:
    """The first command of the project's scripts running mypy on no target (on what its
    configuration's `files` name), with its options changing what mypy reports (`make
    types: mypy --python-version 3.11`); None where none does."""
    return next(iter(configured_runs(directory)), None)


def configured_runs(directory: Path) -> list[ScriptMypy]:
    """The commands of the first of the project's scripts running mypy on no target, one per
    set of options (trio's tox.ini: `mypy --platform linux`, `darwin`, `win32`), the first
    first, each of the first's block (`script_blocks`) naming the configuration it names."""
    for path in script_files(directory):
        found: dict[tuple[str, ...], ScriptMypy] = {}
        blocks, first_block = Blocks(), None  # another option set's: the first's block's
        for words in script_commands(path):
            block = blocks.of(words)
            for index, word in enumerate(words):
                if not commanded(words, index, RUNNERS) or word.rsplit("/", 1)[-1] != "mypy":
                    continue
                after = spelled(words[index + 1 :])
                if not _untargeted(after):
                    continue
                named = path.relative_to(directory).as_posix()
                run = ScriptMypy(named, (), checking_options(after), _config_file(directory, after))
                first = next(iter(found.values()), run)
                first_block = block if first_block is None else first_block
                if run.config == first.config and (run.options in found or block == first_block):
                    found.setdefault(run.options, run)  # (another configuration: not read)
        if found:
            return list(found.values())
    return []


def _untargeted(words: list[str]) -> bool:
    """Whether a mypy command's arguments (`words`) check what the configuration names: no
    target, no module, nor an option that checks nothing (`--version`)."""
    given = arguments(words)
    at = 0
    while at < len(given):
        word = given[at]
        if word in _NO_TARGET or not word.startswith("-"):
            return False
        at += 2 if word in _VALUED else 1  # a value is no target
    return True


def script_commands(path: Path) -> Iterable[list[str]]:
    """The words of each command of the script at `path` (`script_files`: a noxfile's
    `session.run` calls, a line elsewhere); none where it cannot be read or is too large."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MOST_BYTES:
            return ()  # a FIFO would block the daemon
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    if path.name == NOXFILE:
        return nox_commands(text)
    if path.parent.as_posix().endswith(WORKFLOWS.as_posix()):  # each step's `run`
        return [w for run in run_texts(text) for w in _lines(run, "sh")]
    if path.name in (PYPROJECT, HATCH, TOX_TOML):  # its task runners' (`task_runners`)
        shell, tox = toml_commands(text, path.name)
        return [
            *(w for t in shell for w in _lines(t, "sh")),
            *(w for t in tox for w in tox_lines(t)),
        ]
    return _lines(just_text(text) if path.name in JUSTFILES else text, path.name)


def script_paths(directory: Path) -> list[Path]:
    """The paths whose change can change what the project's scripts run: where a script may
    be (a folder's listing: one came), and each script there."""
    return [directory / name for name in (*FILES, *SCRIPTS)] + [
        directory / WORKFLOWS,
        *script_files(directory),
    ]


def script_files(directory: Path) -> list[Path]:
    """The project's files that may run a checker: its Makefile, tox.ini, noxfile.py, each
    script in its scripts folders, a shell script at its top (outcome's ci.sh; their
    listing unstamped: one written later is read once another of these files changes), and
    its CI workflows (dacite's gate: a step's `run: mypy dacite`)."""
    found = [directory / name for name in FILES if (directory / name).is_file()]
    for folder in SCRIPTS:
        if (directory / folder).is_dir():
            found += sorted(
                p
                for p in (directory / folder).iterdir()
                if p.is_file() and p.suffix in ("", ".sh") and not p.name.startswith(".")
            )
    found += sorted(p for p in directory.glob("*.sh") if p.is_file())
    return found + workflows(directory / WORKFLOWS)


def tox_lines(text: str) -> Iterator[list[str]]:
    """The words of each command of a tox.ini's `text` (`_lines`)."""
    return _lines(text, "tox.ini")


def _lines(text: str, name: str) -> Iterator[list[str]]:
    """The words of each line of a shell script, Makefile or tox.ini (`name`) `text`, a
    variable set by a plain assignment before it replaced by its value (a Makefile's
    `$(name)` by its whole value); in tox.ini a command's factor condition dropped and its
    substitutions made (`_tox_line`)."""
    values: dict[str, str] = {}
    key: str | None = None  # tox.ini's setting a line is of (a continuation line: the last)
    for line in text.splitlines():
        if name == "tox.ini":
            if (setting := _TOX_KEY.match(line)) is not None or line.startswith("["):
                key = None if setting is None else setting[1]
            if key is not None and key not in _TOX_COMMANDS:
                continue  # `deps =` and a line below it (`pyright: pyright`) run nothing
            line = _tox_line(line)
        elif name in MAKEFILES:  # textual's `$(run) mypy src/textual`, `run := poetry run`
            line = _MAKE_VARIABLE.sub(lambda m: values.get(m[1], ""), line)
            if (assigned := _MAKE_ASSIGNED.match(line)) is not None:
                values[assigned[1]] = assigned[2].split("#", 1)[0].strip()
                continue
        elif (assigned := _ASSIGNED.match(line)) is not None:
            if command := _prefixed(line, values):  # `MYPYPATH=src mypy src`: the command's
                yield command
                continue
            value = line_words(assigned[2], values)  # none: a quote closed on a later line
            values[assigned[1]] = value[0] if value else ""
            continue
        yield line_words(line, values)


def _prefixed(line: str, values: dict[str, str]) -> list[str]:
    """The words of the command a line of variable assignments runs (`MYPYPATH=src mypy
    src`, the variable its alone); none where the line only assigns (`export X=1`,
    `SOURCES="app tests"`, `X=$(cmd args)`)."""
    if re.match(r"\s*(?:export\s|[^=]*=\s*(?:\$\(|`))", line):
        return []
    words = line_words(line, values)
    at = 0
    while at < len(words) and _ENV.fullmatch(words[at]):
        at += 1
    return words[at:]


def _tox_line(line: str) -> str:
    """A tox.ini line as the shell would see its command: `mypy: mypy src` (run in the
    environments with that factor: structlog's `typing-mypy`) is `mypy src`, `{posargs:src
    tests}` its default `src tests`, `{toxinidir}` the project."""
    line = _TOX_FACTORS.sub("", line, count=1)
    return _TOX_SUBSTITUTION.sub(lambda m: _TOX_VALUES.get(m[1], m[2] or ""), line)


def _commands(
    directory: Path, commands: Iterable[list[str]], tools: tuple[str, ...]
) -> list[tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    """The runs of the commands running mypy on paths of the project, one per set of
    options (an `--exclude` aside: what a walk leaves, not how mypy checks), each naming the
    configuration the first names, another set's of the first's block (`script_blocks`):
    their paths, the options its first command gives, that configuration; the first first.
    A command checking nothing (`CHECKS_NOTHING`: `pyright --verifytypes pkg`) runs none."""
    runs: dict[tuple[str, ...], tuple[dict[str, None], tuple[str, ...]]] = {}
    config: str | None = None
    blocks, first = Blocks(), None  # another option set's run: of the first's block alone
    tools = (*tools, *STUBTEST) if "mypy" in tools else tools  # stubtest checks with mypy
    for words in commands:
        block = blocks.of(words)
        for index, word in enumerate(words):
            name = word.rsplit("/", 1)[-1]  # stubtest type-checks with mypy: `mypy -m`'s
            if not commanded(words, index, RUNNERS) or name not in tools:
                continue  # (`echo ... mypy` runs none)
            after = spelled(words[index + 1 :])
            after = as_mypy(arguments(after)) if name in STUBTEST else after
            if not CHECKS_NOTHING & {*after} and (paths := named_paths(directory, after)):
                options, named = checking_options(after), _config_file(directory, after)
                config = named if not runs else config
                first = block if first is None else first
                if named == config and (unexcluded(options) in runs or block == first):
                    found, _ = runs.setdefault(unexcluded(options), ({}, options))
                    found.update(dict.fromkeys(paths))  # (another configuration: not read)
    return [(tuple(paths), options, config) for paths, options in runs.values()]


def unexcluded(options: tuple[str, ...]) -> tuple[str, ...]:
    """`options` less each `--exclude X` / `--exclude=X`: which files a command's walk
    leaves out, not how mypy checks the others."""
    return tuple(option_values(options, "--exclude")[1])


def _config_file(directory: Path, words: list[str]) -> str | None:
    """The configuration a mypy command (`words`, after `mypy`) names (its last
    `--config-file`), as given; None: none, or the file mypy finds by itself."""
    named = option_values(arguments(words), "--config-file")[0]
    return other_config(directory, named[-1]) if named else None


def arguments(words: list[str]) -> list[str]:
    """A command's arguments (`words`, after its name) up to what ends it (`_ends`)."""
    return next((words[:index] for index, word in enumerate(words) if _ends(word)), words)


def commanded(words: list[str], index: int, runners: set[str]) -> bool:
    """Whether `words[index]` is a command's name: first, or after a runner's words
    (`runners`: `uv run`, `python -m`), its options between (openai-python's `uv run
    --locked --all-extras mypy .`), and variables set for the command alone before it; or
    a shell script's, one word between (pathspec's `dev/venv.sh dev/venv-cpy mypy`)."""
    at = index
    while at > 0 and words[at - 1] not in runners and _before(words[at - 1]):
        at -= 1
    return at == 0 or words[at - 1] in runners or (at <= 2 and words[0].endswith(".sh"))


def _before(word: str) -> bool:
    """Whether `word` may stand between a runner and its command: an option, or a variable
    set for the command alone (`env MYPYPATH=src mypy`)."""
    return word.startswith("-") or _ENV.fullmatch(word) is not None


def line_words(line: str, values: dict[str, str]) -> list[str]:
    """`line`'s words, its known variables replaced (a `#` comment dropped)."""
    line = _VARIABLE.sub(lambda m: values.get(m[1] or m[2], ""), line)
    words = shlex.shlex(line, posix=True, punctuation_chars=True)  # `app;` is `app`, `;`
    words.whitespace_split = True
    try:
        return list(words)
    except ValueError:  # an unclosed quote: a line of no command lspd reads
        return []


def named_paths(directory: Path, words: list[str]) -> tuple[str, ...]:
    """The arguments of a mypy command (`words`, after `mypy`) naming the project's files."""
    found: list[str] = []
    skip, after = False, ""
    for word in words:
        if _ends(word):
            break
        if skip:
            if after in _NAMES_MODULE and (path := _module_path(directory, word)) is not None:
                found.append(path)
            skip = False
            continue
        if word.startswith("-"):
            skip, after = word in _VALUED, word
            continue
        for part in word.split():  # a variable's value of several paths
            relative = os.path.normpath(part)  # ./lib/sqlalchemy, app/
            inside = not relative.startswith(("/", ".."))
            if inside and (directory / relative).exists():
                found.append(relative)
    return tuple(dict.fromkeys(found))


def _module_path(directory: Path, name: str) -> str | None:
    """The project's folder or file of a module `-p`/`-m` names (`app.core`: app/core/, or
    app/core.pyi, else app/core.py, at the top, under src/ or lib/)."""
    if not re.fullmatch(r"\w+(?:\.\w+)*", name):
        return None
    for base in ("", "src/", "lib/"):
        relative = base + name.replace(".", "/")
        if (directory / relative).is_dir():
            return relative
        for suffix in (".pyi", ".py"):  # a stub beside its module is the module to mypy
            if (directory / f"{relative}{suffix}").is_file():
                return relative + suffix
    return None


def checking_options(words: list[str]) -> tuple[str, ...]:
    """The options of a mypy command (`words`, after `mypy`) that change what it reports,
    with their values (`--python-version 3.9` or `--python-version=3.9`)."""
    found: list[str] = []
    for index, word in enumerate(words):
        if _ends(word):
            break
        if word in _CHECKING_VALUED and index + 1 < len(words):
            found += [word, words[index + 1]]
        elif word.split("=", 1)[0] in _CHECKING_VALUED or _CHECKING.fullmatch(word):
            found.append(word)
    return tuple(found)


def _ends(word: str) -> bool:
    """Whether `word` ends a command's arguments (`;`, `&&`, a redirection)."""
    return word in _END or word.startswith((">", "2>"))
