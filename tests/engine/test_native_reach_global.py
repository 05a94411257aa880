"""A TypeScript 7 module's `declare global` block (or its augmentation of another module)
declares what every file of the program sees, importing it or not: its edit reaches every
file (`native_reach.everywhere`), in the daemon's whole check and in a preview, as it does
for a `.d.ts` or a script, and so does taking it away (what was global before the edit).
Before, only its importers were asked again: a file using the global interface kept its
old answer. Real TypeScript 7.0.2, its `tsc -p` beside."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_native_check import check, native_project, tsc

GLOBALS = "export {};\n\ndeclare global {\n  interface Settings {\n    level: number;\n  }\n}\n"
USE = "export const settings: Settings = { level: 1 };\n"  # imports nothing


def test_a_global_declared_in_a_module_reaches_every_file(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/globals.ts").write_text(GLOBALS)
    (root / "src/use.ts").write_text(USE)
    edited = GLOBALS.replace("level: number", "level: string")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        preview = warm.run(previewed(warm.ws, [{"path": "src/globals.ts", "content": edited}]))
        introduced = {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced}

        (root / "src/globals.ts").write_text(edited)
        truth = tsc(warm)
        assert truth == {("src/use.ts", 1, 37, "2322")}
        assert introduced == truth
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth

        # The block taken away: Settings is no longer declared (what was global, then).
        (root / "src/globals.ts").write_text("export {};\n")
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2304")}
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth


# A script (no import or export at its top level) whose namespace exports its members: its
# declarations are global still. A line-start `export` was taken for a module's, so only
# the files naming it were asked (the examiner's globals project: 1 error where tsc said 3).
SCRIPT = (
    "namespace Geo {\n  export const origin = 0;\n}\n\ninterface AppConfig {\n  name: string;\n}\n"
)
CONFIGURED = 'export const config: AppConfig = { name: "x" };\n'  # imports nothing


def test_a_script_holding_a_namespace_reaches_every_file(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    (root / "src/globals.ts").write_text(SCRIPT)
    (root / "src/use.ts").write_text(CONFIGURED)
    edited = SCRIPT.replace("name: string;", "name: string;\n  port: number;")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        preview = warm.run(previewed(warm.ws, [{"path": "src/globals.ts", "content": edited}]))
        introduced = {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced}

        (root / "src/globals.ts").write_text(edited)
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2741")}
        assert introduced == truth
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth
