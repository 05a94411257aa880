"""ty's CLI for the tests: lspd's own ty (or another), run in a project as its gate runs it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

TY = Path(sys.executable).parent / "ty"
_CONCISE = re.compile(r"^(.+?):(\d+):(\d+): (error|warning)\[([\w-]+)\] ", re.MULTILINE)


def ty_rows(root: Path, *arguments: str, ty: Path = TY) -> list[tuple[str, int, int, str, str]]:
    """The (file, line, column, code, severity) rows of `ty check` by the executable `ty`,
    given `arguments`, run in `root`, sorted."""
    done = subprocess.run(
        [str(ty), "check", "--output-format", "concise", *arguments],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return sorted((m[1], int(m[2]), int(m[3]), m[5], m[4]) for m in _CONCISE.finditer(done.stdout))
