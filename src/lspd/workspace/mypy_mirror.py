"""What lspd's copy of a project for dmypy holds: what mypy can see of the project, where
in the copy mypy runs, and the project's configuration as the copy holds it.

The copy (`mypy_copy.Mirror`, in lspd's state directory) holds what the project's mypy
can see: every Python file under the project, those git ignores too (a generated
`_version.py`), environments and caches aside; a `mypy_path` or `files` entry leaving the
project is written absolute in the copied configuration, so it still names the directory
beside the real project. A project inside a package (pydantic's tests/typechecking, its own
configuration, below tests/__init__.py) is run by its users where its configuration is, and
mypy names its modules from the directory its crawl up the `__init__.py` files reaches
(`package_base`: the repository), which it also searches for imports (`import pydantic` is
the repository's own): the copy is then of that directory, mypy runs in the project's place
inside it. Its root holds an empty `.git` (`mypy_copy.VCS_MARK`): mypy's search for a
configuration up from where it runs ends there, as the project's ends at its repository,
never in lspd's state directory or the user's home above the copy.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from lspd.errors import InvalidInput
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_outputs import without_outputs
from lspd.workspace.mypy_stamps import Stamp, settled, stamps

PYTHON = (".py", ".pyi")
# What else mypy reads in a package: its `py.typed` mark (PEP 561). The copy of a src-layout
# package reached through an editable install's `.pth` (`mypy_site`: its site-packages
# entry, which mypy reads as installed) without it was an untyped installed package.
MARKS = ("py.typed",)
# What no mypy run reads from: version control, caches, other tools' packages.
SKIPPED = {".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".pytest_cache"}
SKIPPED |= {".ruff_cache", "node_modules", "site-packages"}
FOLDER = "/"  # how a folder ends among a copy's wanted paths (`mypy_copy.Mirror`)
# How a symlinked folder ends among them (no file's name holds it), its text where it leads.
# mypy reads the project's `app/vendor -> ../shared/vendor` as a package folder; a copy
# without it said `Cannot find implementation or library stub` for `app.vendor.util`.
LINK = "\0"


@dataclass(frozen=True)
class Place:
    """Where a project is in its copy: the copy (`copy`) is of `base` (`package_base`: the
    package the project is in, else the project), its files by path relative to it."""

    copy: Path
    project: Path
    base: Path

    @property
    def workdir(self) -> Path:
        """Where mypy runs: the project's place in the copy."""
        return self.copy / self.project.relative_to(self.base)

    @property
    def inside(self) -> str:
        """The project's path in the copy (`tests/typechecking/`), `` where it is the copy."""
        inside = self.project.relative_to(self.base).as_posix()
        return "" if inside == "." else inside + "/"


def mypy_sees(directory: Path) -> list[Path]:
    """Every Python file mypy could read under the project `directory` (and `py.typed`
    marks): ignored by git or not (mypy does not read .gitignore), virtual environments
    (a `pyvenv.cfg`) and caches aside; symlinked directories are not followed (a copy
    holds them as links: `Sees.links`)."""
    return _walked(directory)[0]


def _walked(directory: Path) -> tuple[list[Path], list[Path], list[Path], list[Path]]:
    """`mypy_sees`'s files, every directory the walk looked into or at (an environment set
    aside: its `pyvenv.cfg` could go), the folders that stay when every file of
    `mypy_sees` in them is gone (`Sees.folders`), and the symlinked folders (`Sees.links`)."""
    found: list[Path] = []
    looked: list[Path] = []
    stays: list[Path] = []
    links: list[Path] = []
    for top, dirs, files in os.walk(directory):
        here = Path(top)
        looked.append(here)
        every = len(dirs)
        kept = [d for d in dirs if d not in SKIPPED]
        dirs[:] = [d for d in kept if not (here / d / "pyvenv.cfg").exists()]
        looked += [here / d for d in kept if d not in dirs]
        links += [here / d for d in dirs if (here / d).is_symlink()]  # os.walk: not entered
        ours = [here / name for name in files if name.endswith(PYTHON) or name in MARKS]
        found += ours
        other = len(ours) < len(files) or len(dirs) < every or not (files or every)
        if other and here != directory:
            stays.append(here)
    return sorted(found), looked, stays, sorted(links)


class Sees:
    """`mypy_sees` of one project, walked again only when an entry was added to, removed
    from or renamed in one of its directories (their mtimes: `mypy_stamps`); a preview
    asked for it three times, each a walk of the whole tree."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._looked: tuple[Path, ...] = ()
        self._stamps: tuple[Stamp, ...] = ()
        self._files: list[Path] | None = None
        self._folders: list[Path] = []
        self._links: list[Path] = []
        self.walks = 0  # how many times it walked the tree (its tests count them)

    def files(self) -> list[Path]:
        """The files, from the last walk while no directory of it changed."""
        return self._walk()[0]

    def folders(self) -> list[Path]:
        """The folders that stay when every file of `files` in them is gone: empty ones
        (a `rm` of a stub leaves its folder: mypy reads it as a namespace package), or
        holding other files or caches. A copy holds them (`mypy_copy.Mirror.hold`, their
        relative paths ending in `/`), and no folder whose files a held state deleted
        alone, as `git apply` leaves none."""
        return self._walk()[1]

    def links(self) -> list[Path]:
        """The symlinked folders (environments and caches aside): mypy reads the files
        under them by their names there too, and a copy holds each as a link (`LINK`)."""
        return self._walk()[2]

    def _walk(self) -> tuple[list[Path], list[Path], list[Path]]:
        with self._lock:
            if self._files is not None and stamps(self._looked) == self._stamps:
                return list(self._files), list(self._folders), list(self._links)
            began = time.time_ns()
            files, looked, self._folders, self._links = _walked(self.directory)
            self.walks += 1
            taken = stamps(looked)
            trusted = settled(taken, began)
            self._looked, self._stamps = tuple(looked), taken
            self._files = files if trusted else None
            return list(files), list(self._folders), list(self._links)


def package_base(directory: Path, config: MypyConfig | None) -> Path:
    """The directory mypy names the modules of the project in `directory` from, run
    there: where its crawl up from the project stops (`crawl_up` in mypy's
    find_sources.py: up while a directory holds an `__init__.py`, and with namespace
    packages, mypy's default, through directories without one to the highest that has
    one), else the project itself. mypy searches it for imports too (before
    site-packages), so the copy must hold it. With `explicit_package_bases` the crawl stops
    at the directory mypy runs in."""
    if config is not None and config.explicit_package_bases:
        return directory
    found = _crawled(directory, config is None or config.namespace_packages)
    return directory if found is None else found


def _crawled(directory: Path, namespace: bool) -> Path | None:
    """mypy's `_crawl_up_helper` from `directory`: the base directory of the package it
    belongs to, or None when it belongs to none (names that are no identifier stop it); a
    package whose name is none is refused, as mypy refuses it."""
    name, parent = directory.name.removesuffix("-stubs"), directory.parent
    if any((directory / f"__init__{ext}").is_file() for ext in (".pyi", ".py")):
        if not name.isidentifier():
            raise InvalidInput(
                f"{directory} contains __init__.py but is not a valid Python package name, "
                "so mypy refuses to check the files below it: rename it, or remove its "
                "__init__.py"
            )
        return _crawled(parent, namespace) or parent
    if not name or parent == directory or not name.isidentifier() or not namespace:
        return None
    return _crawled(parent, namespace)


def config_text(
    config: MypyConfig, directory: Path, text: bytes, base: Path | None = None
) -> bytes:
    """The configuration as the copy holds it: each `mypy_path` and `files` entry that
    leaves what the copy holds (`../shared`; the copy is of `base`, the project's
    `package_base`) written absolute, to the directory beside the real project, and so
    each plugin file leaving it (`../plugin.py`, which mypy finds from the configuration's
    directory: the copy's); one that cannot be rewritten is said, with what to write
    instead. Its options that make mypy write or install anything are left out
    (`mypy_outputs`)."""
    result = without_outputs(config.path.name, text.decode("utf-8", "replace"))
    held = directory if base is None else base
    for entry in (*config.mypy_path, *config.files, *_plugin_files(config)):
        real = entry.replace("$MYPY_CONFIG_FILE_DIR", str(directory))
        target = Path(os.path.normpath(directory / real))
        if Path(entry).is_absolute() or target.is_relative_to(held):
            continue
        token = re.compile(r"(?<=[\s\"',=:])" + re.escape(entry) + r"(?=[\s\"',:]|$)", re.M)
        result, count = token.subn(str(target).replace("\\", "\\\\"), result)
        if count == 0:
            raise InvalidInput(
                f"{config.path}: {entry!r} leaves the project, and lspd's copy of it cannot "
                f"be rewritten to reach it: write it as an absolute path ({target})"
            )
    return result.encode("utf-8")


def _plugin_files(config: MypyConfig) -> list[str]:
    """The plugins given as files (`x.py`, `x.py:function`), as mypy reads them: the path
    without its function."""
    files = []
    for plugin in config.plugins:
        path = plugin.rsplit(":", 1)[0] if ":" in os.path.basename(plugin) else plugin
        if path.endswith(".py"):
            files.append(path)
    return files
