"""One file's `diagnostics` on TypeScript 7 (`engine/native_file.as_tsc`): a file with a
syntax error is answered as tsc says it, its syntax errors alone (TypeScript 7's pull said
TS2391 and TS7010 beside a broken function's TS1005, a type error beside a syntax error of
the same file); a checker's grammar error of the parser's codes is no syntax error, and the
file's other errors stay said with it. The project's own tsc -p on 7.0.2 asserted beside."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.workspace.test_tsbuilder_syntax import BROKEN, CONFIG, CORE, FORM, USER, tsc_of
from tests.workspace.toolchains import TS7_PINNED, typescript_package

GRAMMAR = USER + "let q = 1;\ndelete q;\n"  # TS1102, a checker's: with the type error


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """core.ts and user.ts (one type error) on TypeScript 7.0.2, the watcher running."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    yield from watched(root, tmp_path / "logs")


def said(warm: Warm, path: str) -> list[str]:
    """`diagnostics PATH`'s errors in tsc's own form."""
    found = warm.run(diagnostics(warm.ws, path)).diagnostics
    return [f"{path}({d.line},{d.column}): error TS{d.code}: {d.message}" for d in found]


def test_a_file_with_a_syntax_error_says_it_alone_as_tsc(project: Warm, tmp_path: Path) -> None:
    root = project.root
    assert said(project, "src/user.ts") == tsc_of(root, tmp_path, {})

    (root / "src/user.ts").write_text(FORM)
    assert (
        said(project, "src/user.ts")
        == tsc_of(root, tmp_path, {})
        == ["src/user.ts(3,19): error TS1109: Expression expected."]
    )
    # said with where tsc stopped: the file's type error is not checked (never read as fixed)
    assert project.run(diagnostics(project.ws, "src/user.ts")).checker == (
        "tsc stopped at the syntax error at src/user.ts:3: it reports a program's syntax "
        "errors alone while it has any, so this file's other errors are not checked"
    )
    (root / "src/user.ts").write_text(GRAMMAR)
    grammar = tsc_of(root, tmp_path, {})
    assert [line.split(": ")[1] for line in grammar] == [
        "error TS2322",
        "error TS1102",
        "error TS2703",
    ]
    assert sorted(said(project, "src/user.ts")) == sorted(grammar)
    assert project.run(diagnostics(project.ws, "src/user.ts")).checker is None  # no stop

    (root / "src/user.ts").write_text(USER.replace("string", "number"))
    (root / "src/core.ts").write_text(BROKEN)
    assert (
        said(project, "src/core.ts")
        == tsc_of(root, tmp_path, {})
        == ["src/core.ts(4,1): error TS1005: '}' expected."]
    )
