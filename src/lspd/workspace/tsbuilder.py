"""The project's own TypeScript builder in a helper process: whole-project checks as the
gate's watch mode makes them.

`tsbuilder.cjs` (and the `tsbuilder_*.cjs` modules it loads, package data beside it) runs on
the project's `node_modules/typescript` (the toolchain the session would run) and keeps one
builder program per tsconfig, as `tsc --watch` does: after an edit it re-checks the changed
files, and the files importing them only when their declarations changed; every other
file's diagnostics are kept, in the helper and here. Nothing is opened in tsserver for a
check, so a whole-project check costs the memory of `tsc --watch`, not of an editor holding
every file open (see docs/design.md, "Re-checking what an edit affects").
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lspd.dirs import cache_dir
from lspd.errors import LspdError
from lspd.lsp.diagnostics import from_tsserver
from lspd.lsp.process import end_helper, helper_answer, spawn
from lspd.servers.registry import node_executable
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsconfig_scope import COMPILE_CACHE

log = logging.getLogger(__name__)

SCRIPT = Path(__file__).with_name("tsbuilder.cjs")
Items = list[dict[str, Any]]


class BuilderFailed(LspdError):
    """The helper could not check the project (it died, or TypeScript threw)."""


@dataclass
class Project:
    """What the builder last said of one tsconfig: every file's items (the same list objects
    while a file is not checked again), which files the last check checked anew, and the
    files whose syntax errors stopped it (as tsc: then nothing else was checked)."""

    items: dict[Path, Items] = field(default_factory=dict)
    checked: set[Path] = field(default_factory=set)
    seconds: float = 0.0
    stopped: list[Path] = field(default_factory=list)
    # where its options' errors stopped it (file, line): tsc checked none of its files then
    configured: list[tuple[Path, int]] = field(default_factory=list)
    # what `tsc -p --listFilesOnly` says of its JSON files (None: not said, `_listed`)
    listed: list[ConfigError] | None = None
    seen: int | None = -1  # the workspace's changes seen when its check began (-1: unknown)
    began: float = 0.0  # when its check began (`time.monotonic`)
    # the program's other files outside node_modules (a linked package's built .d.ts)
    read: list[Path] = field(default_factory=list)
    # its library files with errors (a package's .d.ts; none under skipLibCheck), or said so
    # last (then with none): tsc -p says them as its own files' (`tsbuilder_check.cjs`)
    library: set[Path] = field(default_factory=set)
    # its check took over the last preview's state: the disk held the preview's texts
    previewed: bool = False


@dataclass(frozen=True)
class Preview:
    """What the builder would say of one tsconfig with other texts: the files of its program,
    those it would check anew, the items of those and of the changed files, and the files
    whose syntax errors would stop it (`Project.stopped`)."""

    files: set[Path]
    checked: set[Path]
    items: dict[Path, Items]
    stopped: list[Path] = field(default_factory=list)
    configured: list[tuple[Path, int]] = field(default_factory=list)  # `Project.configured`


@dataclass
class Builder:
    """One helper process for one TypeScript package; its projects by tsconfig path."""

    package: Path
    log_path: Path
    toolchain: str | None = None  # the TypeScript it runs, as `status` says it
    heap_mb: int | None = None  # Node's heap limit, where the gate's tsc is given one
    projects: dict[Path, Project] = field(default_factory=dict)
    last_used: float = field(default_factory=time.monotonic)
    _process: asyncio.subprocess.Process | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _next_id: int = 0

    name = "typescript builder"  # in `status` and the memory ceiling's log

    @property
    def busy(self) -> bool:
        """A check is running."""
        return self._lock.locked()

    @property
    def pid(self) -> int | None:
        running = self._process is not None and self._process.returncode is None
        return self._process.pid if running and self._process is not None else None

    async def check(self, config: Path, progress: Callable[[int], None] | None = None) -> Project:
        """The diagnostics of every file of `config`'s program, as they are on disk now."""
        async with self._lock:  # one check at a time: the helper is single-threaded
            self.last_used = time.monotonic()
            began = time.monotonic()
            try:
                answer = await self._ask(config, progress)
            except (OSError, ConnectionError, ValueError) as exc:
                await self.stop()
                failed = f"the TypeScript builder failed ({exc}); see {self.log_path}"
                raise BuilderFailed(failed) from exc
            project = self.projects.setdefault(config, Project())
            files = {Path(name) for name in answer["files"]}
            anew = {Path(name): items for name, items in answer["diagnostics"].items()}
            kept = project.items
            project.items = {p: [from_tsserver(e) for e in items] for p, items in anew.items()}
            project.items.update((p, kept[p]) for p in files - set(anew) if p in kept)
            project.checked = {Path(name) for name in answer["checked"]}
            project.stopped = [Path(name) for name in answer.get("stopped", [])]
            project.configured = _places(answer)
            project.listed = _listed(config, answer.get("listed"))
            project.read = [Path(name) for name in answer.get("read", [])]
            project.library = {Path(name) for name in answer.get("library", [])}
            project.previewed = bool(answer.get("previewed"))
            project.began, project.seconds = began, time.monotonic() - began
            self.last_used = time.monotonic()
            log.info(
                "tsbuilder %s: %d files, %d checked anew in %.2f s%s",
                config,
                len(files),
                len(project.checked),
                project.seconds,
                " (the preview's state taken over)" if project.previewed else "",
            )
            return project

    async def preview(self, config: Path, texts: Mapping[Path, str | None]) -> Preview:
        """What a check of `config` would say with `texts` instead of the disk's (None: the
        file deleted): the files it would check anew and their diagnostics, and the changed
        files'. The kept builder is left as it was (the next `check` decides as before);
        `config` must have been checked (the disk's state is the preview's baseline)."""
        async with self._lock:
            began = self.last_used = time.monotonic()
            sent = {str(path): text for path, text in texts.items()}
            try:
                answer = await self._ask(config, None, sent)
            except (OSError, ConnectionError, ValueError) as exc:
                await self.stop()
                failed = f"the TypeScript builder failed ({exc}); see {self.log_path}"
                raise BuilderFailed(failed) from exc
            self.last_used = time.monotonic()
            items = {
                Path(name): [from_tsserver(e) for e in found]
                for name, found in answer["diagnostics"].items()
            }
            files = {Path(name) for name in answer["files"]}
            checked = {Path(name) for name in answer["checked"]}
            log.info(
                "tsbuilder %s: a preview of %d changed files, %d checked anew in %.2f s",
                config,
                len(texts),
                len(checked),
                self.last_used - began,
            )
            stopped = [Path(name) for name in answer.get("stopped", [])]
            return Preview(files, checked, items, stopped, _places(answer))

    async def _ask(
        self,
        config: Path,
        progress: Callable[[int], None] | None,
        texts: dict[str, str | None] | None = None,
    ) -> dict[str, Any]:
        process = await self._started()
        self._next_id += 1
        request: dict[str, Any] = {"id": self._next_id, "config": str(config)}
        if texts is not None:
            request["texts"] = texts
        answer = await helper_answer(process, request, progress)
        if "error" in answer:
            raise BuilderFailed(f"TypeScript could not check {config}: {answer['error']}")
        return answer

    async def _started(self) -> asyncio.subprocess.Process:
        if self._process is None or self._process.returncode is not None:
            self.projects.clear()  # a new process knows nothing: everything is sent again
            heap = [] if self.heap_mb is None else [f"--max-old-space-size={self.heap_mb}"]
            command = [node_executable(), "--expose-gc", *heap, str(SCRIPT), str(self.package)]
            # Node keeps its compiled code of typescript.js where the scope's run keeps it
            # (`tsconfig_scope.COMPILE_CACHE`), as tsc loads itself: 0.07-0.10 s of CPU to
            # load it, not 0.23-0.28 (TypeScript 5.9.3, Node 24)
            cache = str(cache_dir() / COMPILE_CACHE)
            env = {**os.environ, "NODE_COMPILE_CACHE": cache}
            self._process = await spawn(command, self.package.parent, env, self.log_path)
        return self._process

    async def stop(self) -> None:
        """End the helper (it is started again by the next check, which checks anew)."""
        process, self._process = self._process, None
        self.projects.clear()
        await end_helper(process)


def _places(answer: Mapping[str, Any]) -> list[tuple[Path, int]]:
    """Where the builder's answer says its program's options' errors stopped it."""
    return [(Path(name), int(line)) for name, line in answer.get("configured", [])]


def _listed(config: Path, said: list[list[Any]] | None) -> list[ConfigError] | None:
    """The errors `tsc -p config --listFilesOnly` prints of the program's JSON files, as
    `tsc_native.listed` reads its lines (one without a place: the config's first line; a
    message's later lines without their indent), from the builder's answer (None: the
    builder could not say: `tsbuilder_config.cjs` listing)."""
    if said is None:
        return None
    found = []
    for name, line, column, code, text in said:
        first, *rest = str(text).split("\n")
        message = "\n".join([first, *(part.strip() for part in rest)])
        file = config if name is None else Path(name)
        found.append(ConfigError(file, int(line), int(column), str(code), message))
    return found
