"""Language-server definitions (data in `servers.toml`), their lookup and their installation."""

from lspd.servers.registry import ServerDefinition, definition_for_path, definitions

__all__ = ["ServerDefinition", "definition_for_path", "definitions"]
