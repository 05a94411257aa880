"""The warm pool of language-server sessions for one workspace root."""

from lspd.workspace.workspace import Workspace

__all__ = ["Workspace"]
