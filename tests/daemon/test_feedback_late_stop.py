"""The background hook (`lspd hook --late`: Claude Code's asyncRewake) says a checker's stop
when the check ended after the edit's hook's budget (`Feedback.late`, `cli/hook.late_output`),
as the post-edit hook says it when the check ends within: tsc says a program's syntax errors
alone, so src/bad.ts's committed syntax error hides the type error the agent writes into
src/more.ts. Before, the edit's hook said it still checked, and the late answer, nothing
introduced, woke nobody: the stop was never said. Once the edit's hook said the stop (its
check complete), the late answer does not say it again. Real TypeScript 5 builder."""

from __future__ import annotations

from pathlib import Path

from lspd.cli.hook import edit_output, late_output
from lspd.daemon.feedback import Feedback
from tests.conftest import warm_root
from tests.daemon.test_feedback_stopped import EDIT, bad_head

STOPPED = "tsc stopped at the syntax error at src/bad.ts:2"
LATE = {**EDIT, "event": "late", "first": 0.0}


def test_the_late_answer_says_a_stop_the_edit_s_hook_did_not(tmp_path: Path) -> None:
    root = bad_head(tmp_path)
    more = root / "src/more.ts"
    paths = {"paths": ["src/more.ts"]}
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        quick = warm.run(feedback.answer({**EDIT, **paths, "wait": 0.0}))  # out of time
        assert quick["complete"] is False and quick["stopped"] == []
        late = warm.run(feedback.answer({**LATE, **paths}))
        assert (late["complete"], late["introduced"], late["stopped"]) == (True, [], [STOPPED])
        assert late_output(late) == (
            f"lspd: {STOPPED}: the rest is not checked, so what your edit introduced is not "
            "known; fix the syntax error, then the check proves it."
        )

        more.write_text(more.read_text() + "export const also = 1;\n")
        edit = warm.run(feedback.answer({**EDIT, **paths}))  # complete: the stop said there
        assert edit["complete"] is True and edit["stopped"] == [STOPPED]
        assert STOPPED in str(edit_output("claude-code", edit, 3.0))
        again = warm.run(feedback.answer({**LATE, **paths}))
        assert (again["complete"], again["stopped"]) == (True, [])
        assert late_output(again) is None
        warm.run(feedback.close())
