"""An operation's declaration and `call`: its parameters and result model read from the ops
function, in call order, and a call holding text that is not on disk run alone."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation, navigation_models, references, state, state_models
from lspd.surface.operation import POSITION, REQUIRED, Operation, Param, call
from lspd.surface.table import operation
from lspd.surface.words import SHARED
from tests.conftest import Warm, warm_root

NO_SERVER = "no language server handles pyproject.toml (.toml)"
CONFIGURATION = "pyproject.toml is a checker's configuration"  # a preview refuses it (90266b1)
PYRIGHT = '[project]\nname = "own"\n\n[tool.pyright]\nstrict = ["."]\n'


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Warm]:
    """A workspace of its own holding no source file, so the calls below never start a
    language server (a session baseline's first check would check the gate's files)."""
    root = tmp_path / "own"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "own"\n')
    yield from warm_root(root, tmp_path / "logs")


def test_a_param_without_a_default_is_required() -> None:
    assert Param("path", str, "File.").required
    assert Param("path", str, "File.").default is REQUIRED
    assert not Param("path", str | None, "File.", default=None).required
    assert not Param("limit", int, "Items.", default=0).required
    assert repr(REQUIRED) == "REQUIRED"
    assert Param("path", str, "File.").cli_form == "value"


def test_declarations_are_frozen_and_hashable() -> None:
    # Hashable: the argument model of each operation is cached by its declaration.
    op = operation("references")
    assert hash(op) == hash(dataclasses.replace(op))
    with pytest.raises(dataclasses.FrozenInstanceError):
        op.params[0].default = False  # type: ignore[misc]


def test_all_params_puts_the_position_first() -> None:
    at = Operation(navigation.implementation, "d")
    limit = Param("limit", int, "Items per page (at most 1000).", default=50)
    offset = Param("offset", int, "0-based index of the first item: a `next_offset`.", 0)
    words = SHARED["all"]
    everywhere = Param("all", bool, words.description, False, None, "flag", words.cli_help)
    assert at.position and at.all_params == (*POSITION, limit, offset, everywhere)
    assert at.params == (limit, offset, everywhere)
    assert at.description == "d Position or `symbol`."
    assert operation("status").all_params == ()
    assert not operation("document_symbols").position  # `path` first, but no line


def test_a_parameter_without_words_is_refused_naming_it() -> None:
    op = Operation(references.references, "d")
    with pytest.raises(LookupError, match="references: no words for its parameter"):
        _ = op.all_params


def test_the_result_model_is_the_functions_return_annotation() -> None:
    assert operation("hover").function is navigation.hover
    assert operation("servers").function is state.servers
    assert operation("hover").result_model() is navigation_models.HoverResult
    assert operation("status").result == "StatusResult"
    assert operation("status").result_model() is state_models.StatusResult


def test_an_operation_without_a_workspace_is_called_without_one() -> None:
    result = asyncio.run(call(operation("servers"), None, {}))
    assert type(result) is state_models.ServersResult
    assert {info.language for info in result.servers} >= {"python", "typescript", "go"}


def test_a_plain_function_is_called_and_its_answer_returned(own: Warm) -> None:
    result = own.run(call(operation("status"), own.ws, {}))  # status is not a coroutine
    assert type(result) is state_models.StatusResult
    assert result.workspace == str(own.root)
    assert result.servers == []


# (operation, arguments, runs alone): a call holding text that is not on disk (`content`,
# a baseline, a preview) has the workspace alone; an argument sent as null does not count.
GATED = [
    ("diagnostics", {"path": "pyproject.toml"}, False),
    ("diagnostics", {"path": "pyproject.toml", "content": None, "baseline": None}, False),
    ("diagnostics", {"path": "pyproject.toml", "content": "x = 1\n"}, True),
    ("diagnostics", {"path": "pyproject.toml", "baseline": "HEAD"}, True),
    # a checker's section: refused as a configuration (an edit no checker reads is answered)
    ("preview", {"changes": [{"path": "pyproject.toml", "content": PYRIGHT}]}, True),
    ("workspace_diagnostics", {"paths": ["none/*.zz"]}, False),
    ("workspace_diagnostics", {"paths": ["none/*.zz"], "baseline": "session"}, True),
    ("status", {}, False),
]


@pytest.mark.parametrize(
    ("name", "arguments", "alone"), GATED, ids=[f"{n}-{a}" for n, a, _ in GATED]
)
def test_a_call_holding_text_not_on_disk_runs_alone(
    own: Warm, name: str, arguments: dict[str, Any], alone: bool
) -> None:
    op = operation(name)

    async def beside_another_call() -> tuple[bool, Any]:
        async with own.ws.gate.shared():  # another call is running
            task = asyncio.create_task(call(op, own.ws, arguments))
            # None of these calls waits on anything but the gate: one turn of the loop
            # ends it (it fails before asking a server); three leave room.
            for _ in range(3):
                await asyncio.sleep(0)
            ran = task.done()
        answers = await asyncio.gather(task, return_exceptions=True)
        return ran, answers[0]

    ran, answer = own.run(beside_another_call())
    assert ran is not alone
    if name in ("status", "workspace_diagnostics"):
        assert type(answer) is op.result_model()
    else:
        assert isinstance(answer, InvalidInput)
        assert str(answer).startswith(CONFIGURATION if name == "preview" else NO_SERVER)
