"""One TypeScript file's `diagnostics` says what tsc says of it (`lsp/diagnostics.tsserver`,
lspd's tsserver plugin's command): `tsc -p` reports a program's semantic diagnostics only
when none of its files has a syntax error, so with one anywhere a file's answer is its own
syntax errors, or nothing (its `checker` saying where tsc stopped). tsserver said TS2391
and TS7010 beside a broken function's TS1005, and a file's type error beside another
file's syntax error. On the project's own TypeScript 5.4 and on lspd's 5.9, the project's
`tsc -p` asserted beside it. (TypeScript 7's `tsc --lsp` takes no plugin:
tests/engine/test_native_file.py.)"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.lsp.diagnostics import unknown_command
from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.workspace.test_tsbuilder_syntax import (
    BROKEN,
    CONFIG,
    CORE,
    FORM,
    TYPE_ERROR,
    USER,
    project,
    tsc_of,
)

__all__ = ["project"]  # core.ts and user.ts on lspd's TypeScript 5.9 and on 5.4, watched


def said(warm: Warm, path: str) -> list[str]:
    """`diagnostics PATH`'s errors in tsc's own form."""
    found = warm.run(diagnostics(warm.ws, path)).diagnostics
    return [f"{path}({d.line},{d.column}): error TS{d.code}: {d.message}" for d in found]


def test_one_file_s_diagnostics_are_what_tsc_says_of_it(project: Warm, tmp_path: Path) -> None:
    root = project.root
    tsc = tsc_of(root, tmp_path, {})
    assert said(project, "src/user.ts") == tsc
    assert said(project, "src/core.ts") == []

    # A syntax error and a type error in one file: the syntax error alone.
    assert tsc_of(root, tmp_path, {"src/user.ts": FORM}) == [
        "src/user.ts(3,19): error TS1109: Expression expected."
    ]
    (root / "src/user.ts").write_text(FORM)
    assert said(project, "src/user.ts") == tsc_of(root, tmp_path, {})
    (root / "src/user.ts").write_text(USER)

    # Another file's syntax error: nothing of user.ts's type error, said with where tsc
    # stopped; core.ts's TS1005 alone.
    (root / "src/core.ts").write_text(BROKEN)
    tsc = tsc_of(root, tmp_path, {})
    assert tsc == ["src/core.ts(4,1): error TS1005: '}' expected."]
    assert said(project, "src/user.ts") == []
    assert project.run(diagnostics(project.ws, "src/user.ts")).checker == (
        "tsc stopped at the syntax error at src/core.ts:4: it reports a program's syntax "
        "errors alone while it has any, so this file's other errors are not checked"
    )
    assert said(project, "src/core.ts") == tsc
    assert project.run(diagnostics(project.ws, "src/core.ts")).checker == (
        "tsc stopped at the syntax error at src/core.ts:4: it reports a program's syntax "
        "errors alone while it has any, so this file's other errors are not checked"
    )

    # Fixed: the type error is back.
    (root / "src/core.ts").write_text(CORE)
    assert said(project, "src/user.ts") == tsc_of(root, tmp_path, {})
    assert project.run(diagnostics(project.ws, "src/user.ts")).checker is None
    # The plugin's command answered throughout: never taken for unknown.
    assert [s.inbox.unknown for s in project.ws.sessions.values()] == [set()]


# typescript-language-server 6.0's errors for tsserver 5.9.3's answers (as seen): an unknown
# command, and the plugin's own error for a file in no project.
UNKNOWN = (
    "typescript-language-server refused workspace/executeCommand: <main> TypeScript Server "
    "Error (5.9.3)\nundefined\nundefined"
)
NO_PROJECT = (
    "typescript-language-server refused workspace/executeCommand: <main> TypeScript Server "
    "Error (5.9.3)\nNo Project.\nError: No Project.\n    at Object.ThrowNoProject "
    "(typescript.js:186170:11)\n    at ask (lspd-open-files/index.js:24:57)"
)


def test_only_an_unknown_command_is_taken_for_the_plugin_s_absence() -> None:
    assert unknown_command(UNKNOWN)
    assert unknown_command("... Unrecognized JSON command: lspdDiagnosticsSync")
    assert not unknown_command(NO_PROJECT)


@pytest.fixture
def unplugged(tmp_path: Path) -> Iterator[Warm]:
    """core.ts and user.ts on a typescript-language-server started without lspd's plugin
    (a server configured otherwise: its command `lspdDiagnosticsSync` is unknown there)."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER)
    (root / "src/form.ts").write_text(FORM)
    for warm in warm_root(root, tmp_path / "logs"):
        definitions = warm.ws.pool.definitions
        server = definitions["typescript-language-server"]
        options = {k: v for k, v in server.initialization_options.items() if k != "plugins"}
        definitions[server.name] = dataclasses.replace(server, initialization_options=options)
        yield warm


def test_without_the_plugin_its_command_is_asked_once_per_session(unplugged: Warm) -> None:
    """Each file's diagnostics paid a failed `lspdDiagnosticsSync` first (4 of 4 files
    asked: 4 failed requests); now the first failure is remembered for the session and the
    other files go straight to tsserver's syntactic and semantic requests."""
    asked: list[str] = []
    session = unplugged.ws.session_for(unplugged.root / "src/user.ts")
    send = session.send

    async def counted(method: Any, params: Any, timeout: float) -> Any:
        if method == "workspace/executeCommand":
            asked.append(params["arguments"][0])
        return await send(method, params, timeout)

    session.send = counted  # type: ignore[method-assign]
    for _ in range(2):
        assert said(unplugged, "src/user.ts") == [TYPE_ERROR]
        assert said(unplugged, "src/core.ts") == []
        assert said(unplugged, "src/form.ts") == [
            "src/form.ts(3,19): error TS1109: Expression expected."
        ]
    checker = unplugged.run(diagnostics(unplugged.ws, "src/form.ts")).checker
    assert checker is not None and checker.startswith(
        "tsc stopped at the syntax error at src/form.ts:3"
    )
    assert session.inbox.unknown == {"lspdDiagnosticsSync"}
    assert asked.count("lspdDiagnosticsSync") == 1
    assert asked.count("syntacticDiagnosticsSync") == 7
    assert asked.count("semanticDiagnosticsSync") == 4
