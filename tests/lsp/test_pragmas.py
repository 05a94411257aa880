"""The JSX pragmas TypeScript reads of a file (`lsp/pragmas.implied`): those of its leading
block comments, as TypeScript 7.0.2's tsc -p reads them (`@jsxImportSource preact` over a
file on another jsx-runtime: TS2875 above its first token, nothing after an import or in a
`//` comment)."""

from __future__ import annotations

from pathlib import Path

from lspd.lsp.pragmas import configs_near, implied, scripted

VIEW = "export const view = <p>{1}</p>;\n"


def test_the_leading_block_comments_pragmas_alone() -> None:
    assert implied(VIEW) == ()
    assert implied("/** @jsxImportSource preact */\n" + VIEW) == ("jsxImportSource preact",)
    assert implied("// hello\n/* x */\n/** @jsxImportSource preact */\n" + VIEW) == (
        "jsxImportSource preact",
    )
    assert implied("/**\n * Title\n * @jsxImportSource preact\n */\n" + VIEW) == (
        "jsxImportSource preact",
    )
    assert implied("/* @jsxImportSource preact*/" + VIEW) == ("jsxImportSource preact",)
    assert implied("/** @jsxRuntime classic */\n" + VIEW) == ("jsxRuntime classic",)
    assert implied('import "./b";\n/** @jsxImportSource preact */\n' + VIEW) == ()
    assert implied("// @jsxImportSource preact\n" + VIEW) == ()
    assert implied("#!/usr/bin/env node\n/** @jsxImportSource a */\n" + VIEW) == (
        "jsxImportSource a",
    )


def test_the_configurations_of_the_nearest_folder_holding_one(tmp_path: Path) -> None:
    (tmp_path / "src/app").mkdir(parents=True)
    for name in ("tsconfig.json", "tsconfig.app.json", "package.json"):
        (tmp_path / name).write_text("{}")
    view = tmp_path / "src/app/view.tsx"
    assert configs_near(view) == [tmp_path / "tsconfig.app.json", tmp_path / "tsconfig.json"]
    assert scripted(view) and not scripted(tmp_path / "src/a.d.ts")
    assert not scripted(tmp_path / "src/a.py")
