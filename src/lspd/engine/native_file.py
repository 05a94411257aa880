"""One file's diagnostics on TypeScript 7 as tsc reports them, for a file with a syntax error.

TypeScript 7's LSP (`tsc --lsp`) pulls a file's syntactic and semantic items alike, where
`tsc -p` reports a program's semantic diagnostics only when none of its files has a syntax
error: a broken function's TS1005 came with TS2391 and TS7010, and a type error beside a
syntax error of the same file. Its syntax errors share the parser's range of codes with the
checker's grammar errors (TS1102), so tsc's parser alone tells them
(`tsc_native.parsed_errors`: the text parsed alone, 0.3-0.4 s), asked only when an item has
one of those codes, once per text. Not seen from here: another file's syntax error, which
makes tsc say nothing of this file (the whole check and the preview answer it:
`native_check`, `native_held`); asking the program's files for it would cost a parse of
the program per question (4-6 s on effect).
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any, cast

from lspd.engine.native_check import tsc_item
from lspd.engine.stops import TSC, syntax_code
from lspd.lsp import shapes
from lspd.lsp.diagnostics import Stopped
from lspd.lsp.session import Session
from lspd.workspace.tsc_native import ConfigError, parsed_errors

KEPT = 256  # texts whose parse is kept (all forgotten past that)
_parsed: dict[tuple[Path, str], list[ConfigError]] = {}  # (file, its text's digest) -> errors


async def as_tsc(
    session: Session, path: Path, text: str, items: list[shapes.Diagnostic]
) -> list[shapes.Diagnostic]:
    """`items`, what TypeScript 7's `session` said of `path` holding `text`, as tsc says
    them: the file's syntax errors alone when it has any (`Stopped` at the first: its other
    errors not checked); else `items` themselves (the same list: a caller keeping what it
    made of an answer knows it again)."""
    if not any(syntax_code(TSC, str(i.get("code"))) for i in items):
        return items
    command = session.definition.resolved_command()
    if "--lsp" not in command:
        return items
    key = path, hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    errors = _parsed.get(key)
    if errors is None:
        tsc = command[: command.index("--lsp")]
        errors = await asyncio.to_thread(parsed_errors, tsc, {path: text})
        if len(_parsed) >= KEPT:
            _parsed.clear()
        _parsed[key] = errors
    if not errors:
        return items
    # tsc stopped at them: the file's other errors are not checked (`Stopped`)
    said = [tsc_item({path: items}, error) for error in errors]
    stopped = Stopped(path, min(e.line for e in errors), cast("list[dict[str, Any]]", said))
    return cast("list[shapes.Diagnostic]", stopped)
