"""The stop gate knows a checker's stop by what does not move with line shifts
(`ops/progressive_kept.stop_keys`: its checker and the errors it stopped at, their file,
code, message and the text they point at; `AgentSession.stopped`): lines added above the
syntax error are the same stop, and the gate does not block again for it; a new syntax
error is a new stop, blocked once. Before, a stop was known by its line ("tsc stopped at
the syntax error at src/bad.ts:2"), and two comment lines above it blocked the agent once
more. Real TypeScript 5 builder (the ts fixture), its tsc asserted beside it."""

from __future__ import annotations

from pathlib import Path

from lspd.cli.hook import stop_output
from lspd.daemon.feedback import Feedback
from tests.conftest import warm_root
from tests.daemon.test_feedback_stopped import BAD, EDIT, STOP, bad_head
from tests.workspace.test_tsbuilder_syntax import tsc_of


def test_lines_added_above_a_stop_do_not_block_again(tmp_path: Path) -> None:
    root = bad_head(tmp_path)
    bad = root / "src/bad.ts"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        feedback = Feedback(warm.ws)
        warm.run(feedback.answer({**EDIT, "paths": ["src/more.ts"]}))
        first = warm.run(feedback.answer(STOP))
        assert first["stopped"] == ["tsc stopped at the syntax error at src/bad.ts:2"]
        assert first["repeat"] is False and "decision" in (stop_output(first, 60.0) or {})

        bad.write_text("// one\n// two\n" + BAD)  # the same stop, two lines down
        assert tsc_of(root, tmp_path, {}) == ["src/bad.ts(4,1): error TS1005: '}' expected."]
        warm.run(feedback.answer({**EDIT, "paths": ["src/bad.ts"]}))
        shifted = warm.run(feedback.answer(STOP))
        assert shifted["stopped"] == ["tsc stopped at the syntax error at src/bad.ts:4"]
        assert shifted["repeat"] is True  # it was blocked for it: it goes, said
        assert stop_output(shifted, 60.0) == {
            "systemMessage": f"lspd: {shifted['stopped'][0]}: the rest is not checked, so "
            "whether this session's changes introduced errors is not known (as at the last "
            "stop)."
        }

        bad.write_text("// one\n// two\nexport const x = ;\n")  # another syntax error
        expected = "src/bad.ts(3,18): error TS1109: Expression expected."
        assert tsc_of(root, tmp_path, {}) == [expected]
        warm.run(feedback.answer({**EDIT, "paths": ["src/bad.ts"]}))
        new = warm.run(feedback.answer(STOP))
        assert new["stopped"] == ["tsc stopped at the syntax error at src/bad.ts:3"]
        assert new["repeat"] is False and "decision" in (stop_output(new, 60.0) or {})
        warm.run(feedback.close())
