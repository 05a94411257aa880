"""The `scope` of a whole-workspace check's answer: per project, which configuration chose
how many files (`workspace.scope` finds them)."""

from __future__ import annotations

from lspd.ops.check_models import CheckScope
from lspd.workspace.paths import display
from lspd.workspace.scope import GateScope

SCOPE_LINES = 20  # projects named one by one on a page (the rest: one line)


def scope_lines(scope: GateScope, page: bool) -> list[CheckScope]:
    """One line per project. A page names the `SCOPE_LINES` projects with the most files
    and folds the rest into one line (a monorepo of 300 packages would fill an answer)."""
    lines = [
        CheckScope(
            language=p.language,
            project=display(scope.root, p.project),
            config=p.config,
            files=len(p.files),
            note=p.note,
        )
        for p in scope.projects
    ]
    if not page or len(lines) <= SCOPE_LINES:
        return lines
    biggest = sorted(range(len(lines)), key=lambda i: -lines[i].files)
    kept = set(biggest[: SCOPE_LINES - 1])
    rest = [line for i, line in enumerate(lines) if i not in kept]
    folded = CheckScope(
        language="/".join(sorted({line.language for line in rest})),
        project=f"({len(rest)} more projects)",
        files=sum(line.files for line in rest),
        note="`lspd check --json` lists every project",
    )
    return [line for i, line in enumerate(lines) if i in kept] + [folded]
