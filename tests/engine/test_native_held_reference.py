"""A file a script names by `/// <reference path="./util.ts" />`, held gone by a preview (a
deletion, a rename): TypeScript 7's LSP holds it as an empty text, so the reference found
it and the LSP said nothing of it, where tsc, the file deleted, says "File './util.ts' not
found." (TS6053) beside the uses of its globals. A preview of the deletion and of a rename
say tsc's answer (real TypeScript 7.0.2, its `tsc -p` on the written tree beside;
`native_held._shadowed` checks the program on a copy). The examiner's globals project:
the rename previewed 0 new, exit 0."""

from __future__ import annotations

import re
from pathlib import Path

from lspd.ops.preview import previewed
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import native_project
from tests.workspace.toolchains import gate

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
UTIL = "function shout(word: string): string {\n  return word.toUpperCase();\n}\n"
REPORT = '/// <reference path="./util.ts" />\n\nconst loud: string = shout("a");\n'


def test_a_referenced_file_held_gone_is_not_found(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/util.ts").write_text(UTIL)
    (root / "src/report.ts").write_text(REPORT)
    gone = [{"path": "src/util.ts", "content": None}]
    moved = [*gone, {"path": "src/helpers.ts", "content": UTIL}]
    once = answer(root, lambda ws: previewed(ws, gone)).changes
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        previews = {
            "one-shot deletion": (once, gone),
            "deletion": (warm.run(previewed(warm.ws, gone)).changes, gone),
            "rename": (warm.run(previewed(warm.ws, moved)).changes, moved),
        }
        for name, (changes, written) in previews.items():
            (root / "src/util.ts").unlink()
            if len(written) == 2:
                (root / "src/helpers.ts").write_text(UTIL)
            truth = {(p, int(a), int(b), c) for p, a, b, c, _ in LINE.findall(gate(root)[1])}
            assert ("src/report.ts", 1, 22, "6053") in truth, name
            found = {(d.path, d.line, d.column, d.code) for d in changes.introduced}
            assert (found, changes.fixed) == (truth, []), name
            (root / "src/helpers.ts").unlink(missing_ok=True)
            (root / "src/util.ts").write_text(UTIL)
