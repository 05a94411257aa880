"""The typed operations: one async function per agent-facing question, each returning a model.

MCP tools and CLI commands are thin transports over these; they add no logic.
"""

from lspd.ops.check import workspace_diagnostics
from lspd.ops.diagnostics import diagnostics
from lspd.ops.navigation import (
    call_hierarchy,
    definition,
    hover,
    implementation,
    references,
    type_definition,
)
from lspd.ops.status import servers, status
from lspd.ops.symbols import document_symbols, workspace_symbols

__all__ = [
    "call_hierarchy",
    "definition",
    "diagnostics",
    "document_symbols",
    "hover",
    "implementation",
    "references",
    "servers",
    "status",
    "type_definition",
    "workspace_diagnostics",
    "workspace_symbols",
]
