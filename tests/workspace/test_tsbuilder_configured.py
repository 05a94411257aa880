"""TypeScript 5's builder says what tsc -p says of a program whose options err: TS2688 (a
`types` entry not found) stops its semantic check (tsc -p 5.9.3 says TS2688 alone, exit 2),
so the builder checks none of its files and says where (`configured`), in a check and in a
preview; a configuration-parsing error (TS5023, an unknown option) stops nothing (tsc says it
and the TS2322). Real TypeScript 5.9.3, against its own tsc -p."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lspd.workspace.tsbuilder import Builder
from tests.engine.test_affected import written
from tests.workspace.toolchains import gate, typescript_package

VERSION = "5.9.3"
BROKEN = "export const n: number = 'x';\n"


def _project(root: Path, options: dict[str, Any]) -> Path:
    config = {"compilerOptions": {"strict": True, "noEmit": True, **options}, "include": ["src"]}
    root = written(root, {"tsconfig.json": json.dumps(config), "src/a.ts": BROKEN})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(VERSION))
    return root


def _asked(root: Path, texts: dict[Path, str | None] | None = None) -> Any:
    async def run() -> Any:
        builder = Builder(typescript_package(VERSION), root.parent / "tsbuilder.log")
        try:
            project = await builder.check(root / "tsconfig.json")
            if texts is None:
                return project
            return await builder.preview(root / "tsconfig.json", texts)
        finally:
            await builder.stop()

    return asyncio.run(run())


def test_a_type_library_not_found_stops_the_check(tmp_path: Path) -> None:
    root = _project(tmp_path / "app", {"types": ["nope"]})
    code, out = gate(root)
    assert (code, out.splitlines()[0]) == (
        2,
        "error TS2688: Cannot find type definition file for 'nope'.",
    )
    project = _asked(root)
    a, config = root / "src/a.ts", root / "tsconfig.json"
    assert (project.items[a], project.stopped, project.configured) == ([], [], [(config, 1)])
    # a preview of another type error there: none said, as tsc says none
    preview = _asked(root, {a: BROKEN + "export const m: string = 1;\n"})
    assert (preview.items[a], preview.configured) == ([], [(config, 1)])


def test_a_parsing_error_stops_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "app", {"bogus": 1})
    assert [line.split(": ")[1] for line in gate(root)[1].splitlines()] == [
        "error TS2322",
        "error TS5023",
    ]
    project = _asked(root)
    assert [i["code"] for i in project.items[root / "src/a.ts"]] == [2322]
    assert project.configured == []
