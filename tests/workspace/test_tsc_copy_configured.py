"""tsc on a copy answers as tsc does beside a configuration's error (`checked_copy`'s
`configured`): a TypeScript 7 preview in a solution whose other program's tsconfig holds an
unknown option (TS5023, a parsing error: tsc -b says it and that program's semantic errors)
said nothing of the file's errors in that program (the copy's run answered None). Real
TypeScript 7.0.2 against its own tsc -b; `Checked.configured` read from tsc's output."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.preview import previewed
from lspd.workspace.tsc_copy import said_by
from tests.engine.test_affected import watched, written
from tests.engine.test_solution_check import DOCUMENT, FILES, SHAPES, checked, shared, tsc_b
from tests.ops.test_baseline import committed
from tests.workspace.toolchains import TS7_PINNED, typescript_package


def test_a_preview_beside_the_other_programs_unknown_option(tmp_path: Path) -> None:
    root = written(tmp_path / "ts", FILES)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    shared(root, "")
    node = json.loads((root / "tsconfig.node.json").read_text())
    node["compilerOptions"]["bogus"] = 1
    (root / "tsconfig.node.json").write_text(json.dumps(node))
    for warm in watched(committed(root), tmp_path / "logs"):
        before = tsc_b(root)
        assert [t[3] for t in before] == [2322, 5023]  # app/main.ts, tsconfig.node.json
        checked(warm)
        text = SHAPES + DOCUMENT
        answer = warm.run(previewed(warm.ws, [{"path": "app/shapes.ts", "content": text}]))
        assert answer.changes is not None
        got = sorted((str(d.path), d.line, int(str(d.code))) for d in answer.changes.introduced)
        (root / "app/shapes.ts").write_text(text)
        after = tsc_b(root)
        assert got == sorted((t[0], t[1], t[3]) for t in after if t not in before)
        assert got == [("app/shapes.ts", 2, 2584)]


def test_a_configuration_error_is_said_apart(tmp_path: Path) -> None:
    out = "\n".join(
        [
            f"{tmp_path}/a.ts",
            "error TS2688: Cannot find type definition file for 'nope'.",
            "  The file is in the program because:",
            "",
        ]
    )
    assert said_by(out, tmp_path, tmp_path, tmp_path, {}) is None
    found = said_by(out, tmp_path, tmp_path, tmp_path, {}, configured=True)
    assert found is not None and (found.files, found.errors, found.configured) == (
        frozenset({tmp_path / "a.ts"}),
        (),
        True,
    )
