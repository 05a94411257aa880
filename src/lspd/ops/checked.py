"""A complete whole-workspace check and the answers made of it: the whole of it for
`lspd check`, a page of it for the MCP `workspace_diagnostics` tool, the introduced
diagnostics against a baseline.

A large project's check is tens of MB of JSON, most of it unchanged since the last check:
each file's diagnostics are stamped with its path and turned into JSON once per result of
the server (`Stamp`), not once per check or per page.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic_core import PydanticSerializationError

from lspd.engine.stops import TSC, Stop, at_configuration
from lspd.ops.budget import compact_json, fits
from lspd.ops.check_models import SkippedFile, WorkspaceDiagnosticsResult
from lspd.ops.check_scope import scope_lines
from lspd.ops.models import Changes, DiagnosticsResult, FileDiagnostic, FileDiagnosticCounts
from lspd.ops.mypy_answers import OUTSIDE
from lspd.workspace.scope import GateScope

# Why a checker's syntax errors are its whole answer (`engine/stops.py`), as `stop_line` says.
TSC_WHY = "tsc reports a program's syntax errors alone while it has any"
CONFIG_WHY = "tsc reports a program's configuration errors alone while it has any"
MYPY_WHY = "errors prevented further checking"


@dataclass
class Stamp:
    """One file's diagnostics with its path set, and their JSON text once asked for."""

    result: DiagnosticsResult
    made: list[FileDiagnostic]
    # Their JSON texts, a line each (JSON escapes a line break), zlib-compressed: as str
    # objects SQLAlchemy's 352,004 held 100 MB of the daemon between checks, packed 6 MB
    # (0.3 s to pack them all, 0.2 s to unpack for a whole answer).
    packed: bytes | None = None

    def texts(self) -> list[str]:
        """The JSON text of each of `made`, in order (`stamp(..., texts=True)` packs them)."""
        assert self.packed is not None, "stamped without texts"
        if not self.made:
            return []
        return zlib.decompress(self.packed).decode("utf-8", "surrogatepass").split("\n")


Stamped = dict[str, Stamp]  # by path, shared by the checks of a workspace


def stamp(stamped: Stamped, result: DiagnosticsResult, texts: bool = False) -> Stamp:
    """The file's diagnostics with its path (and with `texts`, their JSON text), made again
    only for a result not seen; the result's stamp in `stamped` from then on."""
    last = stamped.get(result.path)
    if last is None or last.result is not result:
        # Its own diagnostics, their path set: a result of a whole check is no other
        # answer's, and copies of them held SQLAlchemy's 84,000 twice (91 MB).
        for diagnostic in result.diagnostics:
            diagnostic.path = result.path
        last = stamped[result.path] = Stamp(result, result.diagnostics)
    return _packed(last) if texts else last


def _packed(made: Stamp) -> Stamp:
    """`made` with its JSON texts packed (once)."""
    if made.packed is None:
        joined = "\n".join(_text(d) for d in made.made)
        made.packed = zlib.compress(joined.encode("utf-8", "surrogatepass"), 1)
    return made


def _text(diagnostic: FileDiagnostic) -> str:
    """`compact_json(diagnostic)` by pydantic's own serializer: the same text (a diagnostic
    holds ints and strings only) in a fourth of the time, ~1 s of the daemon's CPU for the
    80,000 diagnostics of a SQLAlchemy check; a message with a lone surrogate, which only
    `json.dumps` writes, the slow way."""
    try:
        return diagnostic.model_dump_json(exclude_defaults=True)
    except PydanticSerializationError:
        return compact_json(diagnostic)


@dataclass
class Checked:
    """A complete check: every matched file's diagnostics, in path order."""

    matched: int
    results: list[DiagnosticsResult]
    changes: int  # the workspace's change count it was made at
    stamped: Stamped = field(default_factory=dict)  # shared by the checks of a workspace
    asked: list[Path] = field(default_factory=list)  # the files a server checked for it
    scope: GateScope | None = None  # the gate's files (no paths, not `all`)
    skipped: list[SkippedFile] = field(default_factory=list)  # matched, left out
    stopped: list[Stop] = field(default_factory=list)  # checkers stopped at syntax errors

    @functools.cached_property
    def everything(self) -> list[FileDiagnostic]:
        """Every diagnostic with its file, errors first: made once, however many pages."""
        found = [d for r in self.results for d in self._stamp(r).made]
        found.sort(key=lambda d: (d.severity != "error", d.path or "", d.line, d.column))
        return found

    def errors_of(self, paths: set[str]) -> list[FileDiagnostic]:
        """The errors of the files `paths` names, with their file, as `everything` orders
        them: made for those files alone (a hook's few files, not the whole gate's list)."""
        found = [d for r in self.results if r.path in paths for d in self._stamp(r).made]
        errors = [d for d in found if d.severity == "error"]
        return sorted(errors, key=lambda d: (d.path or "", d.line, d.column))

    def _stamp(self, result: DiagnosticsResult) -> Stamp:
        """The file's diagnostics with its path, made again only for a result not seen."""
        return stamp(self.stamped, result)

    def json_chunks(self) -> Iterator[str]:
        """`summary` as compact JSON text, in pieces of a file's diagnostics each: `lspd check`
        through the daemon streams them, so a large answer (22 MB on SQLAlchemy) is never
        whole in the daemon, whose allocator would keep its peak after."""
        head = compact_json(summary(self).model_copy(update={"diagnostics": []}))
        assert head.endswith("}") and '"diagnostics"' not in head
        yield f'{head[:-1]}{"," if head != "{}" else ""}"diagnostics":['
        sep = ""
        for texts in self._file_texts():
            yield sep + ",".join(texts)
            sep = ","
        yield "]}"

    def json_text(self) -> str:
        """`json_chunks` as one text."""
        return "".join(self.json_chunks())

    @functools.cached_property
    def sizes(self) -> list[int]:
        """The characters each diagnostic of `everything` adds to an answer."""
        return [len(text) for texts in self._file_texts() for text in texts]

    def _file_texts(self) -> Iterator[list[str]]:
        """The JSON texts of `everything` a file's at a time, each file's unpacked when
        reached: `everything` is every file's errors by path, then every file's other
        diagnostics, a file's by place (ties as the file has them)."""
        stamps = sorted((self._stamp(r) for r in self.results), key=lambda s: s.result.path)
        for errors in (True, False):
            for each in stamps:
                if not any((d.severity == "error") == errors for d in each.made):
                    continue
                # Its own stamp: a later check may have stamped the file since (the daemon
                # streams between checks), and `stamp` would put this one back over it.
                made = _packed(each)
                picked = [
                    (d.line, d.column, text)
                    for d, text in zip(made.made, made.texts(), strict=True)
                    if (d.severity == "error") == errors
                ]
                picked.sort(key=lambda p: (p[0], p[1]))  # stable: ties keep the file's order
                yield [text for _, _, text in picked]


def summary(checked: Checked) -> WorkspaceDiagnosticsResult:
    """The whole check as one result: every file's counts and every diagnostic."""
    return result_page(checked, checked.everything, 0, None)


def result_page(
    checked: Checked,
    everything: list[FileDiagnostic],
    offset: int,
    count: int | None,
) -> WorkspaceDiagnosticsResult:
    """Every file's counts and `count` diagnostics from `offset` (all of them: None)."""
    counts = [
        FileDiagnosticCounts(path=r.path, errors=r.errors, warnings=r.warnings)
        for r in checked.results
        if r.total
    ]
    counts.sort(key=lambda c: (-c.errors, -c.warnings, c.path))
    shown = everything[offset:] if count is None else everything[offset : offset + count]
    end = offset + len(shown)
    unchecked = _unchecked(checked)
    result = WorkspaceDiagnosticsResult(
        files_matched=checked.matched,
        files_checked=len(checked.results) - len(unchecked),
        errors=sum(c.errors for c in counts),
        warnings=sum(c.warnings for c in counts),
        files=counts,
        files_with_problems=len(counts),
        diagnostics=list(shown),
        total=len(everything),
        offset=offset,
        truncated=end < len(everything),
        next_offset=end if end < len(everything) else None,
        scope=None if checked.scope is None else scope_lines(checked.scope, count is not None),
        outside_gate=0 if checked.scope is None else checked.scope.outside,
        skipped=sorted([*checked.skipped, *unchecked], key=lambda s: s.path),
        environment=sorted(
            {e for r in checked.results if r.environment for e in r.environment.split("\n")}
        ),
        stopped=[stop_line(stop) for stop in checked.stopped],
    )
    if count is not None:  # a page: the counts list may not crowd out the diagnostics
        while len(result.files) > 1 and not fits(result.model_copy(update={"diagnostics": []})):
            result.files = result.files[: len(result.files) * 3 // 4]
            result.truncated = True
    return result


def _unchecked(checked: Checked) -> list[SkippedFile]:
    """The files whose checker did not check them (`check --all`: one mypy's configuration
    leaves out, `mypy_answers.OUTSIDE`), as skipped, why being their result's `checker`, as
    `diagnostics FILE` says it. Before, counted as checked, and said only there, which the
    whole answer does not carry: neither its JSON nor `lspd check`'s text said a word."""
    outside = [r for r in checked.results if r.checker and r.checker.endswith(OUTSIDE)]
    return [SkippedFile(path=r.path, reason=r.checker or "") for r in outside]


def stop_line(stop: Stop) -> str:
    """A whole check's stop (`engine/stops.py`), said: without it the syntax errors alone
    read as the only errors."""
    at = ", ".join(f"{path}:{line}" for path, line in stop.at[:5])
    at += ", …" if len(stop.at) > 5 else ""
    why = TSC_WHY if stop.checker == TSC else MYPY_WHY
    if at_configuration(stop.checker, (path for path, _ in stop.at)):
        why = CONFIG_WHY
    files = f"the other errors of its {len(stop.files)} file(s) are not checked"
    return f"{stop.checker} stopped at {at} ({why}): {files}"


def introduced(compared: int, changes: Changes) -> WorkspaceDiagnosticsResult:
    """With a baseline the answer is about what is new: its counts, per file too, are the
    introduced diagnostics' (so is `lspd check`'s exit code), listed in `changes`."""
    by_path: dict[str, list[FileDiagnostic]] = {}
    for d in changes.introduced:
        by_path.setdefault(d.path or "", []).append(d)
    counts = [
        FileDiagnosticCounts(
            path=path,
            errors=sum(d.severity == "error" for d in found),
            warnings=sum(d.severity == "warning" for d in found),
        )
        for path, found in by_path.items()
    ]
    counts.sort(key=lambda c: (-c.errors, -c.warnings, c.path))
    return WorkspaceDiagnosticsResult(
        files_matched=compared,
        files_checked=compared,
        errors=sum(c.errors for c in counts),
        warnings=sum(c.warnings for c in counts),
        files=counts,
        files_with_problems=len(counts),
        total=len(changes.introduced),
        changes=changes,
    )
