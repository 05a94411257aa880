"""`--baseline session` across a configuration edit made during the session: the session's
result was made at its first check, under the configuration then, and stays the baseline
(as HEAD's result under HEAD's configuration does): tsconfig.json given noUnusedParameters
after it, extra.ts's TS6133 (tsc -p's now, not at the session's start) is new since the
session, by `check --baseline session` and by `diagnostics FILE --baseline session` alike,
and the answer says the configuration it compared under. Before, the file's question read
the session's configuration as the disk's: the kept result's key differed, and its two
states were both made under the new options: TS6133 'unchanged' where the whole check said
it new. Real builder (lspd's TypeScript 5.9), tsc -p asserted beside it."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import warm_root
from tests.ops.test_since_kept_config import extra_project, made_stricter

EDITED = "the configuration changed since the session's start (tsconfig.json)"


def test_a_configuration_edited_in_the_session_introduces_its_errors(tmp_path: Path) -> None:
    for warm in warm_root(extra_project(tmp_path), tmp_path / "logs", watch=True):
        assert EDITED in made_stricter(warm, tmp_path, "session").scope
        file = warm.run(diagnostics(warm.ws, "src/extra.ts", baseline="session")).changes
        assert file is not None
        assert [(d.path, d.line, d.code) for d in file.introduced] == [("src/extra.ts", 1, "6133")]
        assert (file.fixed, file.unchanged) == ([], 0)
        assert "against the kept result of session" in file.scope
