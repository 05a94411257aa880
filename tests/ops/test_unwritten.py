"""Which import errors name a file a change adds but has not written (ops/unwritten.py):
the messages are basedpyright's and TypeScript's own (tests/ops/test_new_files.py provokes
them on the real servers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.models import Diagnostic
from lspd.ops.unwritten import imported

ROOT = Path("/w")
NEW = {ROOT / "pkg/newmod.py", ROOT / "pkg/fresh/__init__.py", ROOT / "src/lib/fresh.ts"}
NEW |= {ROOT / "src/feature/index.ts", ROOT / "src/esm-only.cts", ROOT / "src/util/pad.mts"}


def error(code: str, message: str) -> Diagnostic:
    return Diagnostic(
        line=1, column=1, end_line=1, end_column=2, severity="error", code=code, message=message
    )


@pytest.mark.parametrize(
    ("file", "code", "message", "line", "expected"),
    [
        ("pkg/app.py", "reportMissingImports", 'Import "pkg.newmod" could not be resolved',
         "from pkg.newmod import f", "pkg/newmod.py"),
        ("pkg/app.py", "reportMissingImports", 'Import ".newmod" could not be resolved',
         "from .newmod import f", "pkg/newmod.py"),
        ("pkg/sub/app.py", "reportMissingImports", 'Import "..fresh" could not be resolved',
         "from ..fresh import g", "pkg/fresh/__init__.py"),
        ("pkg/app.py", "reportAttributeAccessIssue", '"newmod" is unknown import symbol',
         "from pkg import newmod", "pkg/newmod.py"),
        ("pkg/app.py", "reportAttributeAccessIssue", '"newmod" is unknown import symbol',
         "from . import newmod", "pkg/newmod.py"),
        ("src/uses.ts", "2307",
         "Cannot find module './lib/fresh' or its corresponding type declarations.",
         'import { f } from "./lib/fresh";', "src/lib/fresh.ts"),
        ("src/uses.ts", "2307", "Cannot find module './lib/fresh.js' or its corresponding "
         "type declarations.", "", "src/lib/fresh.ts"),
        ("src/uses.ts", "2307", "Cannot find module './feature' or its corresponding type "
         "declarations.", "", "src/feature/index.ts"),
        ("src/deep/uses.ts", "2307", "Cannot find module '~/lib/fresh' or its corresponding "
         "type declarations.", "", "src/lib/fresh.ts"),
        ("src/uses.cts", "2307", "Cannot find module './esm-only.cjs' or its corresponding "
         "type declarations.", "", "src/esm-only.cts"),
        ("src/uses.cts", "2307", "Cannot find module './esm-only' or its corresponding "
         "type declarations.", "", "src/esm-only.cts"),
        # package.json `imports` {"#x/*.js": "./src/*.mts"}: tsc 5.9.3 resolves it to the
        # .mts, and says this TS2307 while src/util/pad.mts is not written
        ("src/uses.mts", "2307", "Cannot find module '#x/util/pad.js' or its corresponding "
         "type declarations.", "", "src/util/pad.mts"),
    ],
)  # fmt: skip
def test_an_import_of_a_new_file_is_recognised(
    file: str, code: str, message: str, line: str, expected: str
) -> None:
    found = imported(error(code, message), ROOT / file, line, NEW)
    assert found == ROOT / expected


@pytest.mark.parametrize(
    ("file", "code", "message", "line"),
    [
        # another module, another directory, a real error of another kind
        ("pkg/app.py", "reportMissingImports", 'Import "pkg.other" could not be resolved', ""),
        ("pkg/sub/app.py", "reportMissingImports", 'Import ".newmod" could not be resolved',
         "from .newmod import f"),
        ("pkg/app.py", "reportAttributeAccessIssue", 'Cannot access attribute "newmod"',
         "x = pkg.newmod"),
        ("src/uses.ts", "2307", "Cannot find module './fresh' or its corresponding type "
         "declarations.", ""),
        ("src/uses.ts", "2322", "Type 'string' is not assignable to type './lib/fresh'.", ""),
        # `.mjs` names an .mts, `.js` a .ts: never the new .cts of that name (a rename)
        ("src/uses.mts", "2307", "Cannot find module './esm-only.mjs' or its corresponding "
         "type declarations.", ""),
        ("src/uses.ts", "2307", "Cannot find module './esm-only.js' or its corresponding "
         "type declarations.", ""),
    ],
)  # fmt: skip
def test_other_errors_are_not(file: str, code: str, message: str, line: str) -> None:
    assert imported(error(code, message), ROOT / file, line, NEW) is None
