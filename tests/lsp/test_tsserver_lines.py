"""tsserver's answers of a file holding U+2028 or U+2029 in LSP's lines (`lsp/document_diagnostics`,
`lsp/session`): TypeScript 5's line map ends a line there too (ECMAScript's), and
typescript-language-server passes tsserver's line/offset on as they are, so below such a
character every error was another line's; and its full-text change of such a text ended
where the old text ends in LSP's lines, which tsserver read in its own: the old text's tail
stayed after the new one (a held text: TS1128 "Declaration or statement expected." at its
end). TypeScript 5.4.5, the project's own `tsc -p` asserted beside, its positions moved to
LSP's lines."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.lsp.text import from_ecmascript
from lspd.ops.file_diagnostics import diagnostics
from lspd.servers.registry import node_executable
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import TS_PINNED, typescript_package

TEXT = (
    'const n: number = "x";\n/* a \u2028 b */\nexport const t = "p \u2029 q";\n'
    'export function g(): void {\n  const m: number = "y";\n}\n'
)
EDITED = TEXT.replace("/* a", "const k: string = 1;\n/* a")  # a new error; m's moves a line
_TSC = re.compile(r"^a\.ts\((\d+),(\d+)\): error TS(\d+): ")
Row = tuple[int, int, str]


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """A strict TypeScript 5.4.5 project, a.ts holding TEXT, watched."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true}, "include": ["*.ts"]}'
    )
    (root / "a.ts").write_text(TEXT)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    yield from warm_root(root, tmp_path / "logs", watch=True)


def tsc(root: Path) -> list[Row]:
    """The project's own `tsc -p .`: a.ts's errors, their positions in LSP's lines."""
    done = subprocess.run(
        [node_executable(), "node_modules/typescript/bin/tsc", "-p", ".", "--pretty", "false"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    text = (root / "a.ts").read_text()
    found = [m for line in done.stdout.splitlines() if (m := _TSC.match(line))]
    return [(*from_ecmascript(text, int(m[1]), int(m[2])), m[3]) for m in found]


def said(warm: Warm, content: str | None = None) -> list[Row]:
    found = warm.run(diagnostics(warm.ws, "a.ts", content)).diagnostics
    return [(d.line, d.column, str(d.code)) for d in found]


def test_a_file_holding_u2028_is_answered_in_lsp_lines(project: Warm) -> None:
    root = project.root
    assert said(project) == tsc(root) == [(1, 7, "2322"), (5, 9, "2322")]
    # unsaved text held over it (a full-text change of a text holding U+2028), then the disk's
    held = said(project, EDITED)
    assert said(project) == tsc(root)
    (root / "a.ts").write_text(EDITED)  # told by the watcher, the document open
    assert said(project) == tsc(root) == held == [(1, 7, "2322"), (2, 7, "2322"), (6, 9, "2322")]
    (root / "a.ts").write_text(TEXT)  # and back
    assert said(project) == tsc(root) == [(1, 7, "2322"), (5, 9, "2322")]
