"""The edited file's own errors told within the hook's budget while the edit's whole check
runs on (`daemon/edited_alone.py`): a signature change of a core file whose importer takes
the builder many seconds to check again (ts-pattern: 20 errors known after ~75 s, none named
by four hooks, where the edited file's question answered in 0.6 s). Real TypeScript (lspd's
own), its builder and tsserver; the whole check's end does not tell them again."""

from __future__ import annotations

from pathlib import Path

from lspd.daemon.feedback import Feedback
from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import warm_root
from tests.ops.test_baseline import committed

CORE = "export function add(a: number, b: number): number {\n  return a + b;\n}\n"
TUPLE = 'type Tup<N extends number, A extends unknown[] = []> = A["length"] extends N ? A : '
TUPLE += "Tup<N, [...A, unknown]>;\n"
ADD = 'type Add<A extends number, B extends number> = [...Tup<A>, ...Tup<B>]["length"];\n'
TYPES = 2000  # each a slow instantiation: the builder's check of heavy.ts takes seconds


def cored(root: Path) -> None:
    """A strict tsconfig.json including src/, and src/core.ts."""
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020", '
        '"module": "commonjs"}, "include": ["src"]}\n'
    )
    (root / "src/core.ts").write_text(CORE)


def heavy(root: Path) -> Path:
    """src/core.ts, and src/heavy.ts importing it beside many slow types."""
    cored(root)
    lines = ['import { add } from "./core";\n', "export const z: number = add(1, 2);\n"]
    lines += [TUPLE, ADD]
    for i in range(TYPES):
        a, b = i % 97 + 800, i // 97 + 3  # each pair once: no instantiation reused
        lines.append(f"export type T{i} = Add<{a}, {b}>;\nexport const v{i}: T{i} = {a + b};\n")
    (root / "src/heavy.ts").write_text("".join(lines))
    return committed(root)


def test_the_edited_files_own_error_is_told_while_its_importers_are_checked(
    tmp_path: Path,
) -> None:
    root = heavy(tmp_path / "p")
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))  # HEAD's result kept
        # tsserver loaded, as by any question before (the first file asked alone loads it:
        # 3.4 s here, so that hook's budget ends first, and later hooks are answered)
        assert warm.run(diagnostics(warm.ws, "src/core.ts")).errors == 0
        feedback = Feedback(warm.ws)
        core = root / "src/core.ts"
        core.write_text(CORE.replace("a: number,", "a: string,"))
        request = {"event": "edit", "session": "s", "paths": ["src/core.ts"], "baseline": "HEAD"}
        first = warm.run(feedback.answer({**request, "wait": 5.0}))
        assert first["complete"] is False  # heavy.ts is checked again: its call broke
        assert [(i["path"], i["line"], i["code"]) for i in first["introduced"]] == [
            ("src/core.ts", 2, "2322")
        ]
        last = warm.run(feedback.answer({**request, "wait": 300.0}))
        assert last["complete"] is True
        told = [*last["late"], *last["introduced"]]  # the edited file's error not again
        assert [(i["path"], i["line"], i["code"]) for i in told] == [("src/heavy.ts", 2, "2345")]
        warm.run(feedback.close())
