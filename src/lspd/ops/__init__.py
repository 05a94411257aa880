"""The typed operations: one async function per agent-facing question, each returning a model.

MCP tools and CLI commands are thin transports over these; they add no logic. The functions
load on first use: `lspd.ops.models` alone (what the CLI needs to print an answer from the
daemon) must not import the workspace and the language-server sessions.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lspd.ops.check import workspace_diagnostics
    from lspd.ops.file_diagnostics import diagnostics
    from lspd.ops.navigation import (
        call_hierarchy,
        definition,
        hover,
        implementation,
        references,
        type_definition,
    )
    from lspd.ops.preview import preview
    from lspd.ops.state import servers, status
    from lspd.ops.symbols import document_symbols, workspace_symbols

# Each operation and the module defining it.
_WHERE = {
    "call_hierarchy": "navigation",
    "definition": "navigation",
    "diagnostics": "file_diagnostics",
    "document_symbols": "symbols",
    "hover": "navigation",
    "implementation": "navigation",
    "preview": "preview",
    "references": "navigation",
    "servers": "state",
    "status": "state",
    "type_definition": "navigation",
    "workspace_diagnostics": "check",
    "workspace_symbols": "symbols",
}

__all__ = [
    "call_hierarchy",
    "definition",
    "diagnostics",
    "document_symbols",
    "hover",
    "implementation",
    "preview",
    "references",
    "servers",
    "status",
    "type_definition",
    "workspace_diagnostics",
    "workspace_symbols",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'lspd.ops' has no attribute {name!r}")
    return getattr(importlib.import_module(f"lspd.ops.{module}"), name)
