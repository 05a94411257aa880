"""A baseline question does each of its git runs and watcher round trips once
(`engine/committed.py`, `engine/revisions.py`, `engine/named.py`): the commit the baseline
names is asked once and passed down, git's listing against it is read once and passed to
the steps needing it (the changed files, the configurations edited since, the texts a
tsconfig's `extends` has at the commit), and the question catches up with the watcher once
before its check (the whole check's own catch-up) and once after it (the texts read are the
ones it saw). Counted on a warm, watched TypeScript 7 project for `check --baseline HEAD`,
`diagnostics FILE --baseline HEAD` (HEAD's result kept or not yet) and the hook's check
(`ops/progressive_kept.py`), as the daemon answers them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from lspd.ops import progressive_kept
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.progressive import Progress
from lspd.workspace.watcher import Watcher
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import CONFIG
from tests.engine.test_revisions import git_runs
from tests.workspace.toolchains import TS7_PINNED, typescript_committed

FILES = {
    "tsconfig.json": json.dumps({"extends": "./settings.json", "include": ["src"]}),
    "settings.json": json.dumps(CONFIG),  # extended under another name: read at HEAD too
    "src/core.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "src/use.ts": (
        'import { add } from "./core";\n\nexport const total = (unused: number) => add(1, 2);\n'
    ),
    "src/leaf.ts": "export const leaf = 1;\n",
}
LEAF = 'export const leaf = 1;\nexport const wrong: number = "x";\n'
# A leaf edit's git runs, once each: the commit and the repository's top (`at_commit`), the
# listing (`listing`: diff, ls-files), HEAD's text of the changed file.
ONCE = ["rev-parse", "diff", "ls-files", "show ./src/leaf.ts"]


@dataclass
class Counted:
    """A warm, watched workspace on the committed project, and what its questions ran: git
    (`runs`, as `said` names them) and the watcher's round trips (`trips`)."""

    warm: Warm
    runs: list[tuple[str, ...]]
    trips: list[int]

    def said(self) -> list[str]:
        """Each git run by its command (a `show` with the file it shows)."""
        return [f"show {r[1].partition(':')[2]}" if r[0] == "show" else r[0] for r in self.runs]

    def clear(self) -> None:
        """Counted from now on, once the watcher has told every change made before (as the
        daemon has by the time a command asks, after an agent's edit)."""
        watcher = self.warm.ws.watcher
        assert watcher is not None and self.warm.run(watcher.catch_up())
        self.runs.clear()
        self.trips.clear()


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    root = typescript_committed(tmp_path / "p", FILES, TS7_PINNED)
    runs = git_runs(monkeypatch)
    trips: list[int] = []
    round_trip = Watcher._round_trip

    async def tripped(watcher: Watcher, timeout: float) -> bool:
        trips.append(1)
        return await round_trip(watcher, timeout)

    monkeypatch.setattr(Watcher, "_round_trip", tripped)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        yield Counted(warm, runs, trips)


def _since(warm: Warm, offset: int = 0) -> tuple[list[tuple[str, int, str]], int, list[str]]:
    found = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD", offset=offset)).changes
    assert found is not None
    new = [(d.path or "", d.line, d.code or "") for d in found.introduced]
    return new, found.unchanged, found.changed


def _file_since(warm: Warm, path: str) -> tuple[list[tuple[str, int, str]], list[str]]:
    found = warm.run(diagnostics(warm.ws, path, baseline="HEAD")).changes
    assert found is not None
    return [(d.path or "", d.line, d.code or "") for d in found.introduced], found.changed


def test_a_leaf_edit_s_baseline_question_runs_git_and_the_watcher_once_each(
    counted: Counted,
) -> None:
    warm = counted.warm
    assert _since(warm) == ([], 0, [])  # HEAD's result made of the clean tree, kept
    (warm.root / "src/leaf.ts").write_text(LEAF)
    counted.clear()
    assert _since(warm) == ([("src/leaf.ts", 2, "2322")], 0, ["src/leaf.ts"])
    # Before: 12 git runs (the commit resolved three times beside the comparison's, the
    # listing twice, the repository's top asked again, tsconfig.json's and settings.json's
    # HEAD texts shown though unchanged) and 4 round trips; then 5 (the comparison's key
    # resolved the commit, `committed` again) and 3 (the key's catch-up, then the check's).
    assert counted.said() == ONCE
    # The whole check's catch-up, the settled texts' check. An edit whose event is still on
    # its way when the question reads the watcher's count costs one more (the kept
    # comparison of that count is taken only once a catch-up finds it unchanged).
    assert len(counted.trips) == 2
    # A page of the kept comparison: the commit now, a catch-up finding no change since.
    counted.clear()
    assert _since(warm, offset=1) == ([], 0, ["src/leaf.ts"])
    assert (counted.said(), len(counted.trips)) == (["rev-parse"], 1)


def test_a_file_s_baseline_question_runs_git_once_kept_or_not(counted: Counted) -> None:
    """`diagnostics FILE --baseline HEAD` before HEAD's result is kept (the file at HEAD's
    texts) and after (its kept result): the commit resolved once, the changes listed once.
    Before: 10 git runs and 9 (the commit resolved 5 and 4 times, the listing read twice)."""
    warm = counted.warm
    (warm.root / "src/leaf.ts").write_text(LEAF)
    counted.clear()
    assert _file_since(warm, "src/leaf.ts") == ([("src/leaf.ts", 2, "2322")], ["src/leaf.ts"])
    # the file question's own catch-up (`file_diagnostics`), its settled texts' check
    assert (counted.said(), len(counted.trips)) == (ONCE, 2)
    assert _since(warm)[0] == [("src/leaf.ts", 2, "2322")]  # HEAD's result made, kept
    (warm.root / "src/leaf.ts").write_text(LEAF + "export const more: string = 1;\n")
    counted.clear()
    assert _file_since(warm, "src/leaf.ts") == (
        [("src/leaf.ts", 2, "2322"), ("src/leaf.ts", 3, "2322")],
        ["src/leaf.ts"],
    )
    assert (counted.said(), len(counted.trips)) == (ONCE, 2)


def test_the_hook_s_check_catches_up_once_before_its_check(counted: Counted) -> None:
    """The hook's check (`progressive_kept.run`): the whole check's catch-up, the exclusive
    gate's reuse of it (a file may change while the gate is awaited), the settled texts'
    check. Before: 4 round trips (a catch-up of its own right before the whole check's)."""
    warm = counted.warm
    assert _since(warm) == ([], 0, [])  # HEAD's result kept
    leaf = warm.root / "src/leaf.ts"
    leaf.write_text(LEAF)
    counted.clear()
    progress = Progress("HEAD", [leaf])
    warm.run(progressive_kept.run(warm.ws, progress))
    assert progress.failed is None
    assert [(i.diagnostic.path, i.diagnostic.line) for i in progress.introduced] == [
        ("src/leaf.ts", 2)
    ]
    assert (counted.said(), len(counted.trips)) == (ONCE, 3)


def test_an_edited_configuration_is_read_at_head_once(counted: Counted) -> None:
    """settings.json (tsconfig.json's `extends`) given noUnusedParameters before the first
    question: HEAD's result is made under HEAD's configuration (tsc on a copy), its texts
    there read once for the key, the result and the comparison's note. Before: 10 git runs
    (`_made` and the note read the configurations again: a listing and a show each), then 6
    (settings.json shown twice)."""
    warm = counted.warm
    settings = json.loads(FILES["settings.json"])
    settings["compilerOptions"]["noUnusedParameters"] = True
    (warm.root / "settings.json").write_text(json.dumps(settings))
    counted.clear()
    assert _since(warm) == ([("src/use.ts", 3, "6133")], 0, ["settings.json"])
    # settings.json's HEAD text once, for both its uses: a JSON a program may read
    # (`differences`) and a configuration (`configs_then`), through `Listing.text_at` (45efb31)
    assert counted.said() == [*ONCE[:3], "show ./settings.json"]
    assert len(counted.trips) == 2
