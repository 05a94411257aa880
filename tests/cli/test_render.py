"""Text output rendered from the wire form: fields left out at their default read as the
model's default, every branch of each renderer says exactly what it said from the model."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from lspd.cli.render import render, unsaid
from lspd.ops import check_models as c
from lspd.ops import edit_models as e
from lspd.ops import models as m
from lspd.ops import navigation_models as n
from lspd.ops import state_models as st
from lspd.ops.budget import compact
from lspd.ops.stopped_model import Stopped
from lspd.surface.table import OPERATIONS


def _problem(**given: object) -> m.Diagnostic:
    fields: dict[str, object] = {
        "line": 3,
        "column": 5,
        "end_line": 3,
        "end_column": 9,
        "severity": "error",
        "message": "bad thing",
    }
    return m.Diagnostic.model_validate({**fields, **given})


CHANGES = m.Changes(
    baseline="HEAD",
    introduced=[
        _problem(path="a.py", code="X1"),
        _problem(path="b.py", severity="warning", line=7),
    ],
    fixed=[_problem(path="c.py")],
    unchanged=4,
    changed=["a.py"],
    scope="1 changed file(s)",
)
# With a baseline the answer is what is new: listed, and counted in its summary line.
CHANGE_LINES = (
    "a.py:3:5: error: bad thing [X1]\nb.py:7:5: warning: bad thing\n"
    "2 new since HEAD (1 error(s), 1 warning(s)), 1 fixed, 4 unchanged (1 changed file(s))"
)
SYMBOL_LOCATIONS = [
    n.SymbolLocation(path="a.py", line=1, column=2, end_line=1, end_column=3, text="x = 1"),
    n.SymbolLocation(
        path="/abs/b.py", line=4, column=1, end_line=4, end_column=2, text="def f():", symbol="f"
    ),
]
REFERENCE = n.Reference(line=4, column=9, text="x.get()", symbol="C.f")
METHOD = n.Symbol(name_path="C.f", kind="method", line=2, column=9, end_line=3, detail="(self)")
PYTHON = st.ServerStatus(
    language="python",
    server="basedpyright",
    projects=[".", "libs/core"],
    state="ready",
    pid=40,
    open_documents=2,
    rss_mb=180.4,
    toolchain="python 3.11.7 /w/.venv/bin/python (project)",
)
GO = st.ServerStatus(language="go", server="gopls", project="svc", state="stopped", pid=None)


def _server(name: str, language: str, **given: object) -> st.ServerInfo:
    fields = {"missing": None, "version": None, "install": None, "found": True, "selected": True}
    return st.ServerInfo.model_validate(
        {"server": name, "language": language, "languages": [language], "command": [name]}
        | fields
        | given
    )


DIFF = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"

CASES: list[tuple[BaseModel, str]] = [
    (
        m.DiagnosticsResult(
            path="a.py",
            server="basedpyright",
            errors=3,
            warnings=0,
            diagnostics=[_problem(code="E1"), _problem(line=4)],
            total=3,
            truncated=True,
            next_offset=2,
        ),
        "a.py:3:5: error: bad thing [E1]\na.py:4:5: error: bad thing\n"
        "3 error(s), 0 warning(s) (basedpyright)\n… 2 of 3 shown; `--offset 2` for the rest",
    ),
    (
        m.DiagnosticsResult(path="a.py", server="ty", errors=0, warnings=0, total=0),
        ("a.py: no errors or warnings (ty)"),
    ),
    (  # outside the files mypy checks (`ops/mypy_answers`): not a clean bill
        m.DiagnosticsResult(
            path="t.py",
            server="mypy",
            checker="mypy: pyproject.toml [tool.mypy]; this file is outside the files mypy "
            "checks: mypy did not check it",
            errors=0,
            warnings=0,
            total=0,
        ),
        "t.py: not checked (mypy): this file is outside the files mypy checks: mypy did not "
        "check it",
    ),
    (
        m.DiagnosticsResult(
            path="a.py", server="ty", errors=1, warnings=1, total=2, changes=CHANGES
        ),
        CHANGE_LINES,
    ),
    (
        c.WorkspaceDiagnosticsResult(
            files_matched=9,
            files_checked=8,
            errors=5,
            warnings=1,
            files=[m.FileDiagnosticCounts(path="a.py", errors=5, warnings=1)],
            files_with_problems=3,
            diagnostics=[_problem(path="a.py", code="E9")],
            total=6,
            offset=2,
            truncated=True,
            next_offset=3,
        ),
        "a.py: 5 error(s), 1 warning(s)\na.py:3:5: error: bad thing\n"
        "... 2 more file(s) with problems\n8 file(s) checked: 5 error(s), 1 warning(s)\n"
        "diagnostics 3-3 of 6; `--offset 3` for the rest (`lspd check` lists all)",
    ),
    (
        c.WorkspaceDiagnosticsResult(
            files_matched=3, files_checked=3, errors=1, warnings=1, total=2, changes=CHANGES
        ),
        CHANGE_LINES,
    ),
    (  # a page of what a change introduced: the counts are all of it
        c.WorkspaceDiagnosticsResult(
            files_matched=3,
            files_checked=3,
            errors=7,
            warnings=1,
            total=8,
            offset=2,
            truncated=True,
            next_offset=4,
            changes=CHANGES.model_copy(update={"fixed_total": 3}),
        ),
        CHANGE_LINES.replace("2 new", "8 new")
        .replace("(1 error(s), 1", "(7 error(s), 1")
        .replace("1 fixed", "3 fixed")
        + "\n… 3-4 of 8 shown; `--offset 4` for the rest",
    ),
    (
        c.WorkspaceDiagnosticsResult(
            files_matched=3,
            files_checked=3,
            errors=0,
            warnings=0,
            total=0,
            scope=[
                c.CheckScope(language="python", project=".", config="pyrightconfig.json", files=2),
                c.CheckScope(language="typescript", project="web", files=1, note="no tsconfig"),
            ],
            outside_gate=4,
        ),
        "3 file(s) checked: 0 error(s), 0 warning(s)\n"
        "scope: .: pyrightconfig.json, 2 file(s)\n"
        "scope: web: no configuration, 1 file(s) (no tsconfig)\n"
        "4 source file(s) no gate checks left out (--all)",
    ),
    (
        m.PreviewResult(
            errors=0,
            warnings=0,
            files=[m.FileDiagnosticCounts(path="a.py", errors=1, warnings=0)],
            changes=m.Changes(
                baseline="disk", introduced=[], fixed=[], unchanged=1, scope="this file"
            ),
        ),
        "0 new since disk (0 error(s), 0 warning(s)), 0 fixed, 1 unchanged (this file)",
    ),
    (  # an import of a file not written yet: not introduced, said not checked through
        m.PreviewResult(
            errors=0,
            warnings=0,
            changes=m.Changes(
                baseline="disk",
                introduced=[],
                fixed=[],
                scope="2 changed file(s)",
                unchecked=[
                    m.UncheckedImport(
                        path="pkg/app.py",
                        lines=[3, 4],
                        imports=["pkg/new.py"],
                        set_aside=2,
                        why="pkg/new.py not written yet",
                    )
                ],
            ),
        ),
        "pkg/app.py:3: not checked: pkg/new.py not written yet\n"
        "0 new since disk (0 error(s), 0 warning(s)), 0 fixed, 0 unchanged (2 changed file(s))",
    ),
    (  # a checker stopped at a syntax error: the baseline errors it did not check, said
        m.PreviewResult(
            errors=1,
            warnings=0,
            changes=m.Changes(
                baseline="disk",
                introduced=[CHANGES.introduced[0].model_copy(update={"code": "1005"})],
                fixed=[],
                scope="1 changed file(s)",
                stopped=[
                    m.Stopped(checker="tsc", at=["a.py:3"], files=["b.ts", "c.ts"], not_checked=3)
                ],
            ),
            total=1,
        ),
        "a.py:3:5: error: bad thing [1005]\n"
        "tsc stopped at a.py:3 and checked nothing else: 3 baseline diagnostic(s) of b.ts, "
        "c.ts not checked (not fixed)\n"
        "1 new since disk (1 error(s), 0 warning(s)), 0 fixed, 0 unchanged (1 changed file(s))",
    ),
    (  # stopped with no baseline error elsewhere: still said (nothing else was checked)
        m.PreviewResult(
            errors=0,
            warnings=0,
            changes=m.Changes(
                baseline="disk",
                introduced=[],
                fixed=[],
                scope="1 changed file(s)",
                stopped=[m.Stopped(checker="mypy", at=["a.py:3"], files=[], not_checked=0)],
            ),
        ),
        "mypy stopped at a.py:3 and checked nothing else\n"
        "0 new since disk (0 error(s), 0 warning(s)), 0 fixed, 0 unchanged (1 changed file(s))",
    ),
    (  # a preview's first page says where the rest starts
        m.PreviewResult(
            errors=5,
            warnings=0,
            changes=CHANGES.model_copy(update={"introduced": CHANGES.introduced[:1]}),
            total=5,
            truncated=True,
            next_offset=1,
        ),
        "a.py:3:5: error: bad thing [X1]\n"
        "5 new since HEAD (5 error(s), 0 warning(s)), 1 fixed, 4 unchanged (1 changed file(s))\n"
        "… 1-1 of 5 shown; `--offset 1` for the rest",
    ),
    (  # and its last page that it is the last
        m.PreviewResult(
            errors=5,
            warnings=0,
            changes=CHANGES.model_copy(update={"introduced": CHANGES.introduced[:1]}),
            total=5,
        ),
        "a.py:3:5: error: bad thing [X1]\n"
        "5 new since HEAD (5 error(s), 0 warning(s)), 1 fixed, 4 unchanged (1 changed file(s))\n"
        "… the last 1 of 5",
    ),
    (
        n.HoverResult(found=False, path="pkg/a.py", line=2, column=7),
        "pkg/a.py:2:7: nothing to show",
    ),
    (n.HoverResult(found=False), "nothing to show"),
    (n.HoverResult(contents="\n```python\nx: int\n```\n\n"), "```python\nx: int\n```"),
    (n.LocationsResult(total=0), "no location found"),
    (
        n.LocationsResult(
            total=5, truncated=True, next_offset=2, asked=1, locations=SYMBOL_LOCATIONS
        ),
        "a.py:1:2: x = 1\n/abs/b.py:4:1: def f():  [f]  (asked)\n"
        "… 2 of 5 shown; `--offset 2` for the rest",
    ),
    (
        n.ImplementationResult(
            total=0,
            outside=[
                n.FileReferences(
                    path="tests/t.py",
                    count=1,
                    references=[
                        n.Reference(line=3, column=9, text="class Fake(T):", symbol="Fake")
                    ],
                )
            ],
            outside_total=1,
        ),
        "no location found\ntests/t.py:3:9: class Fake(T):  [Fake]  (outside)\n"
        "1 use(s) of the name in files the gate does not check (`--all` asks about them)",
    ),
    (
        n.ReferencesResult(summary="0 references in 0 files; no other use of `f`", total=0),
        "0 references in 0 files; no other use of `f`",
    ),
    (
        n.ReferencesResult(
            summary="1 reference in 1 file; 3 more uses of `.get` (`unresolved`)",
            total=1,
            truncated=True,
            next_offset=1,
            files=[n.FileReferences(path="a.py", count=1, references=[REFERENCE])],
            unresolved=[
                n.FileReferences(path="b.py", count=2, references=[REFERENCE]),
                n.FileReferences(path="c.py", count=1),
            ],
            unresolved_total=3,
        ),
        "a.py:4:9: x.get()  [C.f]\nb.py:4:9: x.get()  [C.f]  (unresolved)\n"
        "c.py: 1 unresolved\n1 reference in 1 file; 3 more uses of `.get` (`unresolved`)\n"
        "… 1 of 1 shown; `--offset 1` for the rest",
    ),
    (n.DocumentSymbolsResult(path="a.py", total=0), "a.py"),
    (
        n.DocumentSymbolsResult(
            path="a.py",
            total=9,
            truncated=True,
            next_offset=2,
            symbols=[
                n.Symbol(
                    name_path="C", kind="class", line=1, column=7, end_line=9, children=[METHOD]
                )
            ],
        ),
        "a.py\n  class C  :1:7\n    method C.f  :2:9\n… 2 of 9 shown; `--offset 2` for the rest",
    ),
    (
        n.WorkspaceSymbolsResult(
            total=4,
            truncated=True,
            next_offset=1,
            symbols=[
                n.WorkspaceSymbol(name_path="C.f", kind="method", path="a.py", line=2, column=9)
            ],
        ),
        "method C.f  a.py:2:9\n… 1 of 4 shown; `--offset 1` for the rest",
    ),
    (
        n.CallHierarchyResult(
            summary="",
            total=0,
            direction="outgoing",
            item=n.CallItem(symbol="C.f", kind="method", path="a.py", line=2, column=9),
        ),
        "method C.f (a.py:2) calls:\n  nothing",
    ),
    (
        n.CallHierarchyResult(
            total=3,
            truncated=True,
            next_offset=1,
            direction="incoming",
            item=n.CallItem(symbol="f", kind="function", path="a.py", line=2, column=5),
            calls=[
                n.Call(symbol="main", kind="function", path="b.py", line=8, column=3, text="f()")
            ],
            summary="3 calls in 2 files; 1 more use of `.f` (`unresolved`)",
            unresolved=[
                n.Call(symbol="g", kind="function", path="c.py", line=2, column=7, text="o.f()")
            ],
            unresolved_total=1,
        ),
        "function f (a.py:2) called by:\n  function main at b.py:8:3: f()\n"
        "  function g at c.py:2:7: o.f()  (unresolved)\n"
        "3 calls in 2 files; 1 more use of `.f` (`unresolved`)\n"
        "… 1 of 3 shown; `--offset 1` for the rest",
    ),
    (
        e.RenameResult(
            old_name="total",
            new_name="subtotal",
            diff=DIFF,
            files=[e.FileEdits(path="a.py", edits=1)],
            edits=1,
            total=1,
            check=m.Changes(baseline="disk", introduced=[], fixed=[], scope="1 changed file"),
        ),
        "rename `total` to `subtotal`: 1 edit(s) in 1 file(s) (not applied; `git apply` the "
        "diff)\n0 new since disk (0 error(s), 0 warning(s)), 0 fixed, 0 unchanged (1 changed "
        "file)\n" + DIFF.rstrip("\n"),
    ),
    (
        e.RenameResult(
            old_name="a",
            new_name="b",
            diff=DIFF,
            files=[e.FileEdits(path="a.py", edits=1)],
            edits=60,
            total=60,
            truncated=True,
            next_offset=1,
            note="not checked: 60 files",
        ),
        "rename `a` to `b`: 60 edit(s) in 60 file(s) (not applied; `git apply` the diff)\n"
        "… the diff of 1 file(s); `--offset 1` for the rest\n"
        "note: not checked: 60 files\n" + DIFF.rstrip("\n"),
    ),
    (
        e.FixesResult(
            path="a.py",
            server="basedpyright",
            diagnostics=1,
            fixes=[
                e.Fix(
                    title="from pathlib import Path",
                    preferred=True,
                    diagnostic=_problem(message='"Path" is not defined'),
                    diff=DIFF,
                    check=m.Changes(
                        baseline="disk",
                        introduced=[],
                        fixed=[_problem(path="a.py", message='"Path" is not defined')],
                        scope="1 changed file",
                    ),
                ),
                e.Fix(title="Organize imports", diff=DIFF, note="the server would also run x"),
            ],
            total=12,
            truncated=True,
            next_offset=2,
            skipped=["Install types: it runs the server's command `x`, which lspd never runs"],
        ),
        "a.py: 2 fix(es) for 1 problem(s) (basedpyright)\n"
        'fix 1: from pathlib import Path (preferred) for a.py:3:5: "Path" is not defined\n'
        "0 new since disk (0 error(s), 0 warning(s)), 1 fixed, 0 unchanged (1 changed file)\n"
        + DIFF.rstrip("\n")
        + "\nfix 2: Organize imports\nnote: the server would also run x\n"
        + DIFF.rstrip("\n")
        + "\n2 of 12 fixes shown; `--offset 2` for the rest\n"
        "skipped: Install types: it runs the server's command `x`, which lspd never runs",
    ),
    (
        st.StatusResult(
            workspace="/w", pid=12, version="0.9", uptime_s=61.6, watches=7, servers=[PYTHON, GO]
        ),
        "lspd 0.9 for /w (pid 12, up 62 s)\n"
        "  watching 7 directories\n"
        "  python: basedpyright [., libs/core] ready pid=40 open=2 180 MB\n"
        "    runs python 3.11.7 /w/.venv/bin/python (project)\n"
        "  go: gopls [svc] stopped pid=None open=0",
    ),
    (
        st.StatusResult(
            workspace="/w",
            pid=12,
            version="0.9",
            uptime_s=5,
            servers=[
                st.ServerStatus(
                    language="python",
                    server="basedpyright",
                    project="/s/python-copy-kept",
                    state="ready",
                    pid=41,
                    rss_mb=120,
                    kept_for="previews on a copy of the project, for 300 s after the last",
                )
            ],
        ),
        "lspd 0.9 for /w (pid 12, up 5 s)\n"
        "  python: basedpyright [/s/python-copy-kept] ready pid=41 open=0 120 MB\n"
        "    kept for previews on a copy of the project, for 300 s after the last",
    ),
    (
        st.StatusResult(
            workspace="/w",
            pid=12,
            version="0.9",
            uptime_s=0.2,
            restricted=True,
            watches=3,
            watch_problem="the system's limit of 3 watches is reached",
            servers=[],
        ),
        "lspd 0.9 for /w (pid 12, up 0 s, restricted: no project code runs)\n"
        "  watching: the system's limit of 3 watches is reached\n"
        "  no language server running (they start on first use)",
    ),
    (
        st.ServersResult(
            servers=[
                _server("basedpyright", "python", version="1.40.2", toolchain="python 3.11"),
                _server("ty", "python", selected=False),
                _server("rust-analyzer", "rust", found=False, missing="not on PATH"),
            ]
        ),
        "python      * basedpyright                found 1.40.2; runs python 3.11\n"
        "              ty                          found (version unknown)\n"
        "rust        * rust-analyzer               missing (not on PATH); install: see docs",
    ),
]


@pytest.mark.parametrize(("model", "text"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_each_renderer_reads_the_wire_form_with_the_models_defaults(
    model: BaseModel, text: str
) -> None:
    # The wire form leaves out every field at its default (the MCP answer, --json).
    assert render(type(model).__name__, compact(model)) == text
    # The whole dump (as `lspd servers` passes it) reads the same.
    assert render(type(model).__name__, model.model_dump(mode="json")) == text


def test_every_operation_has_a_renderer_and_every_renderer_is_tested() -> None:
    tested = {type(model).__name__ for model, _ in CASES}
    assert {op.result.rpartition(":")[2] for op in OPERATIONS} == tested
    # An answer of no known result is printed as indented JSON, not dropped.
    assert render("Unknown", {"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}'


def test_a_part_not_compared_is_said_though_it_hid_nothing() -> None:
    """A part of the gate not compared at the baseline (`Stopped.why`) whose errors now are
    none, or all on lines the baseline cannot have (introduced): its fixed errors are not
    known either, so the text says it; a checker's stop that hid nothing is not said."""
    part = Stopped(checker="the Python files", at=[], files=[], not_checked=0, why="WHY")
    stop = Stopped(checker="tsc", at=["a.ts:1"], files=[], not_checked=0)
    changes = {"baseline_stopped": [compact(part), compact(stop)]}
    assert unsaid(changes) == ["at the baseline, the Python files were not compared (WHY)"]
