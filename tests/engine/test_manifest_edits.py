"""A workspace package's package.json edit is a change module resolution reads (issue 40):
`"exports": {".": ...}` -> `{"./lib": ...}` in packages/utils of an npm-workspaces monorepo
(node_modules/@demo/utils -> ../../packages/utils, as npm links it) breaks core's import of
'@demo/utils' (TS2307, tsc -b). Before: check --baseline HEAD said '0 changed file(s), 0 new'
(exit 0) and kept HEAD's result made under the edited manifest (the clean tree then: '1 new,
N fixed'); TypeScript 5's builder kept its old resolution (lspd check 0 errors); the edit hook
and the stop gate were silent; a preview said 0 new. Real TypeScript 7.0.2 and 5.4.5, a cold
`tsc -b` of the tree beside."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lspd.cli.hook import stop_output
from lspd.daemon.feedback import Feedback
from lspd.errors import InvalidInput
from lspd.ops.check import from_kept
from lspd.ops.preview import previewed
from tests.cli.test_line_ends import one_shot
from tests.conftest import warm_root
from tests.daemon.test_feedback_stopped import EDIT, STOP
from tests.engine.test_native_check import check
from tests.engine.test_native_reach_workspaces import EXPORTS, LINE, monorepo, tsc_b
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, node_executable, typescript_package

MANIFEST = "packages/utils/package.json"
BROKEN = {("packages/core/src/index.ts", "2307")}  # Cannot find module '@demo/utils'


def project(root: Path, version: str) -> Path:
    """The monorepo on TypeScript `version`, committed."""
    root = monorepo(root)
    (root / "node_modules/typescript").unlink()
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    return committed(root)


def manifest(exports: dict[str, Any], version: str = "0.0.0") -> str:
    return json.dumps({"name": "@demo/utils", "version": version, "exports": exports})


HEAD_TEXT = manifest(EXPORTS["utils"])
MOVED = manifest({"./lib": EXPORTS["utils"]["."]})  # no "." export: '@demo/utils' unresolved
BUMPED = manifest(EXPORTS["utils"], "1.0.0")  # nothing module resolution reads


def gate(root: Path, cold: Path) -> set[tuple[str, int, int, str]]:
    """tsc -b's errors in the sources (it says core's TS2307 again in core's emitted
    dist/index.d.ts, which app's build reads: no source's error; the examiner's F)."""
    return {e for e in tsc_b(root, cold) if "/dist/" not in e[0]}


def coded(found: Any) -> set[tuple[str, str]]:
    return {(d[0], d[3]) if isinstance(d, tuple) else (d["path"], d["code"]) for d in found}


FLAT = {  # one tsconfig over the packages, no references: tsc -p on a copy answers
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "module": "esnext",
        "moduleResolution": "bundler",
        "types": [],
    },
    "include": ["packages"],
}


def flat(root: Path, version: str) -> Path:
    """utils and core under one tsconfig, core importing '@demo/utils' through npm's link."""
    (root / "packages/utils/src").mkdir(parents=True)
    (root / "packages/core/src").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"workspaces": ["packages/*"]}))
    (root / "tsconfig.json").write_text(json.dumps(FLAT))
    (root / ".gitignore").write_text("node_modules\n")
    (root / MANIFEST).write_text(HEAD_TEXT)
    (root / "packages/utils/src/index.ts").write_text("export const one: number = 1;\n")
    (root / "packages/core/src/index.ts").write_text(
        "import { one } from '@demo/utils';\n\nexport const two: number = one + 1;\n"
    )
    (root / "node_modules/@demo").mkdir(parents=True)
    (root / "node_modules/@demo/utils").symlink_to(Path("../../packages/utils"))
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    return committed(root.resolve())


def tsc_p(root: Path) -> set[tuple[str, str]]:
    tsc = [node_executable(), "node_modules/typescript/bin/tsc", "-p", ".", "--pretty", "false"]
    done = subprocess.run(tsc, cwd=root, capture_output=True, text=True, timeout=300)
    return {(p, c) for p, _, _, c in LINE.findall(done.stdout)}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_one_shot_baseline_checks_heads_manifest_on_a_copy(tmp_path: Path, version: str) -> None:
    """No references: HEAD's result is tsc -p's on a copy holding HEAD's package.json, the
    copy's node_modules/@demo/utils leading into the copy (it led to the repository's
    packages/utils, whose edited manifest the copy's tsc read: the TS2307 'unchanged')."""
    root = flat(tmp_path / "f", version)
    assert tsc_p(root) == set()
    (root / MANIFEST).write_text(MOVED)
    assert tsc_p(root) == BROKEN
    code, said, error = one_shot(root, "check", "--baseline", "HEAD")
    assert code == 1, error
    changes = said["changes"]
    assert coded(changes["introduced"]) == BROKEN
    assert changes["fixed"] == [] and MANIFEST in changes["changed"]


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_one_shot_baseline_never_counts_it_unchanged(tmp_path: Path, version: str) -> None:
    root = project(tmp_path / "m", version)
    cold = tmp_path / "cold"
    (root / MANIFEST).write_text(MOVED)
    truth = gate(root, cold)
    assert coded(truth) == BROKEN
    # refused, saying why (tsc -p on a copy would read core's unbuilt dist/index.d.ts, a
    # phantom fix of app's import of '@demo/core'): no count at all
    code, said, error = one_shot(root, "check", "--baseline", "HEAD")
    assert code == 2, error
    assert f"{MANIFEST} is read by module resolution" in said["error"]
    # HEAD's kept result (where one was kept) is HEAD's: the clean tree has nothing new
    (root / MANIFEST).write_text(HEAD_TEXT)
    assert gate(root, cold) == set()
    code, said, error = one_shot(root, "check", "--baseline", "HEAD")
    assert code == 0, error
    assert (said["changes"]["introduced"], said["changes"]["fixed"]) == ([], [])
    # a version bump alone changes nothing tsc reads: compared, not refused
    (root / MANIFEST).write_text(BUMPED)
    code, said, error = one_shot(root, "check", "--baseline", "HEAD")
    assert code == 0, error
    assert (said["changes"]["introduced"], said["changes"]["fixed"]) == ([], [])


# TypeScript 7.0.2 (strict xfail before e92de09): told the manifest changed, tsc --lsp
# drops its resolution; lspd check said 0 errors because core's index.ts was answered from
# app's program (its window/logMessage: "Project count: 1" in the snapshot holding the
# change), which holds core's sources through its reference and checks none of them.
# native_own now asks each program's first file alone, so core's own program answers it.
@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_the_daemon_its_hooks_and_its_gate_see_it(tmp_path: Path, version: str) -> None:
    root = project(tmp_path / "m", version)
    cold = tmp_path / "cold"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == gate(root, cold) == set()
        since = warm.run(from_kept(warm.ws, "HEAD", None, False)(lambda _: True))
        assert (since.changes.introduced, since.changes.fixed) == ([], [])  # HEAD's kept
        feedback = Feedback(warm.ws)
        warm.run(feedback.answer({**STOP, "event": "turn"}))
        (root / MANIFEST).write_text(MOVED)
        truth = gate(root, cold)
        assert coded(truth) == BROKEN
        assert check(warm)[1] == truth  # TypeScript 5's builder resolves anew
        since = warm.run(from_kept(warm.ws, "HEAD", None, False)(lambda _: True))
        assert coded((d.path, 0, 0, d.code) for d in since.changes.introduced) == BROKEN
        assert since.changes.fixed == []
        edit = warm.run(feedback.answer({**EDIT, "paths": [MANIFEST]}))
        assert coded(edit["introduced"]) == BROKEN
        stop = warm.run(feedback.answer(STOP))
        assert coded(stop["introduced"]) == BROKEN
        assert "decision" in (stop_output(stop, 60.0) or {})
        (root / MANIFEST).write_text(HEAD_TEXT)
        assert check(warm)[1] == gate(root, cold) == set()
        edit = warm.run(feedback.answer({**EDIT, "paths": [MANIFEST]}))
        assert edit["introduced"] == []
        stop = warm.run(feedback.answer(STOP))
        assert "decision" not in (stop_output(stop, 60.0) or {})
        warm.run(feedback.close())


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_one_programs_watched_check_resolves_anew(tmp_path: Path, version: str) -> None:
    """One program (no references, so no other program to answer core's file): the
    server, told by lspd's watcher that the manifest changed, resolves '@demo/utils'
    anew (TypeScript 7.0.2 did so before e92de09 too: no restart needed)."""
    root = flat(tmp_path / "f", version)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc_p(root) == set()
        (root / MANIFEST).write_text(MOVED)
        assert tsc_p(root) == BROKEN
        assert coded(check(warm)[1]) == BROKEN
        (root / MANIFEST).write_text(HEAD_TEXT)
        assert check(warm)[1] == tsc_p(root) == set()


def test_a_preview_of_it_is_refused_saying_what_to_do(tmp_path: Path) -> None:
    root = project(tmp_path / "m", TS7_PINNED)
    for warm in warm_root(root, tmp_path / "logs"):
        with pytest.raises(InvalidInput, match="lspd check --baseline HEAD"):
            warm.run(previewed(warm.ws, [{"path": MANIFEST, "content": MOVED}]))
        bumped = warm.run(previewed(warm.ws, [{"path": MANIFEST, "content": BUMPED}]))
        assert (bumped.changes.introduced, bumped.changes.fixed) == ([], [])
