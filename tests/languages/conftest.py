"""Fixture projects answered by the server a test names, chosen the way users choose: lspd.toml.

Each fixture is module-scoped, so one warm server answers every test of a language.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lspd import ops
from tests.conftest import Warm, warm_workspace


def chosen(
    fixture: str, language: str, server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """A copy of `fixture` whose lspd.toml picks `server` for `language`."""
    config = f'[languages.{language}]\nserver = "{server}"\n'
    yield from warm_workspace(fixture, tmp_path_factory, config)


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Go fixture module on gopls (the default for Go)."""
    yield from warm_workspace("go", tmp_path_factory)


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The C and C++ fixture (compile_flags.txt) on clangd (the default for C/C++)."""
    yield from warm_workspace("c", tmp_path_factory)


@pytest.fixture(scope="module")
def ts_native(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The TypeScript fixture on TypeScript 7 native (`tsc --lsp`), an alternative server."""
    yield from chosen("ts", "typescript", "typescript-native", tmp_path_factory)


@pytest.fixture(scope="module", params=["ty", "pyrefly"])
def python_alternative(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """The Python fixture on ty, then on pyrefly: the alternatives to basedpyright."""
    yield from chosen("py", "python", request.param, tmp_path_factory)


def error_counts(warm: Warm, path: str, *versions: str) -> list[int]:
    """Write each version of `path` in turn and count the errors lspd reports for it."""
    counts = []
    for text in versions:
        (warm.root / path).write_text(text)
        result = warm.run(ops.diagnostics(warm.ws, path))
        assert result.fresh
        counts.append(result.errors)
    return counts
