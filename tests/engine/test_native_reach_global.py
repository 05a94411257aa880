"""A TypeScript 7 module's `declare global` block (or its augmentation of another module)
declares what every file of the program sees, importing it or not: its edit reaches every
file (`native_reach.everywhere`), in the daemon's whole check and in a preview, as it does
for a `.d.ts` or a script, and so does taking it away (what was global before the edit).
Before, only its importers were asked again: a file using the global interface kept its
old answer. Real TypeScript 7.0.2, its `tsc -p` beside."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lspd.ops.preview import previewed
from tests.conftest import Warm, warm_root
from tests.engine.test_native_check import check, native_project, tsc

GLOBALS = "export {};\n\ndeclare global {\n  interface Settings {\n    level: number;\n  }\n}\n"
USE = "export const settings: Settings = { level: 1 };\n"  # imports nothing


Found = set[tuple[str | None, int, int, str | None]]


def previewed_then_written(
    tmp_path: Path, globals_text: str, use: str, edited: str
) -> Iterator[tuple[Warm, Found]]:
    """A TypeScript 7 project of src/globals.ts (`globals_text`) and src/use.ts (`use`, no
    import of it), clean as tsc says: the warm workspace once `edited` was previewed (what
    the preview introduced) and then written as src/globals.ts."""
    root = native_project(tmp_path / "ts7")
    (root / "src/globals.ts").write_text(globals_text)
    (root / "src/use.ts").write_text(use)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        preview = warm.run(previewed(warm.ws, [{"path": "src/globals.ts", "content": edited}]))
        introduced = {(d.path, d.line, d.column, d.code) for d in preview.changes.introduced}
        (root / "src/globals.ts").write_text(edited)
        yield warm, introduced


def test_a_global_declared_in_a_module_reaches_every_file(tmp_path: Path) -> None:
    edited = GLOBALS.replace("level: number", "level: string")
    for warm, introduced in previewed_then_written(tmp_path, GLOBALS, USE, edited):
        root = warm.root
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
    edited = SCRIPT.replace("name: string;", "name: string;\n  port: number;")
    for warm, introduced in previewed_then_written(tmp_path, SCRIPT, CONFIGURED, edited):
        truth = tsc(warm)
        assert {(p, c) for p, _, _, c in truth} == {("src/use.ts", "2741")}
        assert introduced == truth
        asked, found = check(warm)
        assert "src/use.ts" in asked and found == truth
