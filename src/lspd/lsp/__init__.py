"""Talking to one language server: process, JSON-RPC, initialize, documents, positions."""
