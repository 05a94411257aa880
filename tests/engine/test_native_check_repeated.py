"""A syntax error said several times on one line (`[1 2 3 4]`: `',' expected.` at 1:21, 1:23,
1:25) keeps each one's place in a watched TypeScript 7 check, as tsc -p says them: the
program's stopped answer (tsc's errors, each with the range the server said of it) took the
server's first item of the line, code and message for all three (1:21 three times; the
examiner's store.ts 58:5 x3 where tsc says 58:5, 58:17, 58:27). Real TypeScript 7.0.2."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import warm_root
from tests.engine.test_native_check import check, native_project, tsc

REPEATED = "export const x = [1 2 3 4];\n"


def test_repeated_syntax_errors_of_one_line_keep_their_columns(tmp_path: Path) -> None:
    root = native_project(tmp_path / "ts7")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert check(warm)[1] == tsc(warm) == set()
        (root / "src/leaf.ts").write_text(REPEATED)
        truth = tsc(warm)
        assert truth == {("src/leaf.ts", 1, c, "1005") for c in (21, 23, 25)}
        assert check(warm)[1] == truth
        said = warm.run(diagnostics(warm.ws, "src/leaf.ts")).diagnostics
        assert sorted((d.line, d.column) for d in said) == [(1, 21), (1, 23), (1, 25)]
