"""A package.json ADDED between files and the package scope they had is seen by TypeScript 5's
builder helper as `tsc -p` sees it: src/package.json `{"type": "commonjs"}` (no name, no
exports) makes src/ a package of its own, so an .mts there (ESM by its extension before and
after: only its scope changed) no longer reaches the root package's `exports` by its name,
TS2307 'fmtkit/esm'. The helper's builder reused the old resolution of a file it had not
re-parsed. A watched daemon on TypeScript 5.9.3, against the project's own `tsc -p`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Warm, warm_root
from tests.workspace.test_tsbuilder_missing import errors, tsc
from tests.workspace.toolchains import typescript_committed

OPTIONS = {"module": "nodenext", "moduleResolution": "nodenext", "strict": True, "noEmit": True}
PACKAGE = {
    "name": "fmtkit",
    "type": "module",
    "exports": {"./esm": {"import": {"types": "./src/esm-only.mts"}}},
}
FILES = {
    "package.json": json.dumps(PACKAGE),
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/esm-only.mts": 'export const esmOnly: string = "esm";\n',
    "src/use.mts": 'export { esmOnly } from "fmtkit/esm";\n',
}
ESM_APP = "export const here: string = import.meta.url;\n"


@pytest.fixture(params=[False, True], ids=["scope only", "with a format change"])
def warm(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    files = {**FILES, "src/app.ts": ESM_APP} if request.param else FILES
    root = typescript_committed(tmp_path / "p", files, "5.9.3")
    yield from warm_root(root, tmp_path / "logs", watch=True)


def test_a_package_json_added_above_a_file_is_its_new_scope(warm: Warm) -> None:
    assert errors(warm) == tsc(warm.root) == set()
    (warm.root / "src/package.json").write_text('{ "type": "commonjs" }\n')
    truth = tsc(warm.root)
    assert ("src/use.mts", 1, 25, "2307") in truth
    assert errors(warm) == truth
    (warm.root / "src/package.json").unlink()
    assert errors(warm) == tsc(warm.root) == set()
