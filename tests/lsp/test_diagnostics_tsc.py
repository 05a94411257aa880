"""One TypeScript file's `diagnostics` says what tsc says of it (`lsp/diagnostics.tsserver`,
lspd's tsserver plugin's command): `tsc -p` reports a program's semantic diagnostics only
when none of its files has a syntax error, so with one anywhere a file's answer is its own
syntax errors, or nothing (its `checker` saying where tsc stopped). tsserver said TS2391
and TS7010 beside a broken function's TS1005, and a file's type error beside another
file's syntax error. On the project's own TypeScript 5.4 and on lspd's 5.9, the project's
`tsc -p` asserted beside it. (TypeScript 7's `tsc --lsp` takes no plugin:
tests/engine/test_native_file.py.)"""

from __future__ import annotations

from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import Warm
from tests.workspace.test_tsbuilder_syntax import BROKEN, CORE, FORM, USER, project, tsc_of

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
