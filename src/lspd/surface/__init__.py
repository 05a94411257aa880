"""What an agent sees of lspd, declared once: the table of operations (`table`) and the
argument checks (`arguments`) that the MCP tools and the CLI both derive from.

Transports import this package; it imports `lspd.ops` only when an operation runs, so the
CLI can read the table without importing pydantic, the workspace or the MCP SDK.
"""
