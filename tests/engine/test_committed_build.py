"""A build git ignores that the gate reads (`kept.standing`): swr's tests import the package
by its own name, which its package.json `exports` resolve to dist/*.d.ts, built before its
gate runs. HEAD's result made on an edited tree with the edit's build said the edit's new
error of HEAD too; saved, it was read back once the tree was clean and rebuilt at HEAD,
and said that error fixed on a tree where nothing differs from HEAD. Real TypeScript, a
one-shot workspace per question (the kept result read back from lspd's state)."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.test_scope import write

OPTIONS = '"strict": true, "module": "NodeNext", "moduleResolution": "NodeNext", "types": []'
TSCONFIG = f'{{"compilerOptions": {{{OPTIONS}, "noEmit": true}}, "include": ["src", "test"]}}'
FILES = {
    "package.json": (
        '{"name": "selfref", "type": "module", "exports": {".": {"types": "./dist/index.d.ts"}},'
        ' "scripts": {"typecheck": "tsc --noEmit"}}'
    ),
    "tsconfig.json": TSCONFIG,
    ".gitignore": "dist\n",
    "src/index.ts": "export function serialize(key: string): string {\n  return key;\n}\n",
    "test/use.test.ts": (
        'import { serialize } from "selfref";\n\nexport const s = serialize("k");\n'
    ),
}
BUILT = "export declare function serialize(key: string): string;\n"
TWO = "export declare function serialize(key: string, scope: string): string;\n"


def _since(root: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    found = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    changes = found.changes
    assert changes is not None
    return (
        [(d.path, d.line) for d in changes.introduced],
        [(d.path, d.line) for d in changes.fixed],
    )


def test_a_clean_tree_is_compared_with_its_own_check_not_a_kept_result_of_another_build(
    tmp_path: Path,
) -> None:
    root = committed(write(tmp_path / "p", FILES))
    source = root / "src/index.ts"
    head = source.read_text()
    # edited and rebuilt, HEAD's result made first now: with the edit's build
    source.write_text(head.replace("key: string)", "key: string, scope: string)"))
    write(root, {"dist/index.d.ts": TWO})
    _since(root)
    # undone and rebuilt at HEAD: nothing differs from HEAD, nothing new or fixed
    source.write_text(head)
    write(root, {"dist/index.d.ts": BUILT})
    assert _since(root) == ([], [])
    # the same edit and build again: its error is new, as the gate run at HEAD and now says
    source.write_text(head.replace("key: string)", "key: string, scope: string)"))
    write(root, {"dist/index.d.ts": TWO})
    assert _since(root) == ([("test/use.test.ts", 3)], [])
