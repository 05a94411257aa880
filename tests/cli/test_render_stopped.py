"""`lspd check --baseline HEAD`'s text when a checker stopped at a syntax error
(`cli/render.py`): a baseline's stop is said only when it hid something (a diagnostic now
that its checker did not check there), as the hooks say it. HEAD committed with core.ts's
syntax error and the work tree still so: both states stopped there, HEAD's stop hid
nothing, and the text said it beside the work tree's ("at the baseline, tsc stopped at
src/core.ts:4 and checked nothing else"). Once fixed, user.ts's TS2322 is unknown at HEAD:
said, in the MCP tool's text and in `lspd check --baseline HEAD`'s (which printed the work
tree's stops alone). Real builder (lspd's TypeScript 5.9), its tsc asserted beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.check import _print_changes
from lspd.cli.render import render
from lspd.ops.budget import compact_json
from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.ops.test_kept_stops import broken_head
from tests.workspace.test_tsbuilder_syntax import CORE, tsc_of

STOP = "tsc stopped at src/core.ts:4 and checked nothing else"


def stop_lines(result: Any) -> list[str]:
    """The lines of the CLI's text (from the wire form it renders) saying a stop."""
    wire = json.loads(compact_json(result))
    return [line for line in render(type(result).__name__, wire).splitlines() if "stop" in line]


def printed_stop_lines(result: Any, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines `lspd check --baseline HEAD` prints (no --json) saying a stop."""
    capsys.readouterr()
    _print_changes(json.loads(compact_json(result))["changes"], errors_only=False)
    return [line for line in capsys.readouterr().out.splitlines() if "stop" in line]


def test_a_baseline_stop_is_said_only_when_it_hid_something(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = broken_head(tmp_path)
    assert tsc_of(root, tmp_path, {}) == ["src/core.ts(4,1): error TS1005: '}' expected."]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        both = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert both.changes is not None and both.changes.baseline_stopped != []
        assert stop_lines(both) == [STOP]  # HEAD's stop hid nothing: the work tree's alone
        assert printed_stop_lines(both, capsys) == [STOP]
        (root / "src/core.ts").write_text(CORE)
        assert tsc_of(root, tmp_path, {})[0].startswith("src/user.ts(2,14): error TS2322")
        fixed = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        hidden = [
            f"at the baseline, {STOP}: 1 diagnostic(s) of src/user.ts not checked there "
            "(not counted new: unknown there, maybe new)"
        ]
        # the CLI's own text too: `lspd check --baseline HEAD` printed the stops of now alone
        assert stop_lines(fixed) == printed_stop_lines(fixed, capsys) == hidden
