"""What a TypeScript file's importers see of it, read in a helper process: its declarations as
TypeScript emits them for its text alone (`ts_declarations.cjs`, `transpileDeclaration`).

TypeScript 7's server keeps no result across an edit, so a watched check asks again every
file importing an edited one (`engine/native_reach.py`); `tsc --watch` re-checks them only
when the edited file's .d.ts changed. Where that .d.ts is the file's text alone (no exported
value whose type the checker infers: `isolatedDeclarations`' rules), two texts with the same
one are the same to every importer. The helper runs on lspd's own TypeScript 5 (`lspd
servers install typescript`), whatever TypeScript the project checks with: only its parser
and declaration emit are used. It ends itself 3 s after its last answer (~90 MB while it
runs, started again in ~0.1 s: an edit's check pays that, not the memory between edits).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from lspd.dirs import cache_dir
from lspd.lsp.process import end_helper, helper_answer, spawn
from lspd.servers.registry import node_executable
from lspd.workspace.tsconfig_scope import COMPILE_CACHE

log = logging.getLogger(__name__)

SCRIPT = Path(__file__).with_name("ts_declarations.cjs")
_KEPT = 512  # answers kept by text: a preview's texts are the next check's


class Declarations:
    """One helper process reading declarations, started on first need."""

    def __init__(self, package: Path, log_path: Path) -> None:
        self.package = package  # a TypeScript package directory (lib/typescript.js)
        self.log_path = log_path
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._next_id = 0
        self._kept: OrderedDict[tuple[str, int], int | None] = OrderedDict()

    @property
    def available(self) -> bool:
        """Whether the TypeScript package is there to run on."""
        return (self.package / "lib" / "typescript.js").is_file()

    async def of(self, texts: Sequence[tuple[Path, str]]) -> list[int | None]:
        """A hash of each text's declarations (equal: the same to every importer); None where
        they cannot be told from the text alone, or the helper cannot run."""
        keys = [(str(path), hash(text)) for path, text in texts]
        pairs = zip(texts, keys, strict=True)
        missing = [(str(path), text) for (path, text), key in pairs if key not in self._kept]
        if missing and self.available:
            async with self._lock:
                emitted = await self._emitted(missing)
            for (name, text), found in zip(missing, emitted, strict=True):
                self._kept[name, hash(text)] = None if found is None else hash(found)
                while len(self._kept) > _KEPT:
                    self._kept.popitem(last=False)
        return [self._kept.get(key) for key in keys]

    async def _emitted(self, files: list[tuple[str, str]]) -> list[str | None]:
        """The helper's answer, asked again once of a new process where the old one had ended
        (its idle end can come as the question is sent)."""
        for attempt in range(2):
            try:
                return await self._ask(files)
            except (OSError, ConnectionError, ValueError) as exc:
                log.info("declarations helper failed (%s); see %s", exc, self.log_path)
                await self.stop()
                if attempt:
                    break
        return [None] * len(files)

    async def _ask(self, files: list[tuple[str, str]]) -> list[str | None]:
        self._next_id += 1
        request = {"id": self._next_id, "files": files}
        answer = await helper_answer(await self._started(), request)
        if "error" in answer:
            raise ValueError(answer["error"])
        found: list[str | None] = answer["declarations"]
        return found

    async def _started(self) -> asyncio.subprocess.Process:
        if self._process is None or self._process.returncode is not None:
            command = [node_executable(), str(SCRIPT), str(self.package)]
            env = {**os.environ, "NODE_COMPILE_CACHE": str(cache_dir() / COMPILE_CACHE)}
            self._process = await spawn(command, self.package, env, self.log_path)
        return self._process

    async def stop(self) -> None:
        """End the helper (started again by the next question)."""
        process, self._process = self._process, None
        await end_helper(process)
