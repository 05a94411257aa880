"""The turn's start replayed across a configuration edited in the turn (`ops/turn_start.py`,
`ops/turn_configured.py`): an earlier turn left an error uncommitted, the turn edits the
checker's configuration and a source file. Before, no run held the configuration's text
then, so nothing was set aside: the stop blocked for the earlier turn's error too and said
it could not be set aside. Now the turn's start is the engine's state under the
configuration then (as HEAD's under HEAD's), and only what the turn made blocks: its
source edit's error and the errors its configuration edit makes. Real servers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.hook import stop_output
from lspd.daemon.feedback import Feedback
from lspd.ops import turn_start
from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_native_check import CONFIG
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import typescript_committed

STOP: dict[str, Any] = {"event": "stop", "session": "s", "baseline": "HEAD", "wait": 120.0}
TURN: dict[str, Any] = {**STOP, "event": "turn"}
OLD = 'const spare = 2;\nexport const old: number = "x";\n'  # an earlier turn's (TS2322)


def codes(answer: dict[str, Any]) -> list[tuple[str, int, str | None]]:
    return sorted((d["path"], d["line"], d.get("code")) for d in answer["introduced"])


def turned(tmp_path: Path, root: Path, edit: Callable[[], object], head: bool = False) -> Any:
    """The stop's answer after a turn that made `edit` (`head`: HEAD's result kept first)."""
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        if head:
            warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        feedback = Feedback(warm.ws)
        warm.run(feedback.answer(TURN))
        edit()
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        stop = warm.run(feedback.answer(STOP))
        warm.run(feedback.close())
        return stop
    raise AssertionError("no workspace")


def test_a_tsconfig_edit_in_the_turn_sets_the_earlier_error_aside(tmp_path: Path) -> None:
    """TypeScript 5's builder: src/old.ts's TS2322 was there as the turn began; the turn
    turns noUnusedLocals on (old.ts's `spare` is its TS6133: the turn's) and writes
    src/b.ts with an unused local."""
    files = {
        "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}),
        "src/a.ts": "export const n: number = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files)
    (root / "src/old.ts").write_text(OLD)

    def edit() -> None:
        options = {**CONFIG["compilerOptions"], "noUnusedLocals": True}  # type: ignore[dict-item]
        config = {"compilerOptions": options, "include": ["src"]}
        (root / "tsconfig.json").write_text(json.dumps(config))
        (root / "src/b.ts").write_text("const unused = 1;\nexport {};\n")

    stop = turned(tmp_path, root, edit)
    assert (stop["held_before"], stop["held_unknown"]) == (1, False), stop
    assert codes(stop) == [("src/b.ts", 1, "6133"), ("src/old.ts", 1, "6133")]
    said = stop_output(stop, 120.0)
    assert said is not None and said["decision"] == "block"
    assert "TS2322" not in said["reason"] and "2322" not in said["reason"]


PY_FILES = {
    "pyrightconfig.json": json.dumps({"typeCheckingMode": "standard"}),
    "pkg/__init__.py": "",
    "pkg/a.py": "def one() -> int:\n    return 1\n",
    "pkg/b.py": "from pkg.a import one\n\nvalue: int = one()\n",
}


def test_a_pyright_configuration_edit_in_the_turn_sets_the_earlier_error_aside(
    tmp_path: Path,
) -> None:
    """basedpyright: pkg/a.py's error was there as the turn began; the turn turns
    reportUnnecessaryComparison on and writes an error of its own into pkg/b.py."""
    root = committed(written(tmp_path / "p", PY_FILES))
    (root / "pkg/a.py").write_text(PY_FILES["pkg/a.py"] + 'earlier: int = "x"\n')

    def edit() -> None:
        config = {"typeCheckingMode": "standard", "reportUnnecessaryComparison": "error"}
        (root / "pyrightconfig.json").write_text(json.dumps(config))
        (root / "pkg/b.py").write_text(PY_FILES["pkg/b.py"] + "later: str = one()\n")

    stop = turned(tmp_path, root, edit)
    assert (stop["held_before"], stop["held_unknown"]) == (1, False), stop
    assert codes(stop) == [("pkg/b.py", 4, "reportAssignmentType")]


def test_an_earlier_syntax_errors_stop_is_set_aside_across_a_tsconfig_edit(
    tmp_path: Path,
) -> None:
    """tsc stopped at src/old.ts's syntax error as the turn began (an earlier turn's); the
    turn's tsconfig edit leaves it stopped there: the stop the turn began with, set aside.
    Before, the stop blocked ("fix the syntax error") and said it could not be set aside."""
    files = {
        "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}),
        "src/a.ts": "export const n: number = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files)
    (root / "src/old.ts").write_text("export function broken( {\n")
    options = {**CONFIG["compilerOptions"], "noUnusedLocals": True}  # type: ignore[dict-item]
    config = json.dumps({"compilerOptions": options})
    stop = turned(tmp_path, root, lambda: (root / "tsconfig.json").write_text(config))
    assert (stop["held_before"], stop["held_unknown"]) == (1, False), stop
    assert (stop["introduced"], stop["stopped"]) == ([], [])
    assert stop_output(stop, 120.0) == {
        "systemMessage": "lspd: no new error this turn; 1 error(s) the work tree held "
        "against HEAD when this turn began are not counted; `lspd check --baseline HEAD` "
        "lists everything."
    }


def test_a_turn_start_the_engine_cannot_make_is_said_not_set_aside(tmp_path: Path) -> None:
    """The turn's pyright `include` edit chooses other files: no state of the turn's start
    is made under the include then (as none of HEAD's would be: HEAD's is kept from before
    the edit), so nothing is set aside, as before, and the stop says so."""
    files = {**PY_FILES, "pyrightconfig.json": json.dumps({"include": ["pkg"]})}
    root = committed(written(tmp_path / "p", files))
    (root / "pkg/a.py").write_text(PY_FILES["pkg/a.py"] + 'earlier: int = "x"\n')

    def edit() -> None:
        (root / "pyrightconfig.json").write_text(json.dumps({"include": ["pkg", "tools"]}))
        (root / "pkg/b.py").write_text(PY_FILES["pkg/b.py"] + "later: str = one()\n")

    stop = turned(tmp_path, root, edit, head=True)
    assert (stop["held_before"], stop["held_unknown"]) == (0, True), stop
    assert codes(stop) == [
        ("pkg/a.py", 3, "reportAssignmentType"),
        ("pkg/b.py", 4, "reportAssignmentType"),
    ]


def test_a_json_module_edit_in_the_turn_sets_the_earlier_error_aside(tmp_path: Path) -> None:
    """A JSON module a program reads (`resolveJsonModule`) edited in the turn: no server
    holds its text then, tsc -p on a copy does (as HEAD's state after such an edit). The
    earlier turn's src/old.ts TS2322 is set aside; src/use.ts's, which the edit made,
    blocks."""
    options = {**CONFIG["compilerOptions"], "resolveJsonModule": True}  # type: ignore[dict-item]
    files = {
        "tsconfig.json": json.dumps({"compilerOptions": options, "include": ["src"]}),
        "src/data.json": json.dumps({"n": 1}),
        "src/use.ts": 'import data from "./data.json";\n\nexport const n: number = data.n;\n',
    }
    root = typescript_committed(tmp_path / "p", files)
    (root / "src/old.ts").write_text(OLD)
    data = json.dumps({"n": "x"})
    stop = turned(tmp_path, root, lambda: (root / "src/data.json").write_text(data))
    assert (stop["held_before"], stop["held_unknown"]) == (1, False), stop
    assert codes(stop) == [("src/use.ts", 3, "2322")]


def test_a_configured_turn_start_is_made_once_with_no_part_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With files a hook waits for (the session's edited ones), `held_then` takes their part
    first; a state under the configuration then costs what the whole does (tsc -p on a
    copy), so it is made once, for the whole, and no part is told before it."""
    files = {
        "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}),
        "src/a.ts": "export const n: number = 1;\n",
    }
    root = typescript_committed(tmp_path / "p", files)
    (root / "src/old.ts").write_text(OLD)
    made: list[Path] = []
    real = turn_start.configured_then

    async def counted(*args: Any) -> Any:
        made.append(root)
        return await real(*args)

    monkeypatch.setattr(turn_start, "configured_then", counted)
    parts: list[frozenset[str]] = []  # the parts told first
    first = {root / "src/old.ts"}  # the files a hook waits for
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        start = warm.run(turn_start.record(warm.ws, "HEAD"))
        assert start is not None
        options = {**CONFIG["compilerOptions"], "noUnusedLocals": True}  # type: ignore[dict-item]
        (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": options}))
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        before = warm.run(
            turn_start.held_then(warm.ws, start, lambda: first, lambda _, f: parts.append(f))
        )
        assert before is not None and (parts, len(made)) == ([], 1)
        assert {k[:3] for k in before.found} == {("src/old.ts", "error", "2322")}
