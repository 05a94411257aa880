"""A `check --baseline HEAD` does each of its git runs and watcher round trips once
(`engine/committed.py`, `engine/revisions.py`): git's listing against the commit is read
once and passed to the steps needing it (the changed files, the configurations edited
since, the texts a tsconfig's `extends` has at the commit), and the committed state's check
catches up with the watcher once (the whole check's own catch-up; it made one of its own
right before). Counted on a warm, watched TypeScript 7 project: a leaf edit against HEAD's
kept result, as the daemon answers it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.watcher import Watcher
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG
from tests.engine.test_revisions import git_runs
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

FILES = {
    "tsconfig.json": json.dumps({"extends": "./settings.json", "include": ["src"]}),
    "settings.json": json.dumps(CONFIG),  # extended under another name: read at HEAD too
    "src/core.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "src/use.ts": 'import { add } from "./core";\n\nexport const total: number = add(1, 2);\n',
    "src/leaf.ts": "export const leaf = 1;\n",
}
LEAF = 'export const leaf = 1;\nexport const wrong: number = "x";\n'


def _since(warm: Warm) -> tuple[list[tuple[str, int, str]], int, list[str]]:
    found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
    assert found is not None
    new = [(d.path, d.line, d.code or "") for d in found.introduced]
    return new, found.unchanged, found.changed


def test_a_leaf_edit_s_baseline_question_runs_git_and_the_watcher_once_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "p"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    (root / ".gitignore").write_text("node_modules\n")
    committed(root.resolve())
    runs = git_runs(monkeypatch)
    trips: list[int] = []
    round_trip = Watcher._round_trip

    async def tripped(watcher: Watcher, timeout: float) -> bool:
        trips.append(1)
        return await round_trip(watcher, timeout)

    monkeypatch.setattr(Watcher, "_round_trip", tripped)
    for warm in warm_root(root.resolve(), tmp_path / "logs", watch=True):
        assert _since(warm) == ([], 0, [])  # HEAD's result made of the clean tree, kept
        (root / "src/leaf.ts").write_text(LEAF)
        runs.clear()
        trips.clear()
        assert _since(warm) == ([("src/leaf.ts", 2, "2322")], 0, ["src/leaf.ts"])
        # Before: 12 git runs (the commit resolved three times beside the comparison's,
        # the listing twice, the repository's top asked again, tsconfig.json's and
        # settings.json's HEAD texts shown though unchanged) and 4 round trips.
        said = [f"show {r[1].partition(':')[2]}" if r[0] == "show" else r[0] for r in runs]
        assert said == [
            "rev-parse",  # the comparison's key (`ops/changes_page`): the commit now
            "rev-parse",  # the commit and the repository's top (`revisions.at_commit`)
            "diff",  # the listing, once (`revisions.listing`)
            "ls-files",
            "show ./src/leaf.ts",  # HEAD's text of the changed file
        ]
        # the comparison's key, the whole check's catch-up, the settled texts' check
        assert len(trips) == 3
