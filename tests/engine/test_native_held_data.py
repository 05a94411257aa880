"""A preview of a source edit while a JSON module is unclosed on disk (`resolveJsonModule`,
`{ "retries": 3` unclosed): tsc -p of the written tree stops at the JSON's TS1005 and checks
nothing else, so the preview says that stop (TypeScript 7 said none: a JSON is no server's
file, so no item of the parser's codes made its program a suspect); a preview that also
closes the JSON says no stop (a TypeScript 5 builder's stop at the disk's JSON was said
there, as a reverted patch of TypeScript 7's did). Real
TypeScript 7.0.2 and 5.4.5, `tsc -p` on the written tree beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_program_data_places import BROKEN, JSON_STOP, SHARED, _project
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate

JSON, KNOWN = "shared/defaults.json", "app/src/known.ts"
EDIT = "export const known: string = 2;\n"  # still an error, unchecked while tsc stops
STOPPED = [("tsc", [f"{JSON}:2"])]


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_preview_beside_an_unclosed_json_says_tscs_stop(tmp_path: Path, version: str) -> None:
    root = _project(tmp_path / "p", SHARED, version)
    (root / JSON).write_text(BROKEN)
    written = _project(tmp_path / "w", {**SHARED, JSON: BROKEN, KNOWN: EDIT}, version)
    assert gate(written / "app")[1].strip() == JSON_STOP
    closed = _project(tmp_path / "c", {**SHARED, KNOWN: EDIT}, version)
    assert "src/known.ts(1,14): error TS2322" in gate(closed / "app")[1]
    for warm in warm_root(root, tmp_path / "logs"):
        said = warm.run(previewed(warm.ws, [{"path": KNOWN, "content": EDIT}])).changes
        assert (said.introduced, said.fixed) == ([], [])
        assert [(s.checker, s.at) for s in said.stopped] == STOPPED
        both = [{"path": KNOWN, "content": EDIT}, {"path": JSON, "content": SHARED[JSON]}]
        said = warm.run(previewed(warm.ws, both)).changes
        assert said.stopped == []
        assert [(d.path, d.line, d.code) for d in said.fixed] == [(JSON, 2, "1005")]
        # known.ts's TS2322: the disk's tsc did not check it, so it is no new error
        assert said.introduced == []
        assert [(s.at, s.files, s.not_checked) for s in said.baseline_stopped] == [
            ([f"{JSON}:2"], [KNOWN], 1)
        ]
