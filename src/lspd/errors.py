"""The errors lspd reports to its users. Each message says what was wrong and what to do."""

from __future__ import annotations


class LspdError(Exception):
    """Base of every error meant for the user; its message is shown as is."""


class InvalidInput(LspdError):
    """The request itself is wrong: bad path, position, symbol or argument."""


class ServerError(LspdError):
    """A language server is missing, crashed, timed out or refused the request."""

    def __init__(self, server: str, message: str) -> None:
        super().__init__(message)
        self.server = server


class ServerNotInstalled(ServerError):
    pass


class ServerCrashed(ServerError):
    pass


class ServerTimeout(ServerError):
    pass


class ConfigError(LspdError):
    """`lspd.toml` is not valid: the message names the key and what is allowed."""


class DaemonError(LspdError):
    """The daemon cannot start, or cannot be reached."""
