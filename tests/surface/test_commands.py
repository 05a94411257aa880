"""The table as the CLI reads it: `commands.json` is the table written out, and reads back
as the table's own parameters."""

from __future__ import annotations

import json

from lspd.surface import commands
from lspd.surface.table import OPERATIONS, operation


def test_commands_json_is_the_table_written_out() -> None:
    # After changing an operation: .venv/bin/python -m lspd.surface.commands
    written = commands.written(OPERATIONS)
    assert json.loads(commands.FILE.read_text(encoding="utf-8")) == written, (
        "src/lspd/surface/commands.json is not the table: run "
        "`.venv/bin/python -m lspd.surface.commands`"
    )


def test_each_command_reads_back_as_its_operation() -> None:
    read = commands.commands()
    assert [c.name for c in read] == [op.name for op in OPERATIONS if op.command is not None]
    for command in read:
        op = operation(command.name)
        assert (command.command, command.aliases) == (op.command, op.aliases)
        assert (command.description, command.position) == (op.about, op.position)
        assert command.result == op.result
        # The same parameters, but for the types: the command line needs only its scalar.
        assert [
            (p.name, p.description, p.default, p.cli, p.cli_form, p.cli_help)
            for p in command.params
        ] == [(p.name, p.description, p.default, p.cli, p.cli_form, p.cli_help) for p in op.params]


def test_types_read_back_as_the_command_line_needs_them() -> None:
    by_name = {c.name: {p.name: p.annotation for p in c.params} for c in commands.commands()}
    assert by_name["call_hierarchy"]["direction"].__args__ == ("incoming", "outgoing")
    assert by_name["workspace_diagnostics"]["paths"] == list[str] | None
    assert by_name["document_symbols"]["depth"] == int | None
    assert by_name["references"]["include_declaration"] is bool
