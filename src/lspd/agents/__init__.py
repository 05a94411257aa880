"""Registering the daemon with coding agents. Each agent is a TOML descriptor in this package."""

from lspd.agents.descriptor import AgentDescriptor, get_descriptor, load_descriptors
from lspd.agents.sync import FileResult, SyncReport, sync_agents

__all__ = [
    "AgentDescriptor",
    "FileResult",
    "SyncReport",
    "get_descriptor",
    "load_descriptors",
    "sync_agents",
]
