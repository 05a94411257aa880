"""A declaration file a test program's builder holds, imported by an example no tsconfig
claims (fastify's examples/ and its index.d.ts): after its signature changes, preview and
`check --baseline HEAD` say the example's new error, as `lspd check` does once it is
written. Before, the example (tsserver's inferred project, asked one by one) was not asked
again: preview said the program's error alone, and HEAD's result, made the same way with
the old text held, kept the example's new error as HEAD's ("unchanged"). Real TypeScript."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed

FILES = {
    "index.d.ts": "export declare function code(n: number): number\n",
    "types/test/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
    "types/test/a.ts": "import { code } from '../../index'\nexport const x: number = code(1)\n",
    "examples/use.ts": "import { code } from '../index'\nexport const y: number = code(2)\n",
}
CHANGED = "export declare function code(n: number, reason: string): number\n"
BROKEN = [("examples/use.ts", 2, "2554"), ("types/test/a.ts", 2, "2554")]


def introduced(changes: Changes | None) -> list[tuple[str | None, int, str | None]]:
    assert changes is not None
    return sorted((d.path, d.line, d.code) for d in changes.introduced)


async def since_head(ws: Workspace) -> Changes | None:
    return (await workspace_diagnostics(ws, baseline="HEAD")).changes


def test_an_example_no_tsconfig_claims_is_asked_again_for_a_changed_declaration(
    tmp_path: Path,
) -> None:
    root = committed(written(tmp_path / "p", FILES))
    checked = answer(root, workspace_diagnostics)
    assert checked.errors == 0
    assert [(s.project, s.files) for s in checked.scope or []] == [("types/test", 2), (".", 1)]
    change = [{"path": "index.d.ts", "content": CHANGED}]
    assert introduced(answer(root, lambda ws: preview(ws, change)).changes) == BROKEN
    written(root, {"index.d.ts": CHANGED})
    found = answer(root, workspace_diagnostics).diagnostics
    assert sorted((d.path, d.line, d.code) for d in found) == BROKEN
    assert introduced(answer(root, since_head)) == BROKEN
