"""A TypeScript function's overload signatures are one symbol, found at its name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops import navigation
from lspd.ops.resolve import AmbiguousSymbol
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import TS7_PINNED, typescript_package

MAP = """import { Fn } from '../types';

export function map<T, R>(project: (value: T) => R): Fn<T, R>;
/** @deprecated Use a closure. */
export function map<T, R, A>(project: (this: A, value: T) => R, thisArg: A): Fn<T, R>;

/**
 * Applies `project` to each value.
 */
export function map<T, R>(project: (value: T) => R, thisArg?: unknown): Fn<T, R> {
  return (source) => source.map((value) => project.call(thisArg, value));
}
"""

MERGE_MAP = """import { Fn } from '../types';

export function mergeMap<T, R>(
  project: (value: T) => R[]
): Fn<T, R>;
export function mergeMap<T, R>(
  project: (value: T) => R[],
  concurrent: number
): Fn<T, R>;
export function mergeMap<T, R>(
  project: (value: T) => R[],
  concurrent = Infinity
): Fn<T, R> {
  return (source) => source.slice(0, concurrent).flatMap(project);
}
"""

DECLARED = """export declare function parse(text: string): number;
export declare function parse(text: string, radix: number): number;
"""

SCHEDULER = """export function animate(): number {
  let map: Map<number, number> | undefined;
  map = new Map();
  return map.size;
}
"""


@pytest.fixture(params=["5", "7"])
def overloads(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Warm]:
    """rxjs's operators in small: exported overloaded functions, a declared-only one, and
    a variable named as one of them in another file; on tsserver (lspd's TypeScript 5) and
    on TypeScript 7's `tsc --lsp` (the project's own)."""
    root = tmp_path / "overloads"
    if request.param == "7":
        (root / "node_modules").mkdir(parents=True)
        (root / "node_modules/typescript").symlink_to(typescript_package(TS7_PINNED))
    (root / "src/ops").mkdir(parents=True)
    (root / "src/testing").mkdir()
    (root / "src/types.ts").write_text("export type Fn<T, R> = (source: T[]) => R[];\n")
    (root / "src/ops/map.ts").write_text(MAP)
    (root / "src/ops/mergeMap.ts").write_text(MERGE_MAP)
    (root / "src/ops/declared.ts").write_text(DECLARED)
    (root / "src/testing/scheduler.ts").write_text(SCHEDULER)
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "lib": ["es2019"]}, "include": ["src"]}'
    )
    yield from warm_root(root, tmp_path / "logs")


def test_an_overloaded_function_is_found_at_its_implementations_name(overloads: Warm) -> None:
    """rxjs's mergeMap: tsserver's symbol for a signature after the first starts at
    `export`, where nothing is defined. Before, `no location found` and success."""
    ws = overloads.ws
    found = overloads.run(navigation.definition(ws, symbol="mergeMap"))
    native = (ws.root / "node_modules").exists()
    assert (found.toolchain or "").startswith(
        f"typescript {TS7_PINNED}" if native else "typescript 5."
    )
    # asked at the implementation's name, TypeScript 7 lists every signature; tsserver it
    signatures = [("src/ops/mergeMap.ts", 3, 17), ("src/ops/mergeMap.ts", 6, 17)]
    assert [(loc.path, loc.line, loc.column) for loc in found.locations] == [
        *(signatures if native else []),
        ("src/ops/mergeMap.ts", 10, 17),
    ]
    hover = overloads.run(navigation.hover(ws, symbol="mergeMap"))
    assert (hover.path, hover.line, hover.column) == ("src/ops/mergeMap.ts", 10, 17)
    assert "function mergeMap" in hover.contents


def test_overloads_and_a_same_named_variable_are_two_candidates(overloads: Warm) -> None:
    """rxjs's map: before, its three signatures and a variable were 4 symbols, and the
    longer name path the error advised answered nothing."""
    ws = overloads.ws
    with pytest.raises(AmbiguousSymbol) as error:
        overloads.run(navigation.definition(ws, symbol="map"))
    assert [(c.name_path, c.kind, c.path, c.line) for c in error.value.candidates] == [
        ("src.ops.map.map", "function", "src/ops/map.ts", 10),
        ("src.testing.scheduler.animate.map", "variable", "src/testing/scheduler.ts", 2),
    ]
    assert str(error.value).startswith(
        "`map` matches 2 symbols: src.ops.map.map (function, src/ops/map.ts:10:17); "
        "src.testing.scheduler.animate.map (variable, src/testing/scheduler.ts:2:7). "
    )
    for advised in ("src.ops.map.map", "map.map"):
        found = overloads.run(navigation.definition(ws, symbol=advised))
        assert [(loc.path, loc.line, loc.column) for loc in found.locations][-1] == (
            "src/ops/map.ts",
            10,
            17,
        )
        assert found.toolchain is not None
        assert found.total == (3 if found.toolchain.startswith("typescript 7") else 1)


def test_a_declared_only_overload_is_found_at_its_first_signatures_name(overloads: Warm) -> None:
    hover = overloads.run(navigation.hover(overloads.ws, symbol="parse"))
    assert (hover.path, hover.line, hover.column) == ("src/ops/declared.ts", 1, 25)
    assert "parse(text: string): number" in hover.contents
