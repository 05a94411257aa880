"""A file absent in a held state of a project whose every file is a module (Vite's
`"moduleDetection": "force"`): TypeScript 7's LSP holds the gone file as an empty text, an
empty module there, and said "Module '"./core"' has no exported member 'add'." (TS2305) of
each name imported from it, and nothing of an `export *` of it; tsc, the file deleted,
cannot find the module (TS2307, once per import and per `export *`). A preview of the
deletion and of a rename say tsc's answer (real TypeScript 7.0.2, its `tsc -p` on the
written tree beside; `native_held._shadowed`, on a copy)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CONFIG, CORE, native_project
from tests.workspace.toolchains import gate

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
USER = 'import { add, type Adder } from "./core";\nexport const three: number = add(1, 2);\n'
ADDER = "export type Adder = typeof add;\n"
NOT_FOUND = "Cannot find module './core' or its corresponding type declarations."


def test_a_deleted_module_is_not_found_where_every_file_is_a_module(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    options = {**CONFIG["compilerOptions"], "moduleDetection": "force"}
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src"]})
    )
    (root / "src/core.ts").write_text(CORE + ADDER)
    (root / "src/user.ts").write_text(USER)
    (root / "src/index.ts").write_text('export * from "./core";\nexport { three } from "./user";\n')
    gone = [{"path": "src/core.ts", "content": None}]
    moved = [*gone, {"path": "src/sum.ts", "content": CORE + ADDER}]
    once = answer(root, lambda ws: previewed(ws, moved)).changes
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        previews = [once, *(warm.run(previewed(warm.ws, c)).changes for c in (gone, moved))]
        (root / "src/core.ts").unlink()
        truth = {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}
        assert truth == {
            ("src/user.ts", 1, 33, "2307", NOT_FOUND),
            ("src/index.ts", 1, 15, "2307", NOT_FOUND),
        }
        for changes in previews:
            found = {(d.path, d.line, d.column, d.code, d.message) for d in changes.introduced}
            assert (found, changes.fixed) == (truth, [])
