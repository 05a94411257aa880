"""unplugin's shape: the root checks its own program (`tsgo --noEmit`, here `tsc
--noEmit`), and its docs/ package, a workspace member, has `"typecheck": "vue-tsc
--noEmit"` that nothing of the repository runs (`pnpm -C docs run build` runs another of
its scripts). docs/tsconfig.json was taken as a gate program, and its errors said where the
gate says none. A member's own checks are the gate's where a line runs them there
(`member_checks.checks_run`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.workspace.member_checks import check_scripts, checks_run
from tests.workspace.test_scope import write
from tests.workspace.test_typescript_gated import OPTIONS, said, tsc

ROOT_SCRIPTS = {"typecheck": "tsc --noEmit", "docs:build": "pnpm -C docs run build"}
DOCS_SCRIPTS = {"build": "vitepress build", "typecheck": "vue-tsc --noEmit"}
PROGRAM = f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["src"]}}'


def project(root: Path, scripts: dict[str, str], files: dict[str, str] | None = None) -> Path:
    return write(
        root,
        {
            "package.json": json.dumps({"workspaces": ["docs"], "scripts": scripts}),
            "tsconfig.json": PROGRAM,
            "src/index.ts": "export const one = 1;\n",
            "docs/package.json": json.dumps({"scripts": DOCS_SCRIPTS}),
            "docs/tsconfig.json": f'{{"compilerOptions": {{{OPTIONS}}}, "include": ["."]}}',
            "docs/page.ts": 'export const wrong: number = "a string";\n',
            **(files or {}),
        },
    )


@pytest.mark.parametrize("checker", ["tsc", "vue-tsc"])
def test_a_members_check_nothing_runs_is_no_gates(tmp_path: Path, checker: str) -> None:
    """unimport's root runs `vue-tsc --noEmit`, which checks its tsconfig.json as tsc
    does (its playground/ `vue-tsc --noEmit` no CI runs said 38 errors)."""
    scripts = {**ROOT_SCRIPTS, "typecheck": f"{checker} --noEmit"}
    root = project(tmp_path / "p", scripts)
    assert tsc(root, "--noEmit") == []  # the gate
    assert tsc(root / "docs", "--noEmit") == ["page.ts(1,14): TS2322"]  # what lspd said
    assert said(root) == []


@pytest.mark.parametrize(
    ("scripts", "files"),
    [
        ({**ROOT_SCRIPTS, "check": "tsc --noEmit && pnpm -r typecheck"}, {}),
        ({**ROOT_SCRIPTS, "check:docs": "pnpm --filter=./docs typecheck"}, {}),
        (
            ROOT_SCRIPTS,
            {".github/workflows/ci.yml": "steps:\n  - run: cd docs && pnpm typecheck\n"},
        ),
        (
            ROOT_SCRIPTS,
            {".github/workflows/ci.yml": "defaults:\n  run:\n    working-directory: docs\n"},
        ),
        (ROOT_SCRIPTS, {"turbo.json": '{"tasks": {"lint": {"dependsOn": ["typecheck"]}}}'}),
    ],
    ids=["pnpm -r", "pnpm --filter", "cd", "working-directory", "turbo.json"],
)
def test_a_members_check_run_there_is_the_gates(
    tmp_path: Path, scripts: dict[str, str], files: dict[str, str]
) -> None:
    root = project(tmp_path / "p", scripts, files)
    assert checks_run(root / "docs/package.json", root, _texts(root))
    assert said(root) == [("docs/page.ts", 1, "2322")]


def test_a_script_running_a_check_script_is_one(tmp_path: Path) -> None:
    scripts = {"a": "vue-tsc --noEmit", "b": "vitest && pnpm a", "c": "npm run b", "d": "vitest"}
    write(tmp_path, {"package.json": json.dumps({"scripts": scripts})})
    assert check_scripts(tmp_path / "package.json") == {"a", "b", "c"}


def _texts(root: Path) -> list[str]:
    return [p.read_text() for p in (root / ".github/workflows").glob("*.yml")]
