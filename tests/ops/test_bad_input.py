"""Every kind of bad input gets an error that says what was wrong and what to send instead."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from lspd.errors import InvalidInput
from lspd.ops import file_diagnostics, navigation, references
from tests.conftest import Warm, warm_workspace


@pytest.fixture
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A private copy of the Python fixture, for tests that write into it (the refusals
    come before any server starts)."""
    yield from warm_workspace("py", tmp_path_factory)


def error_of(py: Warm, coroutine: object) -> str:
    with pytest.raises(InvalidInput) as caught:
        py.run(coroutine)  # type: ignore[arg-type]
    return str(caught.value)


def test_missing_file(py: Warm) -> None:
    assert "does not exist" in error_of(py, navigation.hover(py.ws, "pkg/nope.py", 1, 1))


def test_directory(py: Warm) -> None:
    assert "is a directory" in error_of(py, file_diagnostics.diagnostics(py.ws, "pkg"))


def test_binary_file(own: Warm) -> None:
    (own.root / "pkg/blob.py").write_bytes(b"\x00\x01\x02binary")
    assert "binary" in error_of(own, file_diagnostics.diagnostics(own.ws, "pkg/blob.py"))


def test_line_zero(py: Warm) -> None:
    assert "lines start at 1" in error_of(py, navigation.hover(py.ws, "pkg/app.py", 0, 1))


def test_column_zero(py: Warm) -> None:
    assert "columns start at 1" in error_of(py, navigation.hover(py.ws, "pkg/app.py", 1, 0))


def test_line_past_the_end_of_the_file(py: Warm) -> None:
    message = error_of(py, navigation.hover(py.ws, "pkg/app.py", 500, 1))
    assert "past the end" in message and "lines" in message


def test_column_past_the_end_of_the_line(py: Warm) -> None:
    message = error_of(py, navigation.hover(py.ws, "pkg/app.py", 1, 300))
    assert "past the end of line 1" in message and "characters" in message


def test_unknown_language(own: Warm) -> None:
    (own.root / "notes.txt").write_text("hello\n")
    message = error_of(own, navigation.hover(own.ws, "notes.txt", 1, 1))
    assert "no language server handles notes.txt" in message and ".py" in message


def test_dotdot_escape(py: Warm) -> None:
    assert "outside the workspace" in error_of(
        py, navigation.hover(py.ws, "../../etc/passwd", 1, 1)
    )


def test_absolute_path_outside(py: Warm) -> None:
    assert "outside the workspace" in error_of(
        py, file_diagnostics.diagnostics(py.ws, "/etc/hostname")
    )


def test_symlink_escape(own: Warm, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.py"
    outside.write_text("x = 1\n")
    os.symlink(outside, own.root / "pkg/link.py")
    assert "outside the workspace" in error_of(
        own, file_diagnostics.diagnostics(own.ws, "pkg/link.py")
    )


def test_absolute_path_inside_is_accepted(py: Warm) -> None:
    result = py.run(file_diagnostics.diagnostics(py.ws, str(py.root / "pkg/app.py")))
    assert result.path == "pkg/app.py"


def test_wrong_types(py: Warm) -> None:
    assert "integer" in error_of(py, navigation.hover(py.ws, "pkg/app.py", "5", 5))  # type: ignore[arg-type]
    assert "limit" in error_of(py, references.references(py.ws, "pkg/app.py", 5, 5, limit=0))
    assert "direction" in error_of(
        py,
        references.call_hierarchy(py.ws, "pkg/app.py", 4, 5, direction="sideways"),  # type: ignore[arg-type]
    )


def test_position_missing(py: Warm) -> None:
    assert "`line` and `column`" in error_of(py, navigation.hover(py.ws, "pkg/app.py"))
    assert "symbol" in error_of(py, navigation.hover(py.ws))


def test_position_and_symbol_together(py: Warm) -> None:
    assert "not both" in error_of(py, navigation.hover(py.ws, "pkg/app.py", 1, 1, symbol="main"))


def test_server_keeps_answering_after_bad_input(py: Warm) -> None:
    error_of(py, navigation.hover(py.ws, "pkg/app.py", 999, 1))
    assert py.run(navigation.hover(py.ws, "pkg/app.py", 5, 5)).found
