"""A TypeScript 7 file held present in a folder the disk lacks: `tsc --lsp` finds no open
file in a directory not on disk, so its importers said "Cannot find module" (TS2307) in a
state where tsc, the file written, resolves it. HEAD's state of a file deleted with its
folder since (`git rm src/internal/util.ts`, imported through package.json `"imports"`
`#internal/*` by a JavaScript file and by a `.cts` with a relative path) held the deletion's
own errors: a one-shot check --baseline HEAD said them unchanged, exit 0, and the clean tree
after said them fixed (the examiner's s58 A, TypeScript 7.0.2). A preview of a new file in a
new folder is answered by tsc too (it set the importer's error aside, unchecked).
`native_held._shadowed` checks such a program on a copy; real TypeScript 7.0.2, its `tsc -p`
on the written tree the truth."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes, FileDiagnostic
from lspd.ops.preview import previewed
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_package

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): (.*)$", re.MULTILINE)
Found = set[tuple[str, int, int, str, str]]
PACKAGE = {"name": "kit", "type": "module", "imports": {"#internal/*": "./src/internal/*"}}
OPTIONS = {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": True,
    "noEmit": True,
    "allowJs": True,
    "checkJs": False,
    "types": [],
}
FILES = {
    "src/internal/util.ts": "export function pad(text: string, width: number): string {\n"
    "  return text.padEnd(width);\n}\n",
    "src/js/format.js": '// @ts-check\nimport { pad } from "#internal/util.js";\n\n'
    "/** @param {string} name */\nexport function label(name) {\n  return pad(name, 8);\n}\n",
    "src/bridge.cts": 'import util = require("./internal/util.js");\n\n'
    'export = { wide: util.pad("x", 4) };\n',
    "src/app.ts": 'export const known: number = "known error";\n',
}
NEW = "export const more: number = 2;\n"
USE = 'import { more } from "./fresh/more.js";\n\nexport const shown: string = more;\n'


def nodenext_project(
    root: Path, files: dict[str, str] = FILES, package: dict[str, object] = PACKAGE
) -> Path:
    """`files` and `package` (package.json) committed at `root`: a nodenext project on the
    pinned TypeScript 7, allowJs."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "package.json").write_text(json.dumps(package))
    config = {"compilerOptions": OPTIONS, "include": ["src"]}
    (root / "tsconfig.json").write_text(json.dumps(config))
    (root / ".gitignore").write_text("node_modules\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    return committed(root.resolve())


def truth(root: Path) -> Found:
    """tsc -p's errors of the tree as written."""
    return {(p, int(a), int(b), c, m) for p, a, b, c, m in LINE.findall(gate(root)[1])}


def _baseline(root: Path) -> Changes:
    changes = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD")).changes
    assert changes is not None
    return changes


def rows(found: Changes) -> tuple[Found, Found]:
    """The errors `found` says introduced and fixed, as tsc's lines read (`truth`)."""

    def read(items: list[FileDiagnostic]) -> Found:
        return {(d.path, d.line, d.column, d.code or "", d.message) for d in items}

    return read(found.introduced), read(found.fixed)


def test_head_s_result_holds_a_file_deleted_with_its_folder(tmp_path: Path) -> None:
    root = nodenext_project(tmp_path / "kit")
    head = truth(root)
    assert [row[3] for row in head] == ["2322"]
    subprocess.run(["git", "rm", "-q", "src/internal/util.ts"], cwd=root, check=True)
    assert not (root / "src/internal").exists()
    now = truth(root)
    missing = "Cannot find module '{}' or its corresponding type declarations."
    assert now - head == {
        ("src/bridge.cts", 1, 23, "2307", missing.format("./internal/util.js")),
        ("src/js/format.js", 2, 21, "2307", missing.format("#internal/util.js")),
    }
    changes = _baseline(root)  # HEAD's result made now, util.ts held at HEAD's text
    assert (rows(changes), changes.unchanged) == ((now - head, set()), 1)
    subprocess.run(["git", "checkout", "-q", "HEAD", "--", "."], cwd=root, check=True)
    clean = _baseline(root)  # read back: no phantom fix of errors HEAD never had
    assert (rows(clean), clean.unchanged) == ((set(), set()), 1)


def test_a_preview_of_a_new_file_in_a_new_folder_is_tsc_s(tmp_path: Path) -> None:
    root = nodenext_project(tmp_path / "kit")
    head = truth(root)
    change = [
        {"path": "src/fresh/more.ts", "content": NEW},
        {"path": "src/use.ts", "content": USE},
    ]
    previewed_now = answer(root, lambda ws: previewed(ws, change)).changes
    (root / "src/fresh").mkdir()
    (root / "src/fresh/more.ts").write_text(NEW)
    (root / "src/use.ts").write_text(USE)
    now = truth(root)
    shown = "Type 'number' is not assignable to type 'string'."
    assert now - head == {("src/use.ts", 3, 14, "2322", shown)}
    assert rows(previewed_now) == (now - head, set())
    assert previewed_now.unchecked == []
