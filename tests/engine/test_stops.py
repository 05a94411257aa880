"""A checker stopped at syntax errors (`engine/stops.py`): which baseline diagnostics it did
not check. tsc parses every file of the program (a syntax error gone from any of them is
fixed); mypy says the errors of the file it stopped at alone (any other is unknown), and
never speaks for basedpyright's diagnostics of a project both judge."""

from __future__ import annotations

from lspd.engine.stops import MYPY, TSC, Stop, at_configuration, hiding, stop_of


def _hides(stop: Stop, path: str, code: str, source: str = MYPY) -> bool:
    return hiding([stop])(path, code, source) is stop


def test_tsc_checked_the_syntax_of_every_file_and_nothing_else() -> None:
    stop = stop_of(TSC, [("src/core.ts", 4)], ["src/core.ts", "src/user.ts"])
    assert stop.at == (("src/core.ts", 4),)
    assert _hides(stop, "src/user.ts", "2322", "ts")  # a type error: not checked
    assert _hides(stop, "src/core.ts", "7010", "typescript")  # the stopping file's too
    assert not _hides(stop, "src/user.ts", "1005", "ts")  # a syntax error gone: fixed
    assert not _hides(stop, "src/other.ts", "2322", "ts")  # another program's


def test_mypy_read_only_the_file_it_stopped_at() -> None:
    stop = stop_of(MYPY, [("app/b.py", 1), ("app/b.py", 1)], ["app/b.py", "app/c.py"])
    assert stop.at == (("app/b.py", 1),)
    assert _hides(stop, "app/c.py", "syntax")  # mypy never parsed c.py
    assert not _hides(stop, "app/b.py", "syntax")
    assert _hides(stop, "app/b.py", "assignment")
    assert not _hides(stop, "app/c.py", "reportAttributeAccessIssue", "basedpyright")
    assert hiding([stop])("lib/d.py", "arg-type", MYPY) is None


def test_a_stop_at_tsconfigs_is_at_the_configuration() -> None:
    assert at_configuration(TSC, ["tsconfig.json:7", "app/tsconfig.app.json:3"])
    assert at_configuration(TSC, ["web/jsconfig.json:1"])
    assert not at_configuration(TSC, ["data.json:2"])  # a JSON module's syntax error
    assert not at_configuration(TSC, ["tsconfig.json:1", "src/a.ts:4"])
    assert not at_configuration(MYPY, ["tsconfig.json:1"])
    assert not at_configuration(TSC, [])
