"""Fixture projects answered by the server a test names, chosen the way users choose: lspd.toml.

Each fixture is module-scoped, so one warm server answers every test of a language, and runs
the file watcher as the daemon does.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd.ops import file_diagnostics, navigation
from lspd.ops.models import Diagnostic
from lspd.ops.navigation_models import SymbolLocation
from tests.conftest import Warm, warm_workspace


def watched(
    fixture: str,
    tmp_path_factory: pytest.TempPathFactory,
    language: str | None = None,
    server: str | None = None,
) -> Iterator[Warm]:
    """A copy of `fixture` (with an lspd.toml picking `server` for `language`, if given)
    whose file watcher runs."""
    config = f'[languages.{language}]\nserver = "{server}"\n' if server else None
    yield from warm_workspace(fixture, tmp_path_factory, config, watch=True)


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Go fixture module on gopls (the default for Go)."""
    yield from watched("go", tmp_path_factory)


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The C and C++ fixture (compile_flags.txt) on clangd (the default for C/C++)."""
    yield from watched("c", tmp_path_factory)


@pytest.fixture(scope="module")
def ts_native(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The TypeScript fixture on TypeScript 7 native (`tsc --lsp`), an alternative server."""
    yield from watched("ts", tmp_path_factory, "typescript", "typescript-native")


@pytest.fixture(scope="module", params=["ty", "pyrefly"])
def python_alternative(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """The Python fixture on ty, then on pyrefly: the alternatives to basedpyright."""
    yield from watched("py", tmp_path_factory, "python", request.param)


def error_counts(warm: Warm, path: str, *versions: str, checked: str | None = None) -> list[int]:
    """Write each version of `path` in turn and count the errors lspd reports for `checked`
    (default: `path` itself). Nothing waits between a write and the question."""
    counts = []
    for text in versions:
        (warm.root / path).write_text(text)
        result = warm.run(file_diagnostics.diagnostics(warm.ws, checked or path))
        assert result.fresh
        counts.append(result.errors)
    return counts


# The questions every language answers, asked the same way in each language's tests.


def hover(warm: Warm, path: str, line: int, column: int) -> str:
    """The hover text at a position."""
    return warm.run(navigation.hover(warm.ws, path, line, column)).contents


def the_definition(warm: Warm, path: str, line: int, column: int) -> SymbolLocation:
    """The one place the name at a position is defined (a second one fails the test)."""
    [location] = warm.run(navigation.definition(warm.ws, path, line, column)).locations
    return location


def the_problem(warm: Warm, path: str) -> tuple[str, Diagnostic]:
    """The server answering for `path` and its one diagnostic, fresh."""
    result = warm.run(file_diagnostics.diagnostics(warm.ws, path))
    assert result.fresh
    [problem] = result.diagnostics
    return result.server, problem
