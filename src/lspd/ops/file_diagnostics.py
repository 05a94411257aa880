"""Errors and warnings of a file as it is now (or of unsaved text), and of the workspace."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from lspd.ops.budget import fits
from lspd.ops.checks import check_content, check_positive
from lspd.ops.convert import Converter
from lspd.ops.models import (
    Diagnostic,
    DiagnosticsResult,
    Severity,
)
from lspd.workspace import Workspace
from lspd.workspace.files import MAX_FILE_BYTES

_SEVERITIES: dict[int, Severity] = {1: "error", 2: "warning"}
MAX_MESSAGE_CHARS = 2000  # of one diagnostic's message


async def diagnostics(
    ws: Workspace, path: str, content: str | None = None, limit: int = 100
) -> DiagnosticsResult:
    """Diagnostics of `path` as it is on disk, or of `content` when given (then restored)."""
    check_positive("limit", limit)
    check_content(content, MAX_FILE_BYTES)
    await ws.refresh_open_documents(catch_up=True)
    return await check_file(ws, path, content, limit)


async def check_file(
    ws: Workspace, path: str, content: str | None, limit: int, budget: bool = True
) -> DiagnosticsResult:
    """One file's diagnostics, once the servers hold every change made before the call."""
    resolved = ws.resolve(path)
    async with ws.file_lock(resolved):
        session, document = await ws.open(path, content)
        try:
            raw = await session.diagnostics(document, ws.diagnostics_timeout)
            convert = Converter(ws, session.encoding)
            items = _convert(convert, document.path, raw, document.lines)
        finally:
            if content is not None:
                await ws.open(path)  # the server sees the disk again
    items.sort(key=lambda d: (d.severity != "error", d.line, d.column))
    result = DiagnosticsResult(
        path=ws.display(document.path),
        server=session.name,
        toolchain=session.toolchain,
        environment=_environment_hint(session.toolchain, items),
        fresh=True,
        errors=sum(d.severity == "error" for d in items),
        warnings=sum(d.severity == "warning" for d in items),
        diagnostics=items[:limit],
        total=len(items),
        truncated=len(items) > limit,
    )
    while budget and not fits(result) and len(result.diagnostics) > 1:
        result.diagnostics = result.diagnostics[: len(result.diagnostics) // 2]
        result.truncated = True
    return result


def _convert(
    convert: Converter, path: Path, raw: list[dict[str, Any]], lines: list[str]
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for item in raw:
        severity = _SEVERITIES.get(item.get("severity") or 1)
        if severity is None:
            continue  # hints and information are not problems
        span = convert.span(path, item["range"])
        code = item.get("code")
        out.append(
            Diagnostic(
                severity=severity,
                message=_shorten(str(item.get("message", ""))),
                code=None if code is None else str(code),
                source=item.get("source"),
                **span.model_dump(),
            )
        )
    return out


# Codes of an import that did not resolve, by server (pyright family, ty, pyrefly).
_UNRESOLVED_IMPORT = {"reportMissingImports", "reportMissingModuleSource", "unresolved-import"}


def _environment_hint(toolchain: str | None, items: list[Diagnostic]) -> str | None:
    """Said once when imports did not resolve: which interpreter answered, how to change it."""
    unresolved = any(
        d.code in _UNRESOLVED_IMPORT
        or d.code == "missing-import"
        or "Cannot find module" in d.message
        for d in items
    )
    if not unresolved:
        return None
    used = toolchain or "the server's default"
    return (
        f"imports did not resolve with {used}; install the project's dependencies there, "
        'or set `python = "path/to/venv"` in lspd.toml (a TypeScript project: `npm install`)'
    )


def _shorten(message: str) -> str:
    """A message quoting a huge identifier or type must not blow the answer's budget."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    cut = len(message) - MAX_MESSAGE_CHARS
    return f"{message[:MAX_MESSAGE_CHARS]}… ({cut} more characters)"


def selected(shown: str, globs: list[str] | None) -> bool:
    """Whether the root-relative path `shown` matches one of `globs` (all when none)."""
    if not globs:
        return True
    return any(fnmatch.fnmatch(shown, g) or Path(shown).match(g) for g in globs)
