"""TypeScript 5's builder counts lines as LSP does and lspd reads them (\\n, \\r\\n, \\r), as
TypeScript 7's server does: its line map also ends one at U+2028 and U+2029, so below a
comment or string holding one every error was another line's, its column clamped to that
line's end (a.ts:9:1 for tsc's a.ts(9,9)), and check --baseline HEAD called each error that
only moved both introduced and fixed. The positions are LSP's (tsc -p prints line 9 where
the file's 7th LSP line is meant; TypeScript 7's test in test_line_ends says the same)."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

from tests.cli.test_line_ends import TS_NOW, lspd, rows, ts_project
from tests.engine.test_configured import tsc_rows
from tests.workspace.toolchains import TS_PINNED

NEW = [("a.ts", 2, 7, "2322")]


def project(tmp_path: Path) -> Path:
    """A TypeScript 5.4.5 project, a.ts committed with 2 errors, then changed to TS_NOW."""
    root = ts_project(tmp_path, TS_PINNED)
    assert tsc_rows(root) == Counter({("a.ts", 1, "2322"): 1, ("a.ts", 3, "2322"): 1})
    (root / "a.ts").write_text(TS_NOW)
    assert tsc_rows(root) == Counter(
        {("a.ts", 1, "2322"): 1, ("a.ts", 2, "2322"): 1, ("a.ts", 9, "2322"): 1}
    )  # one new (line 2); m's error only moved (its 7th LSP line, tsc's 9th)
    return root


def test_typescript_5_says_what_tsc_says_is_new(tmp_path: Path) -> None:
    root = project(tmp_path)
    gate = lspd(root, "check")
    assert rows(gate["diagnostics"]) == [("a.ts", 1, 7, "2322"), *NEW, ("a.ts", 7, 9, "2322")]
    since = lspd(root, "check", "--baseline", "HEAD")["changes"]
    assert (rows(since["introduced"]), since["fixed"], since["unchanged"]) == (NEW, [], 2)
    diff = subprocess.run(["git", "diff"], cwd=root, capture_output=True, check=True).stdout
    subprocess.run(["git", "checkout", "-q", "a.ts"], cwd=root, check=True)
    (root.parent / "change.diff").write_bytes(diff)
    previewed = lspd(root, "preview", "--patch", str(root.parent / "change.diff"))["changes"]
    assert (rows(previewed["introduced"]), previewed["fixed"]) == (NEW, [])


def test_typescript_5_file_since_head_says_what_tsc_says_is_new(tmp_path: Path) -> None:
    # diagnostics FILE --baseline HEAD asks tsserver, now and with HEAD's text held: its
    # positions are ECMAScript's lines (typescript-language-server passes them on as they
    # are), and a full-text change of a text holding U+2028 reached it cut short (the old
    # tail stayed: TS1128). Was 0 new, 3 unchanged; each fix alone: 2 new and 1 fixed (the
    # positions), 0 new and TS1128 fixed (the held text)
    root = project(tmp_path)
    one = lspd(root, "diagnostics", "a.ts", "--baseline", "HEAD")["changes"]
    assert (rows(one["introduced"]), one["fixed"], one["unchanged"]) == (NEW, [], 2)
