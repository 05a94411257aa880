"""A configuration a tsconfig extends under another name (tsconfig.json's `extends:
"./settings.json"`), edited under a warm, watched workspace: `lspd check` and `check
--baseline HEAD` say what the project's own tsc -p says after the edit. Found while
counting tests/engine/test_committed_runs.py (session 56): on TypeScript 7.0.2 the warm
check kept its answer from before the edit (0 errors where tsc -p says src/use.ts(1,23)
TS6133 once settings.json gains noUnusedParameters; check --baseline HEAD 0 new, the
configuration named changed): `native_reach.placed` knew a configuration by its name
alone (tsconfig*, jsconfig*, package.json), so the edit of settings.json, no file of the
program nor imported by one, asked no file again and every kept result stood (the server
was told, and answered right once asked). On TypeScript 5.4.5 (the builder) it was tsc's.
The same two extends down, through a real daemon's `lspd check`, and for a package's
configuration edited in node_modules (missed on both versions: the watcher leaves it out)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from tests.cli.test_check import lspd_check
from tests.conftest import warm_root
from tests.daemon.support import thread_daemon
from tests.engine.test_affected import written
from tests.engine.test_configured import tsc_rows
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_committed

FILES = {
    "tsconfig.json": json.dumps({"extends": "./settings.json", "include": ["src"]}),
    "settings.json": json.dumps(CONFIG),
    "src/use.ts": "export const total = (unused: number): number => 1;\n",
}
UNUSED = {**CONFIG, "compilerOptions": {**CONFIG["compilerOptions"], "noUnusedParameters": True}}
TRUTH = Counter({("src/use.ts", 1, "6133"): 1})  # tsc -p's, once UNUSED is the configuration
REMOVED = (
    "Option 'moduleResolution=node10' has been removed. Please remove it from your configuration."
)


# tsconfig.json -> config/settings.json -> config/base.json: the edit two steps down.
CHAIN = {
    "tsconfig.json": json.dumps({"extends": "./config/settings", "include": ["src"]}),
    "config/settings.json": json.dumps({"extends": "./base.json"}),
    "config/base.json": json.dumps(CONFIG),
    "src/use.ts": FILES["src/use.ts"],
}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
@pytest.mark.parametrize(
    ("files", "edited"),
    [(FILES, "settings.json"), (CHAIN, "config/base.json")],
    ids=["extended", "two-down"],
)
def test_an_extended_configuration_s_edit_is_tsc_s_answer(
    tmp_path: Path, files: dict[str, str], edited: str, version: str
) -> None:
    root = typescript_committed(tmp_path / "p", files, version)
    since = edited_and_asked(root, root / edited, tmp_path / "logs")
    assert Counter((d.path, d.line, d.code or "") for d in since.introduced) == TRUTH
    assert since.changed == [edited]


def edited_and_asked(root: Path, configuration: Path, logs: Path) -> Changes:
    """Under a warm, watched workspace on `root` (its check and check --baseline HEAD asked
    first: 0 errors, as tsc -p), `configuration` given noUnusedParameters: lspd check says
    tsc -p's TRUTH; then check --baseline HEAD's changes."""
    assert tsc_rows(root) == Counter()
    for warm in warm_root(root, logs, watch=True):
        assert warm.run(workspace_diagnostics(warm.ws)).errors == 0
        assert warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes is not None
        configuration.write_text(json.dumps(UNUSED))
        assert tsc_rows(root) == TRUTH
        now = warm.run(workspace_diagnostics(warm.ws))
        assert Counter((d.path, d.line, d.code) for d in now.diagnostics) == TRUTH
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        return since
    raise AssertionError("no workspace")


def test_a_daemon_s_check_after_the_edit_is_tsc_s_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lspd check` through a real daemon (its watcher), asked right after its first check,
    then with the baseline, on TypeScript 7.0.2."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = typescript_committed(tmp_path / "p", FILES, TS7_PINNED)
    with thread_daemon(root, prewarm=False):
        first = lspd_check(root, "--json")
        assert (first.returncode, json.loads(first.stdout)["errors"]) == (0, 0), first.stderr
        (root / "settings.json").write_text(json.dumps(UNUSED))
        assert tsc_rows(root) == TRUTH
        now = lspd_check(root, "--json")
        since = lspd_check(root, "--baseline", "HEAD")
    assert now.returncode == 1, now.stdout + now.stderr
    said = json.loads(now.stdout)["diagnostics"]
    assert Counter((d["path"], d["line"], d["code"]) for d in said) == TRUTH
    assert since.returncode == 1, since.stdout + since.stderr
    new, summary = since.stdout.splitlines()[:2]
    assert new == "src/use.ts:1:23: error: 'unused' is declared but its value is never read. [6133]"
    assert summary.startswith("1 new since HEAD (1 error(s)), 0 fixed, 0 unchanged; 1 changed ")


# A package's configuration, extended from node_modules, which the watcher does not follow.
PACKAGE = {
    "tsconfig.json": json.dumps({"extends": "@demo/strictest/tsconfig.json", "include": ["src"]}),
    "src/use.ts": FILES["src/use.ts"],
}
STRICTEST = {"package.json": json.dumps({"name": "@demo/strictest", "version": "1.0.0"})}
CONFIGURED = {"tsconfig.json": json.dumps(CONFIG)}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_package_s_configuration_edited_in_node_modules_is_tsc_s_answer(
    tmp_path: Path, version: str
) -> None:
    """Missed on both before (lspd check 0 errors): the watcher leaves node_modules out, and
    only a configuration outside the root was looked at each question (`Workspace.follow`).
    node_modules is no commit's: HEAD's tsc -p reads the edited one too (1 unchanged)."""
    root = typescript_committed(tmp_path / "p", PACKAGE, version)
    package = written(root / "node_modules/@demo/strictest", {**STRICTEST, **CONFIGURED})
    since = edited_and_asked(root, package / "tsconfig.json", tmp_path / "logs")
    assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)


# The extended configuration says which files: given one more folder, holding a syntax error.
INCLUDED = {
    "tsconfig.json": json.dumps({"extends": "./settings.json"}),
    "settings.json": json.dumps({**CONFIG, "include": ["src"]}),
    "src/use.ts": "export const total: number = 'x';\n",
    "lib/bad.ts": "export const broken = {;\n",
}


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_an_extended_configuration_s_include_moves_tsc_s_stop(tmp_path: Path, version: str) -> None:
    """tsc -p stops at lib/bad.ts's syntax error once settings.json includes lib: its TS1136
    alone. TypeScript 7.0.2 said use.ts's TS2322 besides: `native_program` listed the
    program again only when a configuration by its name changed (tsconfig*, ...)."""
    root = typescript_committed(tmp_path / "p", INCLUDED, version)
    assert tsc_rows(root) == Counter({("src/use.ts", 1, "2322"): 1})
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert warm.run(workspace_diagnostics(warm.ws)).errors == 1
        (root / "settings.json").write_text(json.dumps({**CONFIG, "include": ["src", "lib"]}))
        assert tsc_rows(root) == Counter({("lib/bad.ts", 1, "1136"): 1})
        now = warm.run(workspace_diagnostics(warm.ws))
        assert Counter((d.path, d.line, d.code) for d in now.diagnostics) == tsc_rows(root)


def test_an_option_tsc_refuses_in_an_extended_configuration_is_said(tmp_path: Path) -> None:
    """settings.json given an option TypeScript 7 removed: tsc -p says `error TS5108: Option
    'moduleResolution=node10' has been removed.` (exit 1, no file named) and a fresh
    workspace says it at tsconfig.json:1; the warm one said 0 errors: the configuration's
    errors were kept while tsconfig.json's own stamp stood (`ops/tsconfig.py`,
    `native_program.configuration`)."""
    root = typescript_committed(tmp_path / "p", FILES, TS7_PINNED)
    options = {**CONFIG["compilerOptions"], "moduleResolution": "node10", "module": "commonjs"}
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert warm.run(workspace_diagnostics(warm.ws)).errors == 0
        (root / "settings.json").write_text(json.dumps({**CONFIG, "compilerOptions": options}))
        assert gate(root) == (1, f"error TS5108: {REMOVED}\n")
        now = warm.run(workspace_diagnostics(warm.ws))
        said = [(d.path, d.line, d.code, d.message) for d in now.diagnostics]
        assert said == [("tsconfig.json", 1, "5108", REMOVED)]
