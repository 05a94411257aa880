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
    """The language server a file needs is not installed; the message says how to install it."""


class ServerCrashed(ServerError):
    """The language server exited or broke its pipe; the next call starts it again."""


class ServerTimeout(ServerError):
    """The language server did not answer in time (it is asked to cancel)."""


class ConfigError(LspdError):
    """`lspd.toml` is not valid: the message names the key and what is allowed."""


class DaemonError(LspdError):
    """The daemon cannot start, or cannot be reached."""


# A stable name per error class, for scripts (`lspd ... --json` prints `{"error", "kind"}`).
KINDS: dict[type[LspdError], str] = {
    InvalidInput: "invalid_input",
    ServerNotInstalled: "server_not_installed",
    ServerCrashed: "server_crashed",
    ServerTimeout: "server_timeout",
    ServerError: "server_error",
    ConfigError: "config_error",
    DaemonError: "daemon_error",
}


# Where a tool error carries its kind over MCP (the `_meta` of the tool's result).
ERROR_KIND_META = "lspd/kind"


def kind_of(error: LspdError) -> str:
    """The stable kind of `error`: its class's, else the nearest base's, else `error`."""
    for cls in type(error).__mro__:
        if cls in KINDS:
            return KINDS[cls]
    return getattr(error, "kind", "error")
