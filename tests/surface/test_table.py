"""The table of operations: each declaration derives its parameters and result model from
its ops function's signature, and the names, result models and limits agree with the spec."""

from __future__ import annotations

import inspect

import pytest
from pydantic import BaseModel

from lspd.ops import budget, check
from lspd.surface.table import (
    BY_NAME,
    OPERATIONS,
    POSITION,
    RULES,
    TOOL_NAMES,
    Operation,
    operation,
    result_models,
)
from lspd.surface.words import MAX_LIMIT, SHARED

# The MCP tools of the spec (section 4), no more, no fewer.
SPEC_TOOLS = {
    "diagnostics",
    "workspace_diagnostics",
    "hover",
    "definition",
    "type_definition",
    "implementation",
    "references",
    "document_symbols",
    "workspace_symbols",
    "call_hierarchy",
    "status",
    "preview",
    "rename",
    "fixes",
}


@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
def test_each_operation_is_a_function_of_lspd_ops_with_its_signatures_parameters(
    op: Operation,
) -> None:
    function = op.function
    assert function.__module__.startswith("lspd.ops.")
    assert op.name == function.__name__
    parameters = list(inspect.signature(function).parameters.values())
    if op.takes_workspace:
        assert parameters[0].name == "ws"
        parameters = parameters[1:]
    sent = [p for p in parameters if p.name not in op.internal]
    # Names, order and defaults: MCP and the CLI send the function's own.
    assert [p.name for p in op.all_params] == [p.name for p in sent]
    for param, present in zip(op.all_params, sent, strict=True):
        assert param.required == (present.default is inspect.Parameter.empty), param.name
        assert param.required or param.default == present.default, param.name
    # What the function takes and no transport sends must have a default.
    internal = [p for p in parameters if p.name in op.internal]
    assert all(p.default is not inspect.Parameter.empty for p in internal), internal


def test_only_servers_takes_more_than_it_declares() -> None:
    # `lspd servers` is the CLI's, not a tool: its function's options are read from lspd.toml.
    assert {op.name: op.internal for op in OPERATIONS if op.internal} == {
        "servers": ("chosen", "root", "choice")
    }
    assert [op.name for op in OPERATIONS if not op.takes_workspace] == ["servers"]


def test_every_parameter_has_words_and_the_shared_ones_are_used() -> None:
    used = {p.name for op in OPERATIONS for p in op.params}
    assert set(SHARED) <= used
    for op in OPERATIONS:
        for param in op.all_params:
            assert param.description, (op.name, param.name)


def test_tool_names_are_the_spec_tools_in_table_order() -> None:
    assert tuple(op.name for op in OPERATIONS if op.tool) == TOOL_NAMES
    assert set(TOOL_NAMES) == SPEC_TOOLS
    assert len(TOOL_NAMES) == len(SPEC_TOOLS)
    assert [op.name for op in OPERATIONS if not op.tool] == ["servers"]


def test_names_and_commands_are_unique() -> None:
    names = [op.name for op in OPERATIONS]
    assert len(set(names)) == len(names) == len(BY_NAME)
    assert list(BY_NAME) == names
    commands = [op.command for op in OPERATIONS if op.command is not None]
    commands += [alias for op in OPERATIONS for alias in op.aliases]
    assert len(set(commands)) == len(commands)
    # The two without a query command are the CLI's own `lspd status` / `lspd servers`.
    assert [op.name for op in OPERATIONS if op.command is None] == ["status", "servers"]


def test_each_command_is_its_tool_name_in_kebab_case() -> None:
    for op in OPERATIONS:
        if op.command is not None:
            assert op.command == op.name.replace("_", "-")
    # The CLI's first name for document_symbols stays an alias.
    assert operation("document_symbols").aliases == ("symbols",)


def test_result_models_are_the_declared_pydantic_classes() -> None:
    models = result_models()
    assert list(models) == [op.name for op in OPERATIONS]
    for op in OPERATIONS:
        model = models[op.name]
        assert issubclass(model, BaseModel), op.name
        assert model.__name__ == op.result
        # A model module of the operations (models, state_models, edit_models, ...).
        assert model.__module__.startswith("lspd.ops.") and model.__module__.endswith("models")
        assert model is op.result_model()
    assert models["status"].__module__ == "lspd.ops.state_models"
    assert models["definition"] is models["type_definition"]
    assert issubclass(models["implementation"], models["definition"])  # with `outside`


def test_operation_returns_the_declaration() -> None:
    for op in OPERATIONS:
        assert operation(op.name) is op


def test_an_unknown_operation_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as error:
        operation("hovr")
    [message] = error.value.args
    known = ", ".join(op.name for op in OPERATIONS)
    assert message == f"no operation 'hovr'; operations: {known}"
    assert "hover, definition" in message


def test_each_limit_default_and_maximum_is_as_declared() -> None:
    limits = {
        op.name: (param.default, param.description)
        for op in OPERATIONS
        for param in op.all_params
        if param.name == "limit"
    }
    page = f"Items per page (at most {budget.MAX_LIMIT})."
    assert limits == {
        "diagnostics": (100, page),
        "workspace_diagnostics": (50, page),
        "definition": (50, page),
        "type_definition": (50, page),
        "implementation": (50, page),
        "references": (25, page),
        "document_symbols": (100, page),
        "workspace_symbols": (50, page),
        "call_hierarchy": (50, page),
        "rename": (1000, page),  # files: the budget cuts a page, the CLI's text follows all
        "preview": (1000, page),  # what it introduces: the budget cuts a page (as today's)
        "fixes": (10, page),  # each fix on a page is checked (a `preview`)
    }
    # The maximum said is the one the ops enforce, and the one the server instructions say.
    assert budget.MAX_LIMIT == check.MAX_LIMIT == MAX_LIMIT == 1000
    assert f"at most {budget.MAX_LIMIT})" in RULES


def test_paged_operations_take_limit_then_offset() -> None:
    for op in OPERATIONS:
        names = [p.name for p in op.all_params]
        if "offset" in names:
            assert names[names.index("offset") - 1] == "limit", op.name
            offset = op.all_params[names.index("offset")]
            assert (offset.annotation, offset.default) == (int, 0), op.name


def test_position_operations_take_the_position_first_and_say_so() -> None:
    position = [op.name for op in OPERATIONS if op.position]
    assert position == [
        "hover",
        "definition",
        "type_definition",
        "implementation",
        "references",
        "call_hierarchy",
        "rename",
    ]
    assert [p.name for p in POSITION] == ["path", "line", "column", "symbol"]
    for name in position:
        op = operation(name)
        assert op.all_params[: len(POSITION)] == POSITION
        assert not {p.name for p in op.params} & {p.name for p in POSITION}, name
        # The position rule is said once, in the server instructions.
        assert op.description.endswith(" Position or `symbol`."), name
    assert all(p.default is None and not p.required for p in POSITION)


def test_what_runs_alone_is_an_argument_of_the_operation() -> None:
    alone = {op.name: op.exclusive for op in OPERATIONS if op.exclusive}
    assert alone == {
        "diagnostics": ("content", "baseline"),
        "workspace_diagnostics": ("baseline",),
        "preview": ("*",),
        "rename": ("*",),  # their checks hold text that is not on disk, as a preview's
        "fixes": ("*",),
    }
    for name, arguments in alone.items():
        names = {p.name for p in operation(name).all_params}
        assert set(arguments) <= names | {"*"}, name


def test_cli_forms_are_consistent() -> None:
    for op in OPERATIONS:
        for param in op.all_params:
            if param.cli_form == "negate":  # a flag that sends false: a boolean, true by default
                assert (param.annotation, param.default) == (bool, True), param.name
                assert param.cli == f"--no-{param.name.split('_')[-1]}", param.name
            if param.cli_form in ("file", "json"):  # read from a file named by a flag
                assert param.cli is not None and param.cli.startswith("--"), param.name
            assert param.description.endswith((".", ")")), (op.name, param.name)


def test_only_status_publishes_no_output_schema() -> None:
    assert [op.name for op in OPERATIONS if not op.output_schema] == ["status"]
