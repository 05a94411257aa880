"""The `scope` lines of a check's answer: every project in full, at most 20 on a page."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check_scope import SCOPE_LINES, scope_lines
from lspd.workspace.project_scope import ProjectScope
from lspd.workspace.scope import GateScope

ROOT = Path("/repo")


def scope(projects: int) -> GateScope:
    made = tuple(
        ProjectScope(
            "typescript",
            ROOT / f"packages/p{i}",
            f"packages/p{i}/tsconfig.json",
            tuple(ROOT / f"packages/p{i}/f{j}.ts" for j in range(i + 1)),
        )
        for i in range(projects)
    )
    return GateScope(ROOT, made, tuple(f for p in made for f in p.files), 0, ())


def test_every_project_is_named_with_its_configuration() -> None:
    lines = scope_lines(scope(3), page=True)
    assert [(line.project, line.config, line.files) for line in lines] == [
        ("packages/p0", "packages/p0/tsconfig.json", 1),
        ("packages/p1", "packages/p1/tsconfig.json", 2),
        ("packages/p2", "packages/p2/tsconfig.json", 3),
    ]


def test_a_page_folds_the_smallest_projects_of_a_large_monorepo() -> None:
    many = scope(25)
    assert len(scope_lines(many, page=False)) == 25  # `lspd check --json`: all of them
    lines = scope_lines(many, page=True)
    assert len(lines) == SCOPE_LINES
    assert [line.project for line in lines[:-1]] == [f"packages/p{i}" for i in range(6, 25)]
    folded = lines[-1]
    assert (folded.language, folded.project, folded.config, folded.files) == (
        "typescript",
        "(6 more projects)",
        None,
        1 + 2 + 3 + 4 + 5 + 6,
    )
