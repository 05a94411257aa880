"""A preview of a rename `.mts` -> `.cts` (`git mv src/esm-only.mts src/esm-only.cts`) on
TypeScript 7: the old path is held gone, as an empty text, and `.mts` is a module whatever
it holds, so the LSP said of its importers "has no exported member" (TS2305) and "Property
'loadConfig' does not exist" (TS2339), no "not a module" (TS2306) naming it; the file of its
name beside (the `.cts`) made it a file another resolves, so no copy checked its program.
tsc, the rename written, cannot find `./esm-only.mjs` (TS2307) from a `.cts` and an `.mts`,
nor the package's own `kit/esm` its `exports` maps to the old path (the examiner's s58 B:
3 of 4 introduced wrong, one-shot and daemon). Real TypeScript 7.0.2, its `tsc -p` on the
renamed tree the truth (`native_held._shadowed`: the program on a copy)."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_native_held_folder import nodenext_project, rows, truth

ESM = (
    'export const esmOnly: string = "esm";\n\n'
    "export function loadConfig(name: string): { name: string; at: string } {\n"
    "  return { name, at: import.meta.url };\n}\n"
)
FILES = {
    "src/esm-only.mts": ESM,
    "src/bridge.cts": 'import esm = require("./esm-only.mjs");\n\n'
    "export = { named: esm.loadConfig('b').name };\n",
    "src/use-bridge.mts": 'import { loadConfig } from "./esm-only.mjs";\n\n'
    'export const named: string = loadConfig("x").name;\n'
    'export { esmOnly } from "kit/esm";\n',
    "src/app.ts": 'export const known: number = "known error";\n',
}
PACKAGE = {
    "name": "kit",
    "type": "module",
    "exports": {"./esm": {"import": {"types": "./src/esm-only.mts", "default": "./x.mjs"}}},
}
MISSING = "Cannot find module '{}' or its corresponding type declarations."


def test_a_renamed_module_s_old_path_is_gone(tmp_path: Path) -> None:
    root = nodenext_project(tmp_path / "kit", FILES, PACKAGE)
    head = truth(root)
    renamed = [
        {"path": "src/esm-only.mts", "content": None},
        {"path": "src/esm-only.cts", "content": ESM},
    ]
    once = answer(root, lambda ws: previewed(ws, renamed)).changes
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        watched = warm.run(previewed(warm.ws, renamed)).changes
        (root / "src/esm-only.mts").rename(root / "src/esm-only.cts")
        now = truth(root)
        assert now - head == {
            ("src/bridge.cts", 1, 22, "2307", MISSING.format("./esm-only.mjs")),
            ("src/use-bridge.mts", 1, 28, "2307", MISSING.format("./esm-only.mjs")),
            ("src/use-bridge.mts", 4, 25, "2307", MISSING.format("kit/esm")),
            (
                "src/esm-only.cts",
                4,
                22,
                "1470",
                "The 'import.meta' meta-property is not allowed in files which will build "
                "into CommonJS output.",
            ),
        }
        for name, changes in {"one-shot": once, "daemon": watched}.items():
            assert rows(changes) == (now - head, set()), name
