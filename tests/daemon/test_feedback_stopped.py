"""The stop gate and the post-edit hook when the checker stopped at a syntax error
(`daemon/feedback.py`, `cli/hook.py`): mypy exits 2 at a blocking error and checks nothing
else, so a check introducing nothing there proves nothing. The session starts with
tests/test_mock.py's syntax error committed; the agent writes a type error into
app/main.py: mypy stops at test_mock.py again, nothing is introduced, and the stop went
silently. Now the edit's answer says where mypy stopped, the stop is blocked once for it,
not again for the same stop; once the syntax error is fixed, mypy finds the type error.
HEAD's mypy never read that file (HEAD's kept result records its stop), but HEAD's text of
it lacks what the error points at, so no error of HEAD's can be it: introduced
(`changes._unseen`). An error at text HEAD's file holds stays unknown there, and the stop
is blocked once for HEAD's stop, telling the agent to run the project's own checker (the
TypeScript case). On a real mypy 2.4.1, against the project's own mypy run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from lspd.cli.hook import edit_output, stop_output
from lspd.daemon.feedback import Feedback
from tests.conftest import copy_fixture, warm_root
from tests.engine.test_config_stops_jsconfig import JSCONFIG
from tests.engine.test_native_check import CONFIG
from tests.ops.test_baseline import committed
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.test_tsbuilder_syntax import tsc_of
from tests.workspace.toolchains import typescript_committed

TEST_MOCK = (
    "from app import mock\n\n\ndef test_it() -> None:\n    assert mock.Mock().handle() == 1\n"
)
FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app", "tests"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/mock.py": "class Mock:\n    def handle(self) -> int:\n        return 1\n",
    "app/main.py": "right: int = 1\n",
    "tests/__init__.py": "",
    "tests/test_mock.py": TEST_MOCK + "\n\ndef broken(:\n    pass\n",  # line 8
}
STOPPED = "mypy stopped at the syntax error at tests/test_mock.py:8"
AT_HEAD = f"at HEAD, {STOPPED}"  # HEAD's kept result's stop, once the work tree's is fixed
BAD = "export function broken( {\n"  # tsc stops at src/bad.ts:2 (its end)
WRONG = 'export const wrong: number = "x";\n'  # src/more.ts's type error (line 4)
STOP: dict[str, Any] = {"event": "stop", "session": "s", "baseline": "HEAD", "wait": 120.0}
EDIT: dict[str, Any] = {**STOP, "event": "edit"}


def mypy_exit(root: Path) -> tuple[int, str]:
    """The project's own mypy: its exit status and output."""
    done = subprocess.run(
        [str(root / ".venv/bin/mypy"), "--cache-dir", "/dev/null"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout


def test_a_stopped_checker_blocks_the_stop_once_and_is_said_after_an_edit(
    tmp_path: Path,
) -> None:
    root = committed(project(tmp_path / "p", FILES))
    main = root / "app/main.py"
    main.write_text(FILES["app/main.py"] + 'wrong: int = ""\n')
    status, out = mypy_exit(root)  # the truth: mypy stops at test_mock.py, main.py unchecked
    assert status == 2 and "(errors prevented further checking)" in out, out
    assert {line.split(": error")[0] for line in out.splitlines()[:-1]} == {"tests/test_mock.py:8"}
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        edit = warm.run(feedback.answer({**EDIT, "paths": ["app/main.py"]}))
        assert edit["complete"] is True and edit["introduced"] == [], edit
        assert edit["stopped"] == [STOPPED]
        assert edit_output("claude-code", edit, 3.0) == {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": f"lspd: {STOPPED}: the rest is not checked, so what this "
                "edit introduced is not known; fix the syntax error, then the check proves it.",
            }
        }
        first = warm.run(feedback.answer(STOP))
        assert first["stopped"] == [STOPPED] and first["repeat"] is False
        assert stop_output(first, 60.0) == {
            "decision": "block",
            "reason": f"lspd: {STOPPED}: the rest is not checked, so whether this session's "
            "changes introduced errors is not known; fix the syntax error, then the check "
            "proves them.",
        }
        again = warm.run(feedback.answer(STOP))  # the same stop: it goes, said
        assert again["repeat"] is True
        assert stop_output(again, 60.0) == {
            "systemMessage": f"lspd: {STOPPED}: the rest is not checked, so whether this "
            "session's changes introduced errors is not known (as at the last stop)."
        }
        # Fixed: mypy goes on and finds main.py's error. HEAD's mypy stopped at
        # test_mock.py and never read main.py (HEAD's kept result records the stop), but
        # HEAD's main.py lacks the text the error points at: no error of HEAD's could be
        # it, so it is introduced, and the stop is blocked for it.
        (root / "tests/test_mock.py").write_text(TEST_MOCK)
        fixed = warm.run(feedback.answer({**EDIT, "paths": ["tests/test_mock.py"]}))
        assert fixed["stopped"] == [] and fixed["complete"] is True
        errors = [(p, line, code) for p, line, _, code, _ in cli_errors(root)]
        assert errors == [("app/main.py", 2, "assignment")]  # what the project's mypy says
        last = warm.run(feedback.answer(STOP))
        said = [(d["path"], d["line"], d["code"]) for d in last["introduced"]]
        assert (said, last["stopped"], last["repeat"]) == (errors, [], False)
        assert "decision" in (stop_output(last, 60.0) or {})
        warm.run(feedback.close())


def bad_head(tmp_path: Path) -> Path:
    """The ts fixture (its src/broken.ts left out) with src/bad.ts's syntax error committed
    (lspd's TypeScript as the project's, for its own tsc beside) and a type error written
    into src/more.ts."""
    fixture = copy_fixture("ts", tmp_path)
    (fixture / "src/broken.ts").unlink()
    (fixture / "src/bad.ts").write_text(BAD)
    (fixture / "node_modules").mkdir()
    (fixture / "node_modules/typescript").symlink_to(lspd_typescript())
    root = committed(fixture)
    more = root / "src/more.ts"
    more.write_text(more.read_text() + WRONG)
    return root


def test_a_typescript_programs_syntax_error_blocks_the_stop_once(tmp_path: Path) -> None:
    """tsc says a program's syntax errors alone: src/bad.ts's, committed, hides the type
    error the agent writes into src/more.ts. Once bad.ts is gone, HEAD's kept result's stop
    leaves more.ts's errors unknown at HEAD (its tsc did not check it), save one at text
    HEAD's more.ts lacks (introduced); an unknown one blocks the stop once for HEAD's
    stop."""
    root = bad_head(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        edit = warm.run(feedback.answer({**EDIT, "paths": ["src/more.ts"]}))
        assert edit["complete"] is True and edit["introduced"] == [], edit
        stopped = edit["stopped"]
        assert stopped == ["tsc stopped at the syntax error at src/bad.ts:2"]
        first = warm.run(feedback.answer(STOP))
        assert first["repeat"] is False and stop_output(first, 60.0) == {
            "decision": "block",
            "reason": f"lspd: {stopped[0]}: the rest is not checked, so whether this session's "
            "changes introduced errors is not known; fix the syntax error, then the check "
            "proves them.",
        }
        again = warm.run(feedback.answer(STOP))
        assert again["repeat"] is True and "systemMessage" in (stop_output(again, 60.0) or {})
        (root / "src/bad.ts").unlink()
        warm.run(feedback.answer({**EDIT, "paths": ["src/bad.ts", "src/more.ts"]}))
        # HEAD's tsc did not check more.ts, but HEAD's more.ts holds no `wrong`, the text
        # TS2322 points at: no error of HEAD's could be it, so it is introduced.
        found = warm.run(feedback.answer(STOP))
        said = [(d["path"], d["line"], d["code"]) for d in found["introduced"]]
        assert (said, found["stopped"]) == ([("src/more.ts", 4, "2322")], [])
        assert "decision" in (stop_output(found, 60.0) or {})
        # A type error at text HEAD's more.ts holds (`doubled`): HEAD's tsc, had it gone on,
        # might have said the same there. Unknown: blocked once for HEAD's stop.
        more = root / "src/more.ts"
        head = more.read_text().replace(WRONG, "")
        more.write_text(head.replace("const doubled", "const doubled: string"))
        assert [line.split(": error ")[1][:6] for line in tsc_of(root, tmp_path, {})] == ["TS2322"]
        warm.run(feedback.answer({**EDIT, "paths": ["src/more.ts"]}))
        last = warm.run(feedback.answer(STOP))
        at_head = f"at HEAD, {stopped[0]}"
        assert (last["introduced"], last["stopped"], last["repeat"]) == ([], [at_head], False)
        assert stop_output(last, 60.0) == {
            "decision": "block",
            "reason": f"lspd: {at_head}: the rest is not checked, so whether this session's "
            "changes introduced errors is not known; run the project's own checker before "
            "you finish.",
        }
        warm.run(feedback.close())


def test_a_configuration_error_head_had_too_does_not_block_a_tsconfig_edit(
    tmp_path: Path,
) -> None:
    """site/jsconfig.json's TS5102 (TypeScript 7's `baseUrl`) committed, the turn edits the
    root tsconfig.json (`noUnusedLocals`): tsc stops at the jsconfig's options error now as
    at HEAD and at the turn's start; the turn's start replayed with the tsconfig's text
    then says no configuration's stop, so the stop gate blocked for it ("fix the syntax
    error") where `check --baseline HEAD` says 0 new. Now set aside, as a stop the turn
    began with; an error the turn made is told as before. Real TypeScript 7.0.2."""
    files = {
        "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}),
        "src/a.ts": "export const n: number = 1;\n",
        "site/jsconfig.json": json.dumps(JSCONFIG, indent=2),
        "site/page.js": "/** @type {number} */\nexport const m = 'y';\n",
    }
    root = typescript_committed(tmp_path / "p", files, "7.0.2")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        warm.run(feedback.answer({**STOP, "event": "turn"}))
        options = {**CONFIG["compilerOptions"], "noUnusedLocals": True}  # type: ignore[dict-item]
        (root / "tsconfig.json").write_text(
            json.dumps({"compilerOptions": options, "include": ["src"]})
        )
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        edit = warm.run(feedback.answer({**EDIT, "paths": ["tsconfig.json"]}))
        assert (edit["complete"], edit["introduced"], edit["stopped"]) == (True, [], [])
        first = warm.run(feedback.answer(STOP))
        assert (first["introduced"], first["stopped"]) == ([], [])
        assert stop_output(first, 60.0) is None
        (root / "src/b.ts").write_text("const unused = 1;\nexport {};\n")
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        told = warm.run(feedback.answer({**EDIT, "paths": ["src/b.ts"]}))
        assert [(d["path"], d["line"], d["code"]) for d in told["introduced"]] == [
            ("src/b.ts", 1, "6133")
        ]
