"""tsc -p on a copy (a configuration edited, HEAD's state under HEAD's configuration) prints
its positions in TypeScript's lines, which also end at U+2028 and U+2029; the server's
answer of the file now is in LSP's lines (\\n, \\r\\n, \\r), as lspd reads the file. Read as
they are, every error below such a character in HEAD's state was another line's, so an
error that stayed was both introduced and fixed (review of b71da8c and e8d2851)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.cli.test_line_ends import lspd, rows
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package

TEXT = '/* a \u2028 b */\nexport function g(unused: number): void {\n  const m: number = "y";\n}\n'
CONFIG = '{"compilerOptions": {"strict": true%s}, "include": ["*.ts"]}'
NEW = [("a.ts", 2, 19, "6133")]  # tsc -p: a.ts(3,19) TS6133 new, a.ts(4,9) TS2322 stays


def test_an_error_below_u2028_stays_under_an_edited_configuration(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "tsconfig.json").write_text(CONFIG % "")
    (root / "a.ts").write_text(TEXT)
    (root / ".gitignore").write_text("node_modules\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    committed(root)
    tsc = [
        str(root / "node_modules/typescript/bin/tsc"),
        "-p",
        ".",
        "--noEmit",
        "--pretty",
        "false",
    ]
    head = subprocess.run(tsc, cwd=root, capture_output=True, text=True).stdout.splitlines()
    (root / "tsconfig.json").write_text(CONFIG % ', "noUnusedParameters": true')
    now = subprocess.run(tsc, cwd=root, capture_output=True, text=True).stdout.splitlines()
    assert [line[: line.index(":")] for line in head] == ["a.ts(4,9)"]
    assert [line[: line.index(":")] for line in now] == ["a.ts(3,19)", "a.ts(4,9)"]
    since = lspd(root, "check", "--baseline", "HEAD")["changes"]  # was 2 new, 1 fixed
    assert (rows(since["introduced"]), since["fixed"]) == (NEW, [])
    one = lspd(root, "diagnostics", "a.ts", "--baseline", "HEAD")["changes"]
    assert (rows(one["introduced"]), one["fixed"]) == (NEW, [])
