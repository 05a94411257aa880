"""The table of operations: each declaration is its ops function's own signature, and the
names, result models and limits derived from it agree with it and with the spec."""

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
    Param,
    _limit,
    operation,
    result_models,
)

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
}


@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
def test_each_operation_is_a_function_of_lspd_ops_with_the_declared_parameters(
    op: Operation,
) -> None:
    module, _, name = op.function.partition(":")
    function = op.resolve()
    assert (function.__module__, function.__name__) == (module, name)
    assert module.startswith("lspd.ops.")
    parameters = list(inspect.signature(function).parameters.values())
    if op.takes_workspace:
        assert parameters[0].name == "ws"
        parameters = parameters[1:]
    own = [
        (p.name, p.default if p.default is not inspect.Parameter.empty else None)
        for p in parameters
    ]
    wanted = [(p.name, None if p.required else p.default) for p in op.all_params]
    # Names, order and defaults: MCP and the CLI send the table's, a direct call the function's.
    assert own[: len(wanted)] == wanted
    for param, present in zip(op.all_params, parameters, strict=False):
        assert param.required == (present.default is inspect.Parameter.empty), param.name
    # What the function takes beyond the declaration is never sent: it must have a default.
    beyond = parameters[len(wanted) :]
    assert all(p.default is not inspect.Parameter.empty for p in beyond), beyond
    if op.takes_workspace:
        assert beyond == []


def test_only_servers_takes_more_than_it_declares() -> None:
    # `lspd servers` is the CLI's, not a tool: its function's options are read from lspd.toml.
    extra = {
        op.name: [
            name
            for name in inspect.signature(op.resolve()).parameters
            if name not in {p.name for p in op.all_params} | {"ws"}
        ]
        for op in OPERATIONS
    }
    assert {name: names for name, names in extra.items() if names} == {
        "servers": ["chosen", "root", "choice"]
    }
    assert [op.name for op in OPERATIONS if not op.takes_workspace] == ["servers"]


def test_the_tables_defaults_are_the_operations_own() -> None:
    # MCP sends the table's defaults, a direct call the function's: they must not differ.
    for op in OPERATIONS:
        signature = inspect.signature(op.resolve())
        for param in op.all_params:
            if not param.required:
                assert signature.parameters[param.name].default == param.default, (op.name, param)


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
    assert len(set(commands)) == len(commands)
    # The two without a query command are the CLI's own `lspd status` / `lspd servers`.
    assert [op.name for op in OPERATIONS if op.command is None] == ["status", "servers"]


def test_result_models_are_the_declared_pydantic_classes() -> None:
    models = result_models()
    assert list(models) == [op.name for op in OPERATIONS]
    for op in OPERATIONS:
        model = models[op.name]
        assert issubclass(model, BaseModel), op.name
        module, _, name = op.result.rpartition(":")
        assert model.__name__ == name
        assert model.__module__ == f"lspd.ops.{module or 'models'}"
        assert model is op.result_model()
    assert models["status"].__module__ == "lspd.ops.state_models"
    assert models["definition"] is models["type_definition"] is models["implementation"]


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


def test_limit_says_its_maximum() -> None:
    assert _limit(50) == Param("limit", int, "Items per page (at most 1000).", default=50)
    assert _limit(10, maximum=200) == Param(
        "limit", int, "Items per page (at most 200).", default=10
    )


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
    }
    # The maximum said is the one the ops enforce, and the one the server instructions say.
    assert budget.MAX_LIMIT == check.MAX_LIMIT == 1000
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
