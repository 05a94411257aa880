"""TypeScript 7's configuration errors of a program whose files an edit changes without a
file coming or going (an import of a file outside `include`): tsc -p 7.0.2 against lspd
check, a watched workspace."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import warm_root
from tests.engine.test_native_check import CONFIG, check, native_project, tsc


def test_an_import_outside_root_dir_is_said_as_tsc_says_it(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    options = {**CONFIG["compilerOptions"], "rootDir": "src"}
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src"]})
    )
    (root / "lib").mkdir()
    (root / "lib/x.ts").write_text("export const x = 1;\n")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        leaf = root / "src/leaf.ts"
        leaf.write_text('import { x } from "../lib/x";\nexport const y = x;\n')
        truth = tsc(warm)
        assert ("src/leaf.ts", 1, 19, "6059") in truth
        assert check(warm)[1] == truth
