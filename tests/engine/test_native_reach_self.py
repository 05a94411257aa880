"""A package importing itself by its own name: package.json's `name` and `exports`, which
TypeScript resolves without any node_modules link (`import { esmOnly } from "fmtkit/esm"`,
"./esm" -> ./src/esm-only.mts; `import bridge = require("fmtkit")` in a .cts, "."'s
"require" condition -> ./src/bridge.cts), and its `imports` (`#internal/*`, `#eq`). An edit
of the file an export maps to reaches its importers: the watched check, a preview, a one-shot
`check --baseline HEAD` and `diagnostics FILE --baseline HEAD` ask them (a self-reference was
read as a file's name, `esm`, not through `exports`, and a package's own name was known only
through a node_modules symlink: TypeScript 7 said 1 error where tsc -p says 2, 0 new, exit 0;
the examiner's finding C). TypeScript 7 has no moduleResolution without self-references
(node10 and classic are gone: TS5108), so every package with `exports` counts. TypeScript
5's builder follows its own resolution: right there too (5.9.3). Real TypeScript 7.0.2 and
5.9.3, the project's own `tsc -p` beside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.engine.native_reach import import_aliases, native_sessions
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.models import FileDiagnostic
from lspd.ops.preview import previewed
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, warm_root
from tests.engine.test_native_check import GATE_LINE, check
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_committed

MANIFEST = {
    "name": "fmtkit",
    "version": "0.0.0",
    "type": "module",
    "exports": {
        ".": {
            "import": {"types": "./src/index.ts", "default": "./dist/index.js"},
            "require": {"types": "./src/bridge.cts", "default": "./dist/bridge.cjs"},
        },
        "./esm": {"import": {"types": "./src/esm-only.mts", "default": "./dist/esm-only.mjs"}},
    },
    "imports": {
        "#internal/*": "./src/internal/*",
        "#eq": {"types": "./src/equal.ts", "default": "./dist/equal.js"},
    },
}
OPTIONS = {"strict": True, "noEmit": True, "module": "nodenext", "types": []}
ESM = 'export const esmOnly: string = "esm";\n'
BRIDGE = (
    'function describe(name: string): string {\n  return name + "!";\n}\n\nexport = { describe };\n'
)
UTIL = 'export const SEP: string = " | ";\n'
EQUAL = "export function same(a: number, b: number): boolean {\n  return a === b;\n}\n"
FILES = {
    "package.json": json.dumps(MANIFEST),
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/index.ts": "export function rank(level: string): number {\n  return level.length;\n}\n",
    "src/esm-only.mts": ESM,
    "src/bridge.cts": BRIDGE,
    "src/internal/util.ts": UTIL,
    "src/equal.ts": EQUAL,
    "src/consumer.ts": (
        'import { esmOnly } from "fmtkit/esm";\nimport { rank } from "fmtkit";\n\n'
        "export const fromSelf: string = esmOnly;\nexport const ranked: number = rank(fromSelf);\n"
    ),
    "src/consumer-cjs.cts": (
        'import bridge = require("fmtkit");\n\n'
        'export const described: string = bridge.describe("z");\n'
    ),
    "src/sep.ts": 'import { SEP } from "#internal/util.js";\n\nexport const sep: string = SEP;\n',
    "src/compare.ts": 'import { same } from "#eq";\n\nexport const equal: boolean = same(1, 2);\n',
    "src/leaf.ts": "export const leaf = 1;\n",
}
# Each edit: the file, its new text, what tsc -p then says, the files the watched check asks.
EDITS = {
    "self subpath": (
        "src/esm-only.mts",
        "export const esmOnly: number = 1;\n",
        {("src/consumer.ts", 4, 14, "2322")},
        ["src/consumer.ts", "src/esm-only.mts"],
    ),
    # consumer.ts names "fmtkit" too (its import condition: index.ts): asked, never fewer
    "self require condition": (
        "src/bridge.cts",
        BRIDGE.replace("name: string", "name: number").replace("name +", "String(name) +"),
        {("src/consumer-cjs.cts", 3, 50, "2345")},
        ["src/bridge.cts", "src/consumer-cjs.cts", "src/consumer.ts"],
    ),
    "imports pattern": (
        "src/internal/util.ts",
        "export const SEP: number = 1;\n",
        {("src/sep.ts", 3, 14, "2322")},
        ["src/internal/util.ts", "src/sep.ts"],
    ),
    "imports condition": (
        "src/equal.ts",
        EQUAL.replace("number", "string"),
        {("src/compare.ts", 3, 36, "2345")},
        ["src/compare.ts", "src/equal.ts"],
    ),
}
NESTED = {
    "package.json": json.dumps({"name": "mono", "private": True}),
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["packages"]}),
    "packages/a/package.json": json.dumps(
        {"name": "@x/a", "type": "module", "exports": {"./sub": "./src/subpath.ts"}}
    ),
    "packages/a/src/subpath.ts": "export const sub = 1;\n",
    "packages/a/src/use.ts": 'import { sub } from "@x/a/sub";\n\nexport const two = sub + 1;\n',
}
Found = set[tuple[str, int, int, str]]


def project(root: Path, version: str = TS7_PINNED) -> Path:
    """`FILES` committed, on TypeScript `version`; no node_modules link of fmtkit."""
    root = typescript_committed(root, FILES, version)
    assert tsc(root) == set()
    return root


def tsc(root: Path) -> Found:
    return {(p, int(a), int(b), c) for p, a, b, c in GATE_LINE.findall(gate(root)[1])}


def errors(warm: Warm) -> Found:
    result = warm.run(workspace_diagnostics(warm.ws, limit=1000))
    return {(d.path or "", d.line, d.column, d.code or "") for d in result.diagnostics}


def test_the_aliases_follow_the_packages_own_name(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    found = answer(root, aliases)
    assert found is not None
    assert "esm" in found["esm-only"] and "fmtkit" in found["bridge"]
    assert "#eq" in found["equal"]
    # a package below the root importing itself, linked nowhere (the root's tsconfig holds it)
    nested = typescript_committed(tmp_path / "m", NESTED, TS7_PINNED)
    assert tsc(nested) == set()
    found = answer(nested, aliases)
    assert found is not None and "sub" in found["subpath"]


async def aliases(ws: Workspace) -> dict[str, set[str]] | None:
    sessions = native_sessions(ws, list(ws.projects.source_files()))
    return import_aliases(ws, set(sessions.values()))


def test_the_watched_check_asks_the_importers_by_the_packages_name(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    every = sorted(name for name in FILES if name.startswith("src/"))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm) == (every, set())
        for name, (path, text, truth, asked) in EDITS.items():
            (root / path).write_text(text)
            assert tsc(root) == truth, name
            assert check(warm) == (asked, truth), name
            (root / path).write_text(FILES[path])
            assert check(warm) == (asked, set()), name


@pytest.mark.parametrize("name", list(EDITS))
def test_a_preview_and_the_baselines_reach_the_importers(tmp_path: Path, name: str) -> None:
    """TypeScript 7, one-shot: each question a workspace of its own, as the CLI asks it."""
    root = project(tmp_path / "p")
    path, text, truth, _ = EDITS[name]
    preview = answer(root, lambda ws: previewed(ws, [{"path": path, "content": text}]))
    (root / path).write_text(text)
    assert tsc(root) == truth
    assert introduced(preview.changes.introduced) == truth
    since = answer(root, lambda ws: workspace_diagnostics(ws, limit=1000, baseline="HEAD"))
    assert since.changes is not None
    assert introduced(since.changes.introduced) == truth
    (importer, *_), *_ = truth
    one = answer(root, lambda ws: diagnostics(ws, importer, baseline="HEAD"))
    assert one.changes is not None and introduced(one.changes.introduced) == truth


@pytest.mark.parametrize("name", ["self subpath", "self require condition"])
def test_typescript_5s_builder_follows_the_packages_name(tmp_path: Path, name: str) -> None:
    """TypeScript 5.9.3 in a watched daemon: its builder re-checks what TypeScript resolved."""
    root = project(tmp_path / "p", "5.9.3")
    path, text, truth, _ = EDITS[name]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert errors(warm) == set()
        (root / path).write_text(text)
        assert tsc(root) == truth
        assert errors(warm) == truth
        since = warm.run(workspace_diagnostics(warm.ws, limit=1000, baseline="HEAD")).changes
        assert since is not None and introduced(since.introduced) == truth


def introduced(found: list[FileDiagnostic]) -> Found:
    return {(d.path or "", d.line, d.column, d.code or "") for d in found}


PATTERNS = {  # wildcards whose files keep the specifier's last name
    "./features/*.js": {"types": "./src/features/*.ts", "default": "./dist/features/*.js"},
    "./widgets/*": "./src/widgets/*/index.ts",
}
# TypeScript reads no typesVersions of a package with exports (7.0.2's --traceResolution)
VERSIONS = {"typesVersions": {"*": {"*": ["dist/old/*"]}}}
ALPHA = "export const alpha: string = 'a';\n"
PATTERNED = {
    "package.json": json.dumps({**MANIFEST, "exports": PATTERNS, "imports": {}, **VERSIONS}),
    "tsconfig.json": FILES["tsconfig.json"],
    "src/features/alpha.ts": ALPHA,
    "src/widgets/beta/index.ts": "export const beta: string = 'b';\n",
    "src/use.ts": (
        'import { alpha } from "fmtkit/features/alpha.js";\n'
        'import { beta } from "fmtkit/widgets/beta";\n\n'
        "export const both: string = alpha + beta;\n"
    ),
    "src/leaf.ts": "export const leaf = 1;\n",
}


# jotai 2's: TypeScript 7 takes the first range; the last maps every subpath to one file
JOTAI = {
    "typesVersions": {
        ">=4.8": {"esm/*": ["esm/*"], "*": ["*"]},
        ">=3.8": {"esm/*": ["ts3.8/*"], "*": ["ts3.8/*"]},
        "*": {"*": ["ts_version_3.8_and_above_is_required.d.ts"]},
    }
}


# kysely's: a range for TypeScript before 5.4 alone, no TypeScript 7 takes it
OUTDATED = {"typesVersions": {"<5.4": {"*": ["outdated-typescript.d.ts"]}}}


@pytest.mark.parametrize(
    "versions", [VERSIONS, JOTAI, OUTDATED], ids=["wildcard", "ranges", "outdated"]
)
def test_a_wildcard_export_keeping_the_name_asks_its_importers_alone(
    tmp_path: Path, versions: dict[str, object]
) -> None:
    """`./features/*.js` -> `./src/features/*.ts` and `./widgets/*` -> a folder's index: the
    importers are found by name (every file was asked after any edit: not followed), and
    the package's `typesVersions` beside `exports` is none of TypeScript's either; nor are
    its ranges past the first every TypeScript 7 takes (jotai's: a wildcard to one file,
    which asked every file after a comment in its core store.ts), nor one no TypeScript 7
    takes (kysely's `<5.4`: 739 files asked after a test file's edit)."""
    manifest = {**MANIFEST, "exports": PATTERNS, "imports": {}, **versions}
    root = typescript_committed(
        tmp_path / "p", {**PATTERNED, "package.json": json.dumps(manifest)}, TS7_PINNED
    )
    assert tsc(root) == set()
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == set()
        (root / "src/features/alpha.ts").write_text(ALPHA.replace("string = 'a'", "number = 1"))
        (root / "src/widgets/beta/index.ts").write_text("export const beta: number = 2;\n")
        truth = tsc(root)
        assert truth == {("src/use.ts", 4, 14, "2322")}
        asked = ["src/features/alpha.ts", "src/use.ts", "src/widgets/beta/index.ts"]
        assert check(warm) == (asked, truth)


# `resolvePackageJsonExports: false` (bundler): TypeScript reads the typesVersions of a
# package with exports after all (7.0.2: "@x/lib/sub" -> ./src/other.ts, not exports' sub.ts)
REMAPPED = {
    "package.json": json.dumps({"name": "mono", "private": True}),
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                **OPTIONS,
                "module": "esnext",
                "moduleResolution": "bundler",
                "resolvePackageJsonExports": False,
            },
            "include": ["src", "packages"],
        }
    ),
    "packages/lib/package.json": json.dumps(
        {
            "name": "@x/lib",
            "exports": {".": "./src/index.ts", "./sub": "./src/sub.ts"},
            "typesVersions": {"*": {"sub": ["./src/other.ts"]}},
        }
    ),
    "packages/lib/src/index.ts": "export const i = 1;\n",
    "packages/lib/src/sub.ts": "export const other = 2;\n",
    "packages/lib/src/other.ts": "export const other = 1;\n",
    "src/use.ts": 'import { other } from "@x/lib/sub";\n\nexport const n: number = other;\n',
}


def test_typesversions_beside_exports_still_names_its_targets_importers(tmp_path: Path) -> None:
    """Where exports are not read, typesVersions is: an edit of its target (other.ts) must
    ask the importer of `@x/lib/sub` (it named only exports' sub.ts: use.ts unasked)."""
    root = typescript_committed(tmp_path / "p", REMAPPED, TS7_PINNED)
    (root / "node_modules" / "@x").mkdir()
    (root / "node_modules" / "@x" / "lib").symlink_to(root / "packages" / "lib")
    found = answer(root, aliases)
    assert found is not None and "sub" in found["other"]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == set()
        (root / "packages/lib/src/other.ts").write_text('export const other = "s";\n')
        truth = tsc(root)
        assert truth == {("src/use.ts", 3, 14, "2322")}
        assert check(warm) == (["packages/lib/src/other.ts", "src/use.ts"], truth)
