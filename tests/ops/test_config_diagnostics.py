"""`diagnostics` of a TypeScript configuration no server holds (issue 40): a tsconfig.json
given an option tsc refuses says tsc -p's error in it, with `--baseline HEAD` as introduced
(`check --baseline HEAD` said it while `diagnostics tsconfig.json --baseline HEAD` was
refused: 'no language server handles tsconfig.json (.json)'); a workspace package's
package.json whose `exports` edit breaks an importer says no error in it (tsc says none
there) and where the edit's errors are. Real TypeScript 7.0.2 and 5.4.5, `tsc -p` beside."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from lspd.ops.file_diagnostics import diagnostics
from lspd.servers.registry import node_executable
from tests.conftest import warm_root
from tests.engine.test_manifest_edits import BROKEN, FLAT, MANIFEST, MOVED, flat, tsc_p
from tests.ops.test_baseline import git
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED

CONFIG = "tsconfig.json"
REFUSED = {TS7_PINNED: "node10", TS_PINNED: "bogus"}  # TS5108 removed; TS6046 no such value
CODE = {TS7_PINNED: "5108", TS_PINNED: "6046"}
SAID = re.compile(r"^tsconfig\.json\((\d+),(\d+)\): error TS(\d+): ", re.M)


def refused(version: str) -> str:
    config = json.loads(json.dumps(FLAT))
    config["compilerOptions"]["moduleResolution"] = REFUSED[version]
    return json.dumps(config, indent=2) + "\n"


def config_errors(root: Path) -> list[tuple[int, int, str]]:
    """tsc -p's errors in tsconfig.json (line, column, code)."""
    tsc = [node_executable(), "node_modules/typescript/bin/tsc", "-p", ".", "--pretty", "false"]
    done = subprocess.run(tsc, cwd=root, capture_output=True, text=True, timeout=300)
    return [(int(a), int(b), c) for a, b, c in SAID.findall(done.stdout)]


@pytest.mark.parametrize("watch", [True, False], ids=["daemon", "one-shot"])
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_tsconfigs_errors_are_tscs(tmp_path: Path, version: str, watch: bool) -> None:
    root = flat(tmp_path / "f", version)
    (root / CONFIG).write_text(refused(version))
    truth = config_errors(root)
    assert [c for _, _, c in truth] == [CODE[version]]
    for warm in warm_root(root, tmp_path / "logs", watch=watch):
        plain = warm.run(diagnostics(warm.ws, CONFIG))
        assert [(d.line, d.column, d.code) for d in plain.diagnostics] == truth
        answer = warm.run(diagnostics(warm.ws, CONFIG, baseline="HEAD"))
        assert answer.changes is not None and answer.errors == 1
        introduced = answer.changes.introduced
        assert [(d.path, d.line, d.column, d.code) for d in introduced] == [(CONFIG, *truth[0])]
        assert (answer.changes.fixed, answer.changes.changed) == ([], [CONFIG])
        # committed so: HEAD's error stands, a source edit leaves it unchanged, not new
        git(root, "-c", "user.name=t", "-c", "user.email=t@e.org", "commit", "-qam", "c")
        (root / "packages/utils/src/index.ts").write_text("export const one: number = 2;\n")
        answer = warm.run(diagnostics(warm.ws, CONFIG, baseline="HEAD"))
        assert answer.changes is not None
        assert (answer.changes.introduced, answer.changes.fixed) == ([], [])
        assert answer.changes.unchanged == 1


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_manifest_says_none_and_where_its_errors_are(tmp_path: Path, version: str) -> None:
    root = flat(tmp_path / "f", version)
    (root / MANIFEST).write_text(MOVED)
    assert tsc_p(root) == BROKEN  # core's import, not the manifest
    for warm in warm_root(root, tmp_path / "logs"):
        plain = warm.run(diagnostics(warm.ws, MANIFEST))
        assert (plain.errors, plain.diagnostics) == (0, [])
        answer = warm.run(diagnostics(warm.ws, MANIFEST, baseline="HEAD"))
        assert answer.changes is not None
        assert (answer.changes.introduced, answer.changes.fixed) == ([], [])
        assert answer.changes.changed == [MANIFEST]
        assert "lspd check --baseline HEAD" in answer.changes.scope
