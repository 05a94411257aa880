"""Which checker judges a Python project, found like its scope: the project's own choice.

mypy reads the first of `mypy.ini`, `.mypy.ini`, `pyproject.toml` with `[tool.mypy]` and
`setup.cfg` with `[mypy]` in the directory it runs in (its `config_parser.py`); a project
configured there gates on mypy. A `pyrightconfig.json`, `[tool.basedpyright]` or
`[tool.pyright]` means basedpyright; both configured, both run (SQLAlchemy), each
diagnostic naming its checker; neither, mypy where the project's scripts or pre-commit hook
run it and nothing runs pyright but on paths it names (`mypy_unconfigured`; those judged by
pyright's defaults beside it: `_beside`), else basedpyright. A mypy
configuration that nothing runs, in a project configuring ty whose gate runs ty alone, is
left over: ty judges it (`ty_config`, `ty_gate`); where something runs mypy too, both
judge it, ty as the server beside mypy. lspd.toml's `python_checker` overrides the project.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lspd.errors import InvalidInput
from lspd.workspace.mypy_files import CONFIG_FILES, MYPY_INI, PYPROJECT, SETUP_CFG
from lspd.workspace.mypy_stamps import Memo
from lspd.workspace.mypy_unconfigured import (
    may_run_mypy,
    mypy_runner,
    runner_paths,
)
from lspd.workspace.pyright_given import given_paths, pyright_given
from lspd.workspace.pyright_scope import CONFIG_JSON, config_in
from lspd.workspace.ty_config import gate_paths, gated_ty, ty_beside_mypy
from lspd.workspace.ty_config import label as ty_label

CHOICES = ("project", "mypy", "basedpyright", "both")  # lspd.toml's `python_checker`
MYPY, PYRIGHT = "mypy", "basedpyright"
UNCONFIGURED = "mypy's defaults (no configuration)"  # the label of a project configuring none


@dataclass(frozen=True)
class MypyConfig:
    """A project's mypy configuration: where, and the targets it names (`files`)."""

    path: Path
    label: str  # `mypy.ini`, `pyproject.toml [tool.mypy]`, `setup.cfg [mypy]`
    files: tuple[str, ...]  # as written: paths or globs, relative to the project
    exclude: str | None  # mypy's `exclude` regex(es), joined with `|`
    mypy_path: tuple[str, ...] = ()  # `mypy_path`'s directories, relative to the project
    modules: tuple[str, ...] = ()  # the top-level packages its per-module sections name
    plugins: tuple[str, ...] = ()  # `plugins` as written: modules, or files (`../x.py:fn`)
    namespace_packages: bool = True  # mypy's default since 0.991: how far module names reach
    explicit_package_bases: bool = False  # module names start at the run's directory
    follow_imports: str = "normal"  # mypy's `follow_imports` (`mypy_follow`)
    follows: tuple[tuple[str, str], ...] = ()  # (module pattern, its section's follow_imports)
    # what mypy's reachability reads: the names it takes as true and false, the version and
    # platform it checks for (None: its interpreter's)
    always: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    python_version: str | None = None
    platform: str | None = None
    # its global section's boolean options as the command-line flags they equal
    # (`warn_unused_ignores = true`: `--warn-unused-ignores`; false: `--no-...`)
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CheckerChoice:
    """Which checkers judge one Python project, and why (said by status and answers)."""

    checkers: tuple[str, ...]  # `mypy`, `basedpyright`, or both (mypy first)
    reason: str
    # ty is the server beside mypy (`basedpyright` stands for it): the gate's files are mypy's
    ty_beside: bool = False
    # pyright judges beside mypy, configuring none (`pyright_part`): the gate's files are mypy's
    pyright_beside: bool = False


# Each read once while its files stay the same: every question asked it several times.
_CONFIGS: Memo[MypyConfig | None] = Memo()
_CHOICES: Memo[CheckerChoice] = Memo()


def mypy_config_in(directory: Path) -> MypyConfig | None:
    """The directory's mypy configuration as mypy finds it, or None. One that does not
    parse raises `InvalidInput` naming the file, the line and the fix. Read again only when
    one of its files changed (`mypy_stamps`)."""
    paths = tuple(directory / name for name in CONFIG_FILES)
    return _CONFIGS.get(directory, paths, lambda: (_config_in(directory), ()))


def configures_checker(folder: Path) -> bool:
    """Whether `folder` configures a checker; one that cannot be read (a fixture's
    pyproject.toml that is no TOML) configures none, as the scope reads it (`is_toml`)."""
    try:
        return mypy_config_in(folder) is not None or config_in(folder) is not None
    except InvalidInput:
        return False


def _config_in(directory: Path) -> MypyConfig | None:
    for name in CONFIG_FILES:
        path = directory / name
        if not path.is_file():
            continue
        if name == PYPROJECT:
            table = _toml(path).get("tool", {}).get("mypy")
            if isinstance(table, dict):
                return _made(path, f"{name} [tool.mypy]", table)
            continue
        sections = _ini(path)
        section = sections.get("mypy")
        if section is not None or name in MYPY_INI:
            label = f"{name} [mypy]" if name == SETUP_CFG else name
            named = [s[len("mypy-") :] for s in sections if s.startswith("mypy-")]
            overrides = [
                {**sections[f"mypy-{n}"], "module": [m.strip() for m in n.split(",")]}
                for n in named
            ]
            return _made(path, label, {**(section or {}), "overrides": overrides})
    return None


def choose(directory: Path, configured: str = "project", restricted: bool = False) -> CheckerChoice:
    """The checkers of the project in `directory` and why: lspd.toml's `python_checker`
    when not `project`, else the project's configurations. Restricted mode runs no project
    mypy (its plugins are code of the repository): basedpyright, said so."""
    paths = tuple(directory / name for name in (*CONFIG_FILES, CONFIG_JSON))
    key = (directory, configured, restricted)
    return _CHOICES.get(key, paths, lambda: _chosen(directory, configured, restricted))


def _chosen(
    directory: Path, configured: str, restricted: bool
) -> tuple[CheckerChoice, tuple[Path, ...]]:
    """`choose`'s answer, and the files beyond the directory's own it read (a pyright
    configuration's `extends`)."""
    if configured not in CHOICES:
        raise InvalidInput(
            f"lspd.toml: python_checker: {configured!r} is not a checker; choose one of "
            + ", ".join(CHOICES)
        )
    if restricted:
        return CheckerChoice((PYRIGHT,), "restricted mode runs no project mypy"), ()
    if configured == "both":
        return CheckerChoice((MYPY, PYRIGHT), 'lspd.toml python_checker = "both"'), ()
    if configured in (MYPY, PYRIGHT):
        return CheckerChoice((configured,), f'lspd.toml python_checker = "{configured}"'), ()
    mypy = mypy_config_in(directory)
    pyright = config_in(directory)
    read = tuple(pyright.read) if pyright is not None else ()
    if mypy is not None and pyright is not None:
        return CheckerChoice((MYPY, PYRIGHT), f"{mypy.label} and {pyright.label}"), read
    if mypy is not None:
        read += (*gate_paths(directory), *given_paths(directory))  # (a ty.toml, what runs ty)
        if gated_ty(directory):  # its server and files: `ty_gate`, `ty_scope`
            return CheckerChoice((PYRIGHT,), f"{mypy.label} left over: the gate runs ty"), read
        return _beside(directory, mypy.label, f"{mypy.label} and {ty_label(directory)}"), read
    if pyright is not None:
        return CheckerChoice((PYRIGHT,), pyright.label), read
    read = (*runner_paths(directory), *gate_paths(directory), *given_paths(directory))
    # the project's gate, unconfigured
    if (runner := mypy_runner(directory, configures_checker)) is not None:
        reason = f"no checker configuration: {runner} runs mypy"
        return _beside(directory, reason, f"{reason}, and ty"), read
    return CheckerChoice((PYRIGHT,), "no mypy configuration"), read


def _beside(directory: Path, alone: str, beside: str) -> CheckerChoice:
    """mypy's choice, said `alone`; with ty as the server beside it, said `beside`, where
    the project's gate runs ty and mypy (`ty_config.ty_beside_mypy`). Where its gate runs
    pyright on paths of it too, configuring none (stamina's nox: `mypy src tests/typing`,
    `pyright tests/typing`), pyright's defaults judge those (`pyright_part`)."""
    given = pyright_given(directory)
    if ty_beside_mypy(directory):  # one server beside mypy: a pyright run of the gate is not
        unrun = given is not None and not given.configured  # (structlog's, on tests/typing)
        said = (
            f"{beside}; not run beside them: pyright ({given.note})" if given and unrun else beside
        )
        return CheckerChoice((MYPY, PYRIGHT), said, ty_beside=True)
    if given is not None and not given.configured:
        reason = f"{alone}, and pyright on {given.note}"
        return CheckerChoice((MYPY, PYRIGHT), reason, pyright_beside=True)
    return CheckerChoice((MYPY,), alone)


def unconfigured_gate(
    directory: Path, root: Path | None, configured: str = "project", restricted: bool = False
) -> bool:
    """Whether `directory`, a package below `root` (its pyproject.toml) where neither it nor
    a folder above it up to `root` configures a checker, is judged by mypy's defaults all
    the same: its own script or hook runs mypy on files of its own and nothing of it runs
    pyright (`choose`). markitdown's packages are each the `hatch new` template's, its
    `types:check` running mypy; basedpyright's defaults said 197 errors and 2,979 warnings
    of a repository whose CI runs no type checker."""
    if configured != "project" or root is None or root not in directory.parents:
        return False
    if not (directory / PYPROJECT).is_file() or not may_run_mypy(directory):
        return False
    if any(
        configures_checker(f)
        for f in (directory, *directory.parents)
        if f == root or root in f.parents
    ):
        return False
    return MYPY in choose(directory, configured, restricted).checkers


def unconfigured(directory: Path) -> MypyConfig:
    """The configuration mypy runs with in a project that has none: its defaults."""
    return MypyConfig(directory / PYPROJECT, UNCONFIGURED, (), None)


def _made(path: Path, label: str, table: dict[str, Any]) -> MypyConfig:
    files = table.get("files", ())
    if isinstance(files, str):  # ini: comma-separated
        files = [f.strip() for f in files.split(",")]
    files = _targets(table, path.parent) or files
    exclude = table.get("exclude")  # mypy's: a string is one regex, its lines and all
    if isinstance(exclude, list):
        exclude = [str(e).strip() for e in exclude if str(e).strip()]
        exclude = exclude[0] if len(exclude) == 1 else "|".join(f"(?:{e})" for e in exclude)
    elif isinstance(exclude, str):
        exclude = exclude.strip()
    paths = table.get("mypy_path", ())
    if isinstance(paths, str):  # comma- or colon-separated
        paths = [p.strip() for p in re.split(r"[,:]", paths)]
    plugins = table.get("plugins", ())
    if isinstance(plugins, str):  # ini: comma-separated
        plugins = [p.strip() for p in plugins.split(",")]
    modules: list[str] = []
    follows: list[tuple[str, str]] = []
    for override in table.get("overrides", ()):
        named = override.get("module", ()) if isinstance(override, dict) else ()
        for module in [named] if isinstance(named, str) else named:
            top = str(module).split(".")[0].strip()
            if top and top != "*" and top not in modules:
                modules.append(top)
            if isinstance(override, dict) and "follow_imports" in override:
                follows.append((str(module).strip(), str(override["follow_imports"]).strip()))
    return MypyConfig(
        path,
        label,
        tuple(str(f) for f in files if f),
        exclude or None,
        tuple(str(p) for p in paths if p),
        tuple(modules),
        tuple(str(p) for p in plugins if p),
        _on(table.get("namespace_packages", table.get("namespace-packages", True))),
        _on(table.get("explicit_package_bases", table.get("explicit-package-bases", False))),
        str(table.get("follow_imports", "normal")).strip(),
        tuple(follows),
        (_names(table.get("always_true", ())), _names(table.get("always_false", ()))),
        str(table["python_version"]).strip() if "python_version" in table else None,
        str(table["platform"]).strip() if "platform" in table else None,
        frozenset(_flags(table)),
    )


def _targets(table: dict[str, Any], folder: Path) -> list[str]:
    """The files of a configuration's `packages` and `modules`, which mypy checks instead of
    its `files` when either is set (litestar's `packages = ["litestar", "tests",
    "docs.examples"]`: lspd ran mypy on every file, whose docs/conf.py's blocking error
    stopped it, and said none of mypy's errors), as paths relative to `folder`, each found
    as mypy finds it: in `mypy_path`'s directories, then the run's. A package is its folder
    (its modules are checked too), a module its file."""
    named = [(n, True) for n in _names(table.get("packages", ()))]
    named += [(n, False) for n in _names(table.get("modules", ()))]
    paths = table.get("mypy_path", ())  # comma- or colon-separated in an INI file
    paths = re.split(r"[,:]", paths) if isinstance(paths, str) else paths
    bases = [*_names(paths), "."] if named else []
    found: list[str] = []
    for name, package in named:
        relative = name.replace(".", "/")
        for base in (Path(b) for b in bases):
            candidates = [relative] if package else []
            candidates += [f"{relative}.py", f"{relative}.pyi", f"{relative}/__init__.py"]
            path = next((base / c for c in candidates if (folder / base / c).exists()), None)
            if path is not None:
                found.append(path.as_posix())
                break
    return found


def _flags(table: dict[str, Any]) -> list[str]:
    """The global section's boolean options as the command-line flags they equal: a script's
    `mypy --warn-unused-ignores tests/` gives mypy nothing `warn_unused_ignores = true` does
    not (marshmallow's tox run beside its pre-commit hook's)."""
    flags = []
    for key, value in table.items():
        if isinstance(value, str) and value.strip().lower() in _BOOLEANS:
            value = _on(value)
        if isinstance(value, bool):
            name = key.replace("_", "-")
            flags.append(f"--{name}" if value else f"--no-{name}")
    return flags


_BOOLEANS = ("true", "false", "yes", "no", "on", "off")  # an INI file's, not its numbers


def _names(value: object) -> tuple[str, ...]:
    """A list option as mypy reads it: TOML's list, an INI file's comma-separated line."""
    found = value.split(",") if isinstance(value, str) else value
    return (
        tuple(str(n).strip() for n in found if str(n).strip())
        if isinstance(found, (list, tuple))
        else ()
    )


def _on(value: object) -> bool:
    """A boolean option as mypy reads it: TOML's `true`, an INI file's `True`, `1`, `yes`
    or `on`."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return value is True


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text("utf-8")
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_AT.search(str(exc))
        line = found.group(1) if found else str(len(text.splitlines()))  # at its end
        problem = _TOML_AT.sub("", str(exc)).replace("(at end of document)", "").strip()
        raise InvalidInput(
            f"{path}:{line}: {problem}: fix the TOML there (mypy cannot read this "
            "configuration either)"
        ) from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot be read ({exc.strerror})") from None


def _ini(path: Path) -> dict[str, dict[str, str]]:
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(path.read_text("utf-8"), str(path))
    except configparser.Error as exc:
        line = getattr(exc, "lineno", None) or _ini_line(exc)
        problem = str(exc).splitlines()[0]
        raise InvalidInput(
            f"{path}:{line}: {problem}: fix the INI syntax there (a `[section]` header "
            "first, then `key = value` lines)"
        ) from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot be read ({exc.strerror})") from None
    return {name: dict(parser[name]) for name in parser.sections()}


def _ini_line(exc: configparser.Error) -> str:
    errors = getattr(exc, "errors", None)  # ParsingError: [(lineno, line), ...]
    if errors:
        return str(errors[0][0])
    found = re.search(r"\[line\s+(\d+)\]", str(exc))
    return found.group(1) if found else "?"
