"""The typed operations: one async function per agent-facing question, each returning a model.

MCP tools and CLI commands are thin transports over these (`lspd.surface.table` names each
function); they add no logic. Importing this package imports none of its modules:
`lspd.ops.models` alone (what the CLI needs to print an answer from the daemon) must not
import the workspace and the language-server sessions.
"""
