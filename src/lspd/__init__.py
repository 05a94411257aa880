"""lspd: warm language servers for coding agents, over MCP and a CLI."""

__version__ = "0.1.0"
