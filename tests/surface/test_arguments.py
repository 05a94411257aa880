"""The argument checks both transports run: unknown arguments, booleans for integers and
lone surrogates refused; pydantic's report rewritten as one line per wrong argument, then
what the operation takes."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from lspd.errors import InvalidInput
from lspd.surface.arguments import argument_model, check, explain, input_schema, takes, validate
from lspd.surface.table import OPERATIONS, Operation, operation

HOVER_TAKES = (
    "hover takes path (string), line (integer), column (integer), symbol (string), content (string)"
)
REFERENCES_TAKES = (
    "references takes path (string), line (integer), column (integer), symbol (string), "
    "include_declaration (boolean), limit (integer), offset (integer), unresolved (boolean), "
    'kind ("all" or "calls"), all (boolean)'
)
DIAGNOSTICS_TAKES = (
    "diagnostics takes path (string), content (string), limit (integer), offset (integer), "
    "baseline (string); "
    "required: path"
)
WORKSPACE_DIAGNOSTICS_TAKES = (
    "workspace_diagnostics takes paths (list of string), limit (integer), offset (integer), "
    "baseline (string), all (boolean)"
)
CALL_HIERARCHY_TAKES = (
    "call_hierarchy takes path (string), line (integer), column (integer), symbol (string), "
    'direction ("incoming" or "outgoing"), limit (integer), offset (integer), '
    "unresolved (boolean), all (boolean)"
)


@pytest.mark.parametrize("op", OPERATIONS, ids=[op.name for op in OPERATIONS])
def test_the_input_schema_is_the_declaration(op: Operation) -> None:
    schema = input_schema(op)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert list(schema["properties"]) == [p.name for p in op.all_params]
    assert schema.get("required", []) == [p.name for p in op.all_params if p.required]
    for param in op.all_params:
        published = schema["properties"][param.name]
        assert published["description"] == param.description, param.name
        if param.required:
            assert "default" not in published, param.name
        else:
            assert published["default"] == param.default, param.name


def test_the_schema_of_a_choice_and_a_list() -> None:
    direction = input_schema(operation("call_hierarchy"))["properties"]["direction"]
    assert direction["enum"] == ["incoming", "outgoing"]
    assert direction["default"] == "incoming"
    paths = input_schema(operation("workspace_diagnostics"))["properties"]["paths"]
    assert paths["anyOf"] == [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}]


def test_the_argument_model_is_made_once_per_operation() -> None:
    op = operation("hover")
    assert argument_model(op) is argument_model(op)
    assert argument_model(op).__name__ == "hoverArguments"


def test_validate_fills_in_the_defaults() -> None:
    assert validate(operation("references"), {"symbol": "Greeter"}) == {
        "path": None,
        "line": None,
        "column": None,
        "symbol": "Greeter",
        "include_declaration": True,
        "limit": 25,
        "offset": 0,
        "unresolved": True,
        "kind": "all",
        "all": False,
    }
    assert validate(operation("references"), {"include_declaration": False, "limit": 3}) == {
        "path": None,
        "line": None,
        "column": None,
        "symbol": None,
        "include_declaration": False,
        "limit": 3,
        "offset": 0,
        "unresolved": True,
        "kind": "all",
        "all": False,
    }
    assert validate(operation("status"), {}) == {}
    changes = [{"path": "a.py", "content": None}]
    paged = {"changes": changes, "limit": 1000, "offset": 0}
    assert validate(operation("preview"), {"changes": changes}) == paged


BAD = [
    ("hover", {"col": 3}, f"hover has no argument `col`. {HOVER_TAKES}"),
    (
        "hover",
        {"col": 3, "x" * 70: 1},
        f"hover has no argument `col`, `{'x' * 60}`. {HOVER_TAKES}",
    ),
    ("status", {"a": 1}, "status has no argument `a`. status takes no arguments"),
    (
        "references",
        {"symbol": "Greeter", "limit": True},
        f"`limit` must be an integer, not true. {REFERENCES_TAKES}",
    ),
    ("hover", {"line": True}, f"`line` must be an integer, not true. {HOVER_TAKES}"),
    (
        "diagnostics",
        {"path": "a.py", "limit": False},
        f"`limit` must be an integer, not false. {DIAGNOSTICS_TAKES}",
    ),
    (
        "workspace_symbols",
        {},
        "`query` is required. workspace_symbols takes query (string), kind (string), "
        "limit (integer), offset (integer); required: query",
    ),
    (
        "call_hierarchy",
        {"symbol": "main", "direction": "up"},
        f"`direction` must be 'incoming' or 'outgoing', not \"up\". {CALL_HIERARCHY_TAKES}",
    ),
    ("hover", {"line": "five"}, f'`line` must be an integer, not "five". {HOVER_TAKES}'),
    ("hover", {"line": 1.5}, f"`line` must be an integer, not 1.5. {HOVER_TAKES}"),
    ("hover", {"line": {1}}, f"`line` must be an integer, not {{1}}. {HOVER_TAKES}"),
    (
        "references",
        {"line": "a", "column": "b"},
        f'`line` must be an integer, not "a"; `column` must be an integer, not "b". '
        f"{REFERENCES_TAKES}",
    ),
    (
        "references",
        {"include_declaration": "maybe"},
        f'`include_declaration` must be a boolean, not "maybe". {REFERENCES_TAKES}',
    ),
    ("references", {"path": True}, f"`path` must be a string, not true. {REFERENCES_TAKES}"),
    (
        "workspace_diagnostics",
        {"paths": "src"},
        f'`paths` must be a list, not "src". {WORKSPACE_DIAGNOSTICS_TAKES}',
    ),
    (
        "workspace_diagnostics",
        {"paths": [1]},
        f"`paths[0]` must be a string, not 1. {WORKSPACE_DIAGNOSTICS_TAKES}",
    ),
    (
        "preview",
        {"changes": [{"path": 1}]},
        "`changes[0].path` must be a string, not 1. preview takes changes (list of object), "
        "limit (integer), offset (integer); required: changes",
    ),
    (
        "diagnostics",
        {"path": "a.py", "limit": "y" * 100},
        f'`limit` must be an integer, not "{"y" * 56}.... {DIAGNOSTICS_TAKES}',
    ),
    (
        "hover",
        {"path": "a\ud800b"},
        "`path` is not valid Unicode (a lone surrogate at character 2); send UTF-8 text",
    ),
    (
        "workspace_diagnostics",
        {"paths": ["ok", "x\udc00"]},
        "`paths` is not valid Unicode (a lone surrogate at character 2); send UTF-8 text",
    ),
]


@pytest.mark.parametrize(("name", "given", "message"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_arguments_say_what_is_wrong_and_what_to_send(
    name: str, given: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInput) as error:
        validate(operation(name), given)
    assert str(error.value) == message


def test_check_refuses_what_pydantic_lets_through_and_passes_the_rest() -> None:
    hover = operation("hover")
    schema = input_schema(hover)
    check("hover", schema, {"path": "pkg/app.py", "line": 1, "column": 2})
    check("hover", schema, {"line": None})
    # A boolean is refused for an integer only, not for a boolean.
    references = input_schema(operation("references"))
    check("references", references, {"include_declaration": False})
    with pytest.raises(InvalidInput, match=r"^`column` must be an integer, not false\. hover"):
        check("hover", schema, {"column": False})
    # Pydantic itself takes `true` for the integer 1 and drops an unknown argument.
    assert argument_model(hover).model_validate({"line": True}).model_dump()["line"] == 1
    with pytest.raises(ValidationError):
        argument_model(hover).model_validate({"col": 3})


def test_explain_a_report_on_the_arguments_themselves() -> None:
    op = operation("hover")
    with pytest.raises(ValidationError) as error:
        argument_model(op).model_validate("x")
    assert explain("hover", input_schema(op), error.value) == (
        f'`arguments` must be a dictionary or instance of hoverArguments, not "x". {HOVER_TAKES}'
    )


def test_takes_names_each_argument_and_its_type() -> None:
    assert takes("hover", input_schema(operation("hover"))) == HOVER_TAKES
    assert takes("call_hierarchy", input_schema(operation("call_hierarchy"))) == (
        CALL_HIERARCHY_TAKES
    )
    assert takes("servers", input_schema(operation("servers"))) == "servers takes no arguments"
    mixed = {"properties": {"a": {}, "b": {"anyOf": [{"type": "integer"}, {"enum": ["u"]}]}}}
    assert takes("x", mixed) == 'x takes a (any), b (integer or "u")'
    assert takes("x", {**mixed, "required": ["a", "b"]}) == (
        'x takes a (any), b (integer or "u"); required: a, b'
    )
