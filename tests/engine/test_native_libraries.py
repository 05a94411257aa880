"""A TypeScript 7 program's library files in the daemon's check (its watcher running): their
errors are tsc -p's (a package's .d.ts with a TS2416, file, line, column and code), pulled at
the first check, kept through an edit that cannot reach them (no library file asked again),
and pulled again after an edit of global declarations (src/config.d.ts taking away the global
type the package uses: its TS2304 said as tsc says it). Real TypeScript 7.0.2 and its tsc."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import native_libraries
from lspd.lsp.session import Session
from lspd.ops.check import check_all
from tests.conftest import Warm, answer, warm_root
from tests.workspace.test_tsbuilder_libraries import (
    CONFIG_TYPE,
    LIBRARY,
    OWN,
    Found,
    _project,
    _truth,
)
from tests.workspace.toolchains import TS7_PINNED

PACKAGE = "node_modules/some-pkg/index.d.ts"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    root = _project(tmp_path / "p", TS7_PINNED, more={"src/config.d.ts": CONFIG_TYPE})
    yield from warm_root(root, tmp_path / "logs", watch=True)


def _check(warm: Warm) -> Found:
    results = warm.run(check_all(warm.ws)).results
    return {(r.path, d.line, d.column, d.code or "") for r in results for d in r.diagnostics}


def test_library_errors_are_pulled_again_only_after_a_global_edit(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    pulls: list[str] = []
    pulling = native_libraries.pulled

    async def counted(session: Session, path: Path, timeout: float) -> list[Any]:
        pulls.append(project.ws.display(path))
        return await pulling(session, path, timeout)

    monkeypatch.setattr(native_libraries, "pulled", counted)
    assert _check(project) == _truth(project.root) == {LIBRARY, OWN}
    assert PACKAGE in pulls  # TypeScript's lib files besides

    pulls.clear()
    a = project.root / "src/a.ts"
    a.write_text(a.read_text().replace("number = 'x'", "number = 1"))  # reaches no library
    assert _check(project) == _truth(project.root) == {LIBRARY}
    assert pulls == []

    (project.root / "src/config.d.ts").write_text("interface Other {}\n")  # a global gone
    broken = {LIBRARY, (PACKAGE, 7, 25, "2304")}
    assert _check(project) == _truth(project.root) == broken
    assert PACKAGE in pulls


def test_a_configuration_stop_says_no_library_error(tmp_path: Path) -> None:
    """tsc -p stops at an option TypeScript 7 removed (TS5102) and says nothing of the files,
    the package's TS2416 neither."""
    root = _project(tmp_path / "p", TS7_PINNED)
    config = json.loads((root / "tsconfig.json").read_text())
    config["compilerOptions"]["baseUrl"] = "."
    (root / "tsconfig.json").write_text(json.dumps(config))
    truth = _truth(root)
    assert {(p, c) for p, _, _, c in truth} == {("tsconfig.json", "5102")}
    results = answer(root, check_all).results
    assert {
        (r.path, d.line, d.column, d.code or "") for r in results for d in r.diagnostics
    } == truth
