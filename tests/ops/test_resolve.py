"""Errors that teach: did-you-mean for names, matching paths for a bare file name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import navigation
from lspd.ops.resolve import AmbiguousSymbol
from tests.conftest import Warm, warm_root


def test_a_misspelled_member_gets_the_member_that_exists(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.definition(py.ws, symbol="Greeter.gret"))
    assert "no symbol named `Greeter.gret` was found. Did you mean `Greeter.greet`?" in str(
        error.value
    )


def test_a_misspelled_first_segment_gets_the_names_that_exist(py: Warm) -> None:
    with pytest.raises(InvalidInput, match=r"Did you mean `Greeter.greet`"):
        py.run(navigation.hover(py.ws, symbol="Greter.greet"))


def test_a_missing_member_names_its_owner(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.hover(py.ws, symbol="Greeter.zzzzzz"))
    assert "`Greeter` (pkg/greeting.py:12) has no member `zzzzzz`" in str(error.value)


def test_candidates_put_declarations_first(py: Warm) -> None:
    with pytest.raises(AmbiguousSymbol) as error:
        py.run(navigation.hover(py.ws, symbol="greet"))
    assert [(c.name_path, c.kind) for c in error.value.candidates] == [
        ("pkg.greeting.Greeter.greet", "method"),
        ("pkg.greeting.LoudGreeter.greet", "method"),
    ]
    assert str(error.value).startswith("`greet` matches 2 symbols: ")


def test_a_bare_file_name_gets_the_matching_paths(py: Warm) -> None:
    with pytest.raises(InvalidInput) as error:
        py.run(navigation.hover(py.ws, "greeting.py", 12, 7))
    assert str(error.value) == (
        "greeting.py does not exist; files ending in greeting.py: pkg/greeting.py. "
        "Send the path relative to the workspace root"
    )


MERGED = """export interface Shape {
  readonly sides: number;
}

export const Shape = {
  make(sides: number): Shape {
    return { sides };
  },
};

export class Box {
  private inner = 0;
  get size(): number {
    return this.inner;
  }
  set size(value: number) {
    this.inner = value;
  }
}

export const square: Shape = Shape.make(4);
"""


@pytest.fixture
def merged(tmp_path: Path) -> Iterator[Warm]:
    """A TypeScript module declaring `Shape` as an interface and a constant (one symbol)."""
    root = tmp_path / "merged"
    (root / "src").mkdir(parents=True)
    (root / "src/shape.ts").write_text(MERGED)
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}, "include": ["src"]}')
    yield from warm_root(root, tmp_path / "logs")


def test_typescripts_merged_declarations_are_one_symbol(merged: Warm) -> None:
    """zod's every schema: `interface ZodString` and `const ZodString`. Before, the name
    matched 2 symbols and the error asked for a longer name path that does not exist."""
    hover = merged.run(navigation.hover(merged.ws, symbol="Shape"))
    assert (hover.path, hover.line, hover.column) == ("src/shape.ts", 1, 18)
    assert "interface Shape" in hover.contents
    found = merged.run(navigation.definition(merged.ws, symbol="Shape"))
    assert [(loc.path, loc.line) for loc in found.locations] == [
        ("src/shape.ts", 1),
        ("src/shape.ts", 5),
    ]
    # no type among them: a getter and its setter stay two symbols
    with pytest.raises(AmbiguousSymbol) as error:
        merged.run(navigation.hover(merged.ws, symbol="Box.size"))
    assert [(c.kind, c.line) for c in error.value.candidates] == [
        ("method", 13),
        ("method", 16),
    ]
    assert str(error.value).endswith(
        "They share this name path in one file (a getter and its setter, two definitions "
        "under `if`): send the `path`, `line` and `column` of the one you mean"
    )


AMBIENT = """declare module "virtual:cfg" {
  export const x: number;
}
declare module "cfg.extra" {
  export function load(): void;
}
"""


@pytest.fixture
def ambient(tmp_path: Path) -> Iterator[Warm]:
    """TypeScript modules declared by their string (`declare module "virtual:cfg"`)."""
    root = tmp_path / "ambient"
    (root / "src").mkdir(parents=True)
    (root / "src/env.d.ts").write_text(AMBIENT)
    (root / "src/main.ts").write_text(
        'import { x } from "virtual:cfg";\nexport const y: number = x + 1;\n'
    )
    (root / "src/other.ts").write_text("export const z = 2;\n")
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}, "include": ["src"]}')
    yield from warm_root(root, tmp_path / "logs")


def test_a_module_named_by_its_string_resolves_with_or_without_quotes(ambient: Warm) -> None:
    """tsserver lists `declare module "virtual:cfg"` as `"virtual:cfg"` and its symbol
    search as `virtual:cfg`. Before, only the quoted name resolved, and the unquoted one
    said: no symbol named `virtual:cfg`. Did you mean `virtual:cfg`?"""
    ws = ambient.ws
    for name in ("virtual:cfg", '"virtual:cfg"', "'virtual:cfg'"):
        found = ambient.run(navigation.definition(ws, symbol=name))
        assert [(loc.path, loc.line, loc.column) for loc in found.locations] == [
            ("src/env.d.ts", 1, 16)
        ], name
    # Only the files holding its words were asked for their symbols (not src/other.ts).
    assert sorted(ws.display(p) for p in ws.symbols.kept()) == ["src/env.d.ts", "src/main.ts"]
    for name in ("virtual:cfg.x", '"virtual:cfg".x', '"cfg.extra".load'):
        hover = ambient.run(navigation.hover(ws, symbol=name))
        assert hover.path == "src/env.d.ts", name
    assert "const x: number" in ambient.run(navigation.hover(ws, symbol="virtual:cfg.x")).contents

    # The hints name what resolves.
    def hint(name: str) -> str:
        with pytest.raises(InvalidInput) as error:
            ambient.run(navigation.definition(ws, symbol=name))
        return str(error.value).partition(" was found.")[2].partition(" Use `")[0]

    assert hint("virtual:cfx") == " Did you mean `virtual:cfg`?"
    assert hint("virtual:cfx.x") == " Did you mean `virtual:cfg.x`?"
    assert hint("virtual:cfg.z") == (
        ' `"virtual:cfg"` (src/env.d.ts:1) has no member `z`; `document_symbols` with '
        "`symbol` lists its members."
    )
    assert hint("cfg.extra.load") == ' Did you mean `"cfg.extra".load`?'
    assert hint('"cfg.extr"') == ' Did you mean `"cfg.extra"`?'
    assert hint('"cfg.extra".lod') == ' Did you mean `"cfg.extra".load`?'
