"""A JSON module with a syntax error that is no workspace file of the program's own: outside the
workspace's root (`app/` the root, importing ../../shared/defaults.json) or in node_modules
(`pkg/data.json`). tsc -p stops at it as at any (`defaults.json(2,1): error TS1005: '}'
expected.` alone, exit 1 on 7.0.2, 2 on 5.4.5): use.ts's own TS2322 is not checked, the
JSON's error is tsc's one. The review of 5a88564 (issue 40): outside the root, TypeScript 5's
builder said the stop (0 errors, stopped), TypeScript 7 the JSON's error as its
configuration's and use.ts's TS2322 besides, no stop (`native_program._own`: under the root
alone); in node_modules both said use.ts's TS2322 and no stop, TypeScript 7 the JSON's TS1005
too. Now a JSON module is an own file of a TypeScript 7 program wherever it is, and the 5.x
builder's results hold its errors wherever it is, a package's too (`tsbuilder_check.cjs`: the
library files' syntax errors stop it, their errors are said). Real TypeScript 7.0.2 and 5.4.5,
their `tsc -p` beside, one-shot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from tests.conftest import warm_root
from tests.engine.test_program_data import OPTIONS
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, gate, typescript_package

BROKEN = '{ "retries": 3\n'
USE = "import d from {!r};\nexport const r: number = d.retries;\nexport const k: string = 1;\n"
PLACES = {  # where the JSON is, from app/ (the root); the specifier use.ts imports it by
    "outside": ("../shared/defaults.json", "../../shared/defaults.json"),
    "node_modules": ("node_modules/pkg/data.json", "pkg/data.json"),
}
UNCHECKED = ("src/use.ts", 3, "2322")  # tsc stopped before it


def _project(root: Path, place: str, version: str) -> Path:
    at, specifier = PLACES[place]
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": OPTIONS, "include": ["src"]})
    )
    (root / "src/use.ts").write_text(USE.format(specifier).replace("'", '"'))
    (root / at).parent.mkdir(parents=True, exist_ok=True)
    (root / at).write_text(BROKEN)
    if place == "node_modules":
        (root / "node_modules/pkg/package.json").write_text('{"name": "pkg", "version": "1.0.0"}')
    (root / "node_modules").mkdir(exist_ok=True)
    (root / "node_modules/typescript").symlink_to(typescript_package(version))
    return root.resolve()


@pytest.mark.parametrize(
    ("place", "version"),
    [
        ("outside", TS7_PINNED),
        ("outside", TS_PINNED),
        ("node_modules", TS7_PINNED),
        ("node_modules", TS_PINNED),
    ],
)
def test_a_json_modules_syntax_error_stops_the_check_as_tsc(
    tmp_path: Path, place: str, version: str
) -> None:
    root = _project(tmp_path / "p" / "app", place, version)
    code, said = gate(root)
    assert said.strip() == f"{PLACES[place][0]}(2,1): error TS1005: '}}' expected."
    assert code == (1 if version == TS7_PINNED else 2)
    for warm in warm_root(root, tmp_path / "logs"):
        checked = warm.run(workspace_diagnostics(warm.ws))
        found = [(d.path, d.line, d.code) for d in checked.diagnostics]
        assert UNCHECKED not in found  # tsc stopped: use.ts is not checked
        name = Path(PLACES[place][0]).name
        assert [(Path(p or "").name, line, code) for p, line, code in found] == [(name, 2, "1005")]
        assert (
            len(checked.stopped) == 1 and f"{Path(PLACES[place][0]).name}:2" in checked.stopped[0]
        )
