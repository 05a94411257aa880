"""An npm-workspaces monorepo on TypeScript 7: a package imports another BY NAME
(`'@demo/utils'`), which node_modules resolves through the symlink npm makes
(node_modules/@demo/utils -> ../../packages/utils) to a workspace package: its `exports`
name its entry (utils: ./src/index.ts; core: its built ./dist/index.d.ts, as a published
package's do). An edit in one package reaches the files of the other packages importing it,
though they name nothing the edit declares: the watched check, the preview and a one-shot
check --baseline HEAD ask them (they were asked only where they named a changed declaration:
1 error where tsc -b says 3, 0 new, exit 0). Real TypeScript 7.0.2, its `tsc -b` on a cold
copy of the tree (no dist, no .tsbuildinfo) beside."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from lspd.engine.native_reach import import_aliases, native_sessions
from lspd.ops.preview import previewed
from lspd.servers.registry import node_executable
from lspd.workspace import Workspace
from tests.cli.test_line_ends import lspd
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import check
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

BASE = {
    "compilerOptions": {
        "strict": True,
        "composite": True,
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "rootDir": "src",
        "outDir": "dist",
        "types": [],
    },
    "include": ["src"],
}
TYPES = (
    "export interface Value {\n  prev: number;\n}\n\nexport type Listener = (v: Value) => void;\n"
)
STAMPED = TYPES.replace("prev: number;", "prev: number;\n  stamp: number;")
UTILS_INDEX = "export type { Listener } from './types';\n"
CORE = (
    "import type { Listener } from '@demo/utils';\n\n"
    "export function fire(listener: Listener): void {\n  listener({ prev: 1 });\n}\n\n"
    "export function scale(n: number): number {\n  return n * 2;\n}\n"
)
APP = "import { scale } from '@demo/core';\n\nexport const four: number = scale(2);\n"
FILES = {
    "packages/utils/src/types.ts": TYPES,
    "packages/utils/src/index.ts": UTILS_INDEX,
    "packages/core/src/index.ts": CORE,
    "packages/app/src/main.ts": APP,
}
EXPORTS = {  # utils' types are its sources, core's its built declarations
    "utils": {".": {"types": "./src/index.ts", "default": "./dist/index.js"}},
    "core": {".": {"types": "./dist/index.d.ts", "default": "./dist/index.js"}},
    "app": {".": "./dist/main.js"},
}
REFERENCES = {"utils": [], "core": ["../utils"], "app": ["../core", "../utils"]}
LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Found = set[tuple[str, int, int, str]]


def monorepo(root: Path) -> Path:
    """The three packages, their node_modules links as `npm install` makes them."""
    root.mkdir(parents=True)
    (root / "package.json").write_text(
        json.dumps({"name": "mono", "private": True, "workspaces": ["packages/*"]})
    )
    refs = [{"path": f"./packages/{name}"} for name in EXPORTS]
    (root / "tsconfig.json").write_text(json.dumps({"files": [], "references": refs}))
    (root / ".gitignore").write_text("node_modules\ndist\n*.tsbuildinfo\n")
    for name, exports in EXPORTS.items():
        package = root / "packages" / name
        (package / "src").mkdir(parents=True)
        manifest = {"name": f"@demo/{name}", "version": "0.0.0", "exports": exports}
        (package / "package.json").write_text(json.dumps(manifest))
        config = {**BASE, "references": [{"path": p} for p in REFERENCES[name]]}
        (package / "tsconfig.json").write_text(json.dumps(config))
        (root / "node_modules/@demo").mkdir(parents=True, exist_ok=True)
        (root / "node_modules/@demo" / name).symlink_to(Path("../../packages") / name)
    for name, text in FILES.items():
        (root / name).write_text(text)
    (root / "node_modules/typescript").symlink_to(typescript_package(TS7_PINNED))
    return root.resolve()


def tsc_b(root: Path, cold: Path) -> Found:
    """`tsc -b` on a copy of the tree as it is now, built from nothing (CI's gate)."""
    shutil.rmtree(cold, ignore_errors=True)
    shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns(".git", "dist"))
    tsc = [node_executable(), "node_modules/typescript/bin/tsc", "-b", "--pretty", "false"]
    done = subprocess.run(tsc, cwd=cold, capture_output=True, text=True, timeout=300)
    return {(p, int(a), int(b), c) for p, a, b, c in LINE.findall(done.stdout)}


def test_the_aliases_name_a_workspace_packages_entry(tmp_path: Path) -> None:
    root = monorepo(tmp_path / "m")

    async def aliases(ws: Workspace) -> dict[str, set[str]] | None:
        sessions = native_sessions(ws, list(ws.projects.source_files()))
        return import_aliases(ws, set(sessions.values()))

    found = answer(root, aliases)
    assert found is not None and {"utils", "core"} <= found["index"]


SIGNATURE = CORE.replace("(n: number)", "(n: number, k: number)")  # app's call breaks
RENAMED = "export type { Listener as Listen } from './types';\n"  # core's import breaks
EVERY = [
    "packages/app/src/main.ts",
    "packages/core/src/index.ts",
    "packages/utils/src/index.ts",
    "packages/utils/src/types.ts",
]


def test_an_edit_asks_the_other_packages_importers_by_name(tmp_path: Path) -> None:
    """types.ts -> utils' index.ts (its entry: `@demo/utils`) -> core -> app (`@demo/core`,
    through its built .d.ts): asked though none names `Value`; a change of app asks app."""
    root = monorepo(tmp_path / "m")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm) == (EVERY, set())
        (root / "packages/utils/src/types.ts").write_text(STAMPED)
        assert check(warm)[0] == EVERY  # was utils' two files alone
        (root / "packages/core/src/index.ts").write_text(SIGNATURE)
        assert check(warm)[0] == EVERY[:2]
        (root / "packages/app/src/main.ts").write_text(APP + "\n// more\n")
        assert check(warm)[0] == EVERY[:1]


def test_the_watched_check_says_tsc_bs_errors_of_the_other_package(tmp_path: Path) -> None:
    root = monorepo(tmp_path / "m")
    cold = tmp_path / "cold"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc_b(root, cold) == set()
        (root / "packages/utils/src/types.ts").write_text(STAMPED)  # core names no `Value`
        truth = tsc_b(root, cold)
        assert {(p, c) for p, _, _, c in truth} == {("packages/core/src/index.ts", "2741")}
        assert check(warm)[1] == truth


def test_a_cold_watched_check_says_a_referenced_packages_own_errors(tmp_path: Path) -> None:
    """TypeScript 7.0.2's server answers a file from any loaded project holding it: app's
    program holds core's and utils' sources (its references' redirects) but checks none of
    them, so core's own error was missed where app's main.ts was asked first (0 errors)."""
    root = monorepo(tmp_path / "m")
    broken = root / "packages/core/src/index.ts"
    broken.write_text(CORE + "\nexport const z: string = 1;\n")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        truth = tsc_b(root, tmp_path / "cold")
        assert {(p, c) for p, _, _, c in truth} == {("packages/core/src/index.ts", "2322")}
        assert check(warm) == (EVERY, truth)


def test_a_watched_preview_says_tsc_bs_errors_of_the_other_package(tmp_path: Path) -> None:
    """The preview in a warm watched workspace pulls the files it does not hold: core's
    index.ts was answered by app's program (0 new where tsc -b says TS2741 new)."""
    root = monorepo(tmp_path / "m")
    change: list[dict[str, str | None]] = [
        {"path": "packages/utils/src/types.ts", "content": STAMPED}
    ]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == set()
        preview = warm.run(previewed(warm.ws, change))
        (root / "packages/utils/src/types.ts").write_text(STAMPED)
        truth = tsc_b(root, tmp_path / "cold")
        assert {(p, c) for p, _, _, c in truth} == {("packages/core/src/index.ts", "2741")}
        assert {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced} == truth


def test_a_preview_and_a_baseline_reach_the_other_package(tmp_path: Path) -> None:
    root = committed(monorepo(tmp_path / "m"))
    cold = tmp_path / "cold"
    change: list[dict[str, str | None]] = [
        {"path": "packages/utils/src/types.ts", "content": STAMPED}
    ]
    preview = answer(root, lambda ws: previewed(ws, change))
    (root / "packages/utils/src/types.ts").write_text(STAMPED)
    truth = tsc_b(root, cold)
    assert {(p, c) for p, _, _, c in truth} == {("packages/core/src/index.ts", "2741")}
    assert {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced} == truth

    since = lspd(root, "check", "--baseline", "HEAD")["changes"]
    assert {(d["path"], d["code"]) for d in since["introduced"]} == {
        ("packages/core/src/index.ts", "2741")
    }
    assert since["fixed"] == []
    # HEAD's kept result was made with HEAD's texts: the clean tree has nothing new or fixed
    (root / "packages/utils/src/types.ts").write_text(TYPES)
    again = lspd(root, "check", "--baseline", "HEAD")["changes"]
    assert (again["introduced"], again["fixed"]) == ([], [])
