"""The daemon: one long-lived process per workspace serving MCP over HTTP on 127.0.0.1.

Modules, one concept each: `sentinel` (the `.vscode/.mcp-port` file and the token file),
`lock` (one daemon per root), `binding` (the listening socket), `app` (the ASGI app),
`run` (uvicorn, signals, lifecycle), `client` (finding and calling a running daemon).
"""
