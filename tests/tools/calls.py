"""Tool calls with answers in the Python fixture project, shared by the tool and stress tests."""

from __future__ import annotations

from typing import Any

from mcp_types import CallToolResult

# One call of every tool, with inputs that have an answer in the fixture project.
CALLS: dict[str, dict[str, Any]] = {
    "hover": {"path": "pkg/app.py", "line": 1, "column": 26},
    "definition": {"path": "pkg/app.py", "line": 5, "column": 15},
    "type_definition": {"path": "pkg/app.py", "line": 6, "column": 12},
    "implementation": {"symbol": "Greeter.greet", "all": True},
    "references": {"symbol": "Greeter"},
    "document_symbols": {"path": "pkg/greeting.py"},
    "workspace_symbols": {"query": "Greeter"},
    "call_hierarchy": {"symbol": "make_greeter", "direction": "incoming"},
    "diagnostics": {"path": "pkg/broken.py"},
    "workspace_diagnostics": {},
    "status": {},
    "preview": {"changes": [{"path": "pkg/app.py", "content": "x: int = 1\n"}]},
    "rename": {"symbol": "make_greeter", "new_name": "new_greeter"},
    "fixes": {"path": "pkg/broken.py"},
}


def text_of(result: CallToolResult) -> str:
    """The text blocks of a tool's answer, as a model reads them."""
    return "\n".join(getattr(c, "text", "") for c in result.content)
