"""A program's global diagnostics stop its semantic check as its options errors do, and are
said as tsc says them: TypeScript 5.9.3 with `"lib": []` says TS2318 ("Cannot find global
type 'Array'.", said without a place) eight times and nothing of src/a.ts's TS2322; lspd
check stopped (the builder's `getGlobalDiagnostics`) but said no error at all (exit 0 where
tsc exits 2): `tsc -p --listFilesOnly`, whose listing says the configuration's errors, stops
before the global ones. Real TypeScript against the project's own tsc -p."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from tests.conftest import answer, warm_root
from tests.engine.test_config_stops import UNPLACED, _project
from tests.workspace.toolchains import gate


def _codes(checked: Checked) -> Counter[tuple[str, int, str]]:
    return Counter((r.path, d.line, d.code or "") for r in checked.results for d in r.diagnostics)


@pytest.mark.parametrize("options", [{"lib": []}, {"noLib": True}])
def test_global_diagnostics_are_said_at_the_configuration(
    tmp_path: Path, options: dict[str, object]
) -> None:
    root = _project(tmp_path / "ts5", options, "5.9.3")
    code, out = gate(root)
    truth = Counter(("tsconfig.json", 1, c) for c in UNPLACED.findall(out))
    assert code == 2 and set(truth) == {("tsconfig.json", 1, "2318")} and "a.ts" not in out
    once = answer(root, check_all)
    assert (_codes(once), [s.at for s in once.stopped]) == (truth, [(("tsconfig.json", 1),)])
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert _codes(warm.run(check_all(warm.ws))) == truth
