"""A configuration a tsconfig extends under another name (tsconfig.json's `extends:
"./settings.json"`), edited under a warm, watched workspace: `lspd check` and `check
--baseline HEAD` say what the project's own tsc -p says after the edit. Found while
counting tests/engine/test_committed_runs.py (session 56): on TypeScript 7.0.2 the warm
check kept its answer from before the edit (0 errors where tsc -p says src/use.ts(1,23)
TS6133 once settings.json gains noUnusedParameters; check --baseline HEAD 0 new, the
configuration named changed): `native_reach.placed` knew a configuration by its name
alone (tsconfig*, jsconfig*, package.json), so the edit of settings.json, no file of the
program nor imported by one, asked no file again and every kept result stood (the server
was told, and answered right once asked). On TypeScript 5.4.5 (the builder) it was tsc's."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_configured import tsc_rows
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_committed

FILES = {
    "tsconfig.json": json.dumps({"extends": "./settings.json", "include": ["src"]}),
    "settings.json": json.dumps(CONFIG),
    "src/use.ts": "export const total = (unused: number): number => 1;\n",
}
UNUSED = {**CONFIG, "compilerOptions": {**CONFIG["compilerOptions"], "noUnusedParameters": True}}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_an_extended_configuration_s_edit_is_tsc_s_answer(tmp_path: Path, version: str) -> None:
    root = typescript_committed(tmp_path / "p", FILES, version)
    assert tsc_rows(root) == Counter()
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert warm.run(workspace_diagnostics(warm.ws)).errors == 0
        assert warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes is not None
        (root / "settings.json").write_text(json.dumps(UNUSED))
        truth = tsc_rows(root)
        assert truth == Counter({("src/use.ts", 1, "6133"): 1})
        now = warm.run(workspace_diagnostics(warm.ws))
        assert Counter((d.path, d.line, d.code) for d in now.diagnostics) == truth
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert Counter((d.path, d.line, d.code or "") for d in since.introduced) == truth
        assert since.changed == ["settings.json"]
