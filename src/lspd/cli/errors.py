"""Errors as the command line says them: one line, in the CLI's own words.

The operations word their errors for MCP, the transport an agent reads most: they name
arguments (`` `path`, `line` and `column` ``, `` `baseline: "session"` ``, `` `offset` ``).
At a terminal the same advice names what is typed instead (`PATH:LINE:COL`,
`--baseline session`, `--offset`). `for_cli` is that translation, once, from the table of
operations (each parameter's CLI spelling), so a new parameter or command is worded
without touching a message. Failures that are not lspd's own errors (a file the command
line names that cannot be read, a bug) become one line too: no traceback reaches a user.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lspd.errors import InvalidInput, LspdError, kind_of
from lspd.surface.commands import commands
from lspd.surface.operation import Param

POSITION = "PATH:LINE:COL"
# `path` with/and `line` and `column` in any of the ways the operations combine them.
_POSITION = re.compile(r"`path`(?:,| with| and) `line` and `column`|`line` and `column`")
# `name: value` or `name: "value"`: an argument with its value.
_ASSIGNED = re.compile(r'`(\w+): "?([^`"]*)"?`')
_NAMED = re.compile(r"`(\w+)`")


def describe(exc: BaseException, command: str | None = None) -> tuple[str, str]:
    """The error as one line in the CLI's words, and its stable kind (`lspd.errors.KINDS`)."""
    if isinstance(exc, LspdError):
        return one_line(for_cli(str(exc))), kind_of(exc)
    if isinstance(exc, OSError | UnicodeDecodeError):
        return one_line(unreadable(exc)), "invalid_input"
    where = f" in `lspd {command}`" if command else ""
    return (
        one_line(f"lspd failed{where} ({type(exc).__name__}: {exc}); LSPD_DEBUG=1 shows where"),
        "internal",
    )


def one_line(message: str) -> str:
    """A multi-line message (a list of candidates) joined into one line."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())


def unreadable(exc: OSError | UnicodeDecodeError, flag: str | None = None) -> str:
    """What was wrong with a file the command line named, and what to send instead."""
    named = f"{flag} " if flag else ""
    if isinstance(exc, UnicodeDecodeError):
        return f"{named}is not UTF-8 text; send a text file"
    name = f"{named}{exc.filename}" if exc.filename is not None else named.strip() or "a file"
    if isinstance(exc, FileNotFoundError):
        return f"{name}: no such file; send an existing file (or - for stdin)"
    if isinstance(exc, IsADirectoryError):
        return f"{name} is a directory; send a file (or - for stdin)"
    if isinstance(exc, NotADirectoryError):
        return f"{name}: a part of the path is a file, not a directory"
    if isinstance(exc, PermissionError):
        return f"{name}: permission denied; send a file you can read"
    return f"{name}: {exc.strerror or exc}"


def read_input(flag: str, value: str) -> str:
    """The text a flag names: a file's (UTF-8), or stdin's for `-`, as written (its \\r\\n
    and \\r kept: a patch's lines are git's, a content's the file's); `InvalidInput`
    saying what was wrong otherwise."""
    try:
        if value == "-":
            raw = getattr(sys.stdin, "buffer", None)  # None: a stream of text already
            return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
        with Path(value).open(encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, UnicodeDecodeError):
            raise InvalidInput(f"{flag} {value}: {unreadable(exc)}") from None
        raise InvalidInput(unreadable(exc, flag)) from None


def for_cli(message: str) -> str:
    """An operation's message with its argument names as the command line spells them."""
    message = _POSITION.sub(POSITION, message)
    message = _ASSIGNED.sub(lambda m: _assigned(m.group(1), m.group(2), m.group(0)), message)
    return _NAMED.sub(lambda m: _quoted(_spelling(m.group(1))) or m.group(0), message)


def _assigned(name: str, value: str, original: str) -> str:
    spelled = _spelling(name)
    if spelled is None or not spelled.startswith("--"):
        return original
    return f"`{spelled} {value}`"


def _quoted(spelled: str | None) -> str | None:
    """A flag or command in backticks; a positional's metavar (`PATH`) as it is."""
    if spelled is None:
        return None
    return spelled if spelled.isupper() or ":" in spelled else f"`{spelled}`"


def _spelling(name: str) -> str | None:
    """`--limit`, `--content-file`, `PATH`, `lspd references`: the CLI form of an argument
    or operation named in a message; None for a word that is neither."""
    if name in _COMMANDS:
        return f"lspd {_COMMANDS[name]}"
    param = _PARAMS.get(name)
    if param is None:
        return None
    if name == "path":
        return "PATH"
    if param.cli_form == "negate":
        return param.cli or f"--no-{name.replace('_', '-')}"
    if param.cli_form in ("file", "json"):
        return param.cli or f"--{name.replace('_', '-')}-file"
    if param.required or (param.cli is not None and not param.cli.startswith("-")):
        return (param.cli or name).upper()
    return param.cli or f"--{name.replace('_', '-')}"


_COMMANDS = {op.name: op.command for op in commands()}
_PARAMS: dict[str, Param] = {
    "symbol": Param("symbol", str, "", default=None),
    "line": Param("line", int, "", cli=POSITION),
    "column": Param("column", int, "", cli=POSITION),
    **{p.name: p for op in commands() for p in op.params if p.name != "symbol"},
}
