"""The check engine: which files an edit can affect, their diagnostics, the kept result of a
committed state, and what a change introduced, below the operations that answer with them.

It keeps its own small types (frozen dataclasses) and never imports `lspd.ops`: an
operation turns what the engine found into the answer an agent reads (docs/design.md,
"The check engine").
"""
