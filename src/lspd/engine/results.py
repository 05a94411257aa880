"""What the engine sees of a caller's results: one file's result (`FileResult`) and each of
its diagnostics (`Diagnosed`), read-only.

The results are the caller's own objects (`ops`: its answer models `DiagnosticsResult` and
`Diagnostic`), never copied into engine types: a whole check reuses a file's result object
while its server answers "unchanged", and what is kept beside it (the comparison's verdict
per result, the stamped JSON texts of `ops/checked.py`) is found again by identity. What
the engine keeps of them itself is `engine/seen.py`'s (`seen_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from lspd.engine.stops import Stop


class Diagnosed(Protocol):
    """One diagnostic: 1-based lines, columns in code points (end exclusive)."""

    @property
    def severity(self) -> str: ...
    @property
    def code(self) -> str | None: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...
    @property
    def source(self) -> str | None: ...


class FileResult(Protocol):
    """One file's result: its path as an answer shows it, who answered, its diagnostics."""

    @property
    def path(self) -> str: ...
    @property
    def server(self) -> str: ...
    @property
    def toolchain(self) -> str | None: ...
    @property
    def diagnostics(self) -> Sequence[Diagnosed]: ...


class Left(Protocol):
    """A file a whole check left without a result, and why (`engine/check_files.Skipped`'s
    reason, `NOT_ANSWERED` first when its server did not answer)."""

    @property
    def path(self) -> str: ...
    @property
    def reason(self) -> str: ...


class WholeCheck(Protocol):
    """A whole check of the gate's files, as the kept result is made of it (`changes`: the
    watcher's count of changes it was made at, -1 without one; `stopped`: its checkers that
    stopped at syntax errors, `engine/stops.py`)."""

    @property
    def results(self) -> Sequence[FileResult]: ...
    @property
    def skipped(self) -> Sequence[Left]: ...
    @property
    def changes(self) -> int: ...
    @property
    def stopped(self) -> Sequence[Stop]: ...
