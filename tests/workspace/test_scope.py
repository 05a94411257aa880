"""The files a whole-workspace check checks are the gate's: compared on small projects with
the gate itself (basedpyright's CLI, TypeScript's `tsc --listFilesOnly`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.workspace import Workspace, typescript_projects
from lspd.workspace.scope import GateScope, gate_scope
from lspd.workspace.tsconfig_scope import TsConfig
from tests.basedpyright_cli import relative, report

ERROR = "x: int = ''\n"  # one error in any file the checker checks


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def scope_of(root: Path) -> GateScope:
    async def made() -> GateScope:
        ws = Workspace(root, log_dir=root.parent / f"{root.name}-logs")
        try:
            return await gate_scope(ws)
        finally:
            await ws.close()

    return asyncio.run(made())


def shown(root: Path, scope: GateScope) -> list[str]:
    return [p.relative_to(root).as_posix() for p in scope.files]


def basedpyright_checks(root: Path) -> tuple[set[str], int]:
    """The files basedpyright's CLI reports an error in, and how many it analyzed."""
    found = report(root)
    files = {relative(d, root) for d in found["generalDiagnostics"]}
    return files, found["summary"]["filesAnalyzed"]


def test_pyrightconfig_include_exclude_ignore_as_basedpyrights_cli(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "pyrightconfig.json": '{\n  // the gate\n  "include": ["src", "tools/*.py"],\n'
            '  "exclude": ["src/generated"],\n  "ignore": ["src/legacy.py"],\n}\n',
            "src/a.py": ERROR,
            "src/pkg/b.py": ERROR,
            "src/generated/c.py": ERROR,  # excluded
            "src/legacy.py": ERROR,  # ignored: checked, its diagnostics dropped
            "src/node_modules/d.py": ERROR,  # default excludes, added to the config's own
            "src/.hidden/e.py": ERROR,
            "src/__pycache__/f.py": ERROR,
            "src/env/pyvenv.cfg": "home = /usr/bin\n",  # a virtual environment
            "src/env/lib/g.py": ERROR,
            "tools/t.py": ERROR,
            "tools/sub/u.py": ERROR,  # `tools/*.py` does not descend
            "tests/test_x.py": ERROR,  # not included
        },
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["src/a.py", "src/legacy.py", "src/pkg/b.py", "tools/t.py"]
    reported, analyzed = basedpyright_checks(root)
    assert reported == {"src/a.py", "src/pkg/b.py", "tools/t.py"}
    assert analyzed == len(scope.files)
    [project] = scope.projects
    assert (project.language, project.config, project.note) == (
        "python",
        "pyrightconfig.json",
        None,
    )
    assert scope.outside == 3  # c, u, test_x (lspd's own walk skips venvs, hidden, caches)


def test_pyproject_table_with_extends_as_basedpyrights_cli(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "pyproject.toml": '[project]\nname = "p"\n\n[tool.basedpyright]\n'
            'extends = "config/base.json"\nexclude = ["lib/old"]\n',
            "config/base.json": '{"include": ["../lib"]}',  # relative to the file naming it
            "lib/a.py": ERROR,
            "lib/old/b.py": ERROR,
            "scripts/c.py": ERROR,
        },
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["lib/a.py"]
    assert basedpyright_checks(root) == ({"lib/a.py"}, 1)
    assert [p.config for p in scope.projects] == ["pyproject.toml [tool.basedpyright]"]


def test_without_a_configuration_every_file_as_before_and_said(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {"pyproject.toml": '[project]\nname = "p"\n', "a.py": ERROR, "tests/b.py": ERROR},
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["a.py", "tests/b.py"]
    [project] = scope.projects
    assert project.config is None and project.project == root
    assert project.note == (
        "no pyrightconfig.json, [tool.basedpyright] or [tool.pyright]: every Python file"
    )
    assert scope.outside == 0


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {"pyrightconfig.json": '{\n  "include": ["src"]\n  "exclude": []\n}\n'},
            "pyrightconfig.json:3:3: not valid JSON (Expecting ',' delimiter): fix it",
        ),
        (
            {"pyproject.toml": "[tool.pyright]\n[tool.basedpyright]\n"},
            "pyproject.toml has both [tool.basedpyright] and [tool.pyright]",
        ),
        (
            {"pyproject.toml": "[tool.pyright\n"},
            "pyproject.toml is not valid TOML (",
        ),
        (
            {"pyrightconfig.json": '{"extends": "base.json"}'},
            "pyrightconfig.json: `extends` names ",
        ),
        (
            {"pyrightconfig.json": '{"include": "src"}'},
            "pyrightconfig.json: `include` must be a list of paths (strings)",
        ),
    ],
)
def test_a_configuration_that_cannot_be_read_is_named_with_the_fix(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    root = write(tmp_path / "p", {**files, "a.py": ERROR})
    with pytest.raises(InvalidInput) as raised:
        scope_of(root)
    assert str(raised.value).startswith(message)


def test_a_nested_pyproject_that_is_no_toml_is_a_fixture_not_a_refusal(tmp_path: Path) -> None:
    """build's tests/packages/test-bad-syntax/pyproject.toml (its mypy excludes the folder):
    lspd refused the whole check, where its gate says 0 errors over 27 files. Fixed, the
    file is read again (watched)."""
    fixture = "tests/packages/bad/pyproject.toml"
    mypy = '[tool.mypy]\nfiles = ["src", "tests"]\nexclude = ["tests/packages"]\n'
    files = {"pyproject.toml": mypy, "src/a.py": "", fixture: "[project\nname = 'bad'\n"}
    root = write(tmp_path / "p", {**files, "tests/packages/bad/setup.py": ERROR})
    scope = scope_of(root)
    assert shown(root, scope) == ["src/a.py"]
    assert root / fixture in dict(scope.read)
    (root / fixture).write_text("[tool.pyright]\n")  # now a configuration of its own
    assert shown(root, scope_of(root)) == ["src/a.py", "tests/packages/bad/setup.py"]


def test_made_again_only_when_files_come_or_go_or_a_configuration_changes(
    tmp_path: Path,
) -> None:
    root = write(tmp_path / "p", {"pyrightconfig.json": '{"include": ["a"]}', "a/x.py": ERROR})

    async def run() -> list[list[str]]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        seen = []
        try:
            assert await ws.watch()
            first = await gate_scope(ws)
            assert await gate_scope(ws) is first  # nothing changed: the same
            (root / "a" / "x.py").write_text("x: int = 1\n")  # an edit: files stay the same
            await ws.refresh_open_documents(catch_up=True)
            assert await gate_scope(ws) is first
            seen.append(shown(root, first))
            (root / "pyrightconfig.json").write_text('{"include": ["a", "b"]}')
            write(root, {"b/y.py": ERROR})
            await ws.refresh_open_documents(catch_up=True)
            seen.append(shown(root, await gate_scope(ws)))
            (root / "pyrightconfig.json").unlink()
            write(root, {"pyproject.toml": '[project]\nname = "p"\n'})
            await ws.refresh_open_documents(catch_up=True)
            seen.append(shown(root, await gate_scope(ws)))
            write(
                root, {"pyproject.toml": '[project]\nname = "p"\n[tool.pyright]\ninclude = ["b"]\n'}
            )
            await ws.refresh_open_documents(catch_up=True)  # an edit: no file came or went
            seen.append(shown(root, await gate_scope(ws)))
        finally:
            await ws.close()
        return seen

    assert asyncio.run(run()) == [
        ["a/x.py"],
        ["a/x.py", "b/y.py"],
        ["a/x.py", "b/y.py"],  # no configuration: every file
        ["b/y.py"],
    ]


def test_a_file_replaced_keeps_the_scope_a_file_that_came_makes_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file moved over another (an atomic save, `git apply`, `sed -i`) is told created:
    the walk finds the same files, so TypeScript is not run again to read the tsconfigs
    (a Node run: 1.26 s of mobx's leaf `check --baseline HEAD` at load 6, 1.93 s in all)."""
    root = write(
        tmp_path / "p",
        {"tsconfig.json": '{"include": ["src"]}', "src/a.ts": "export const a = 1;\n"},
    )
    reads: list[list[Path]] = []
    real = typescript_projects.read_tsconfigs

    def counted(configs: list[Path], *rest: Any) -> list[TsConfig]:
        reads.append(configs)
        return real(configs, *rest)

    monkeypatch.setattr(typescript_projects, "read_tsconfigs", counted)

    async def run() -> tuple[list[str], list[str]]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            assert await ws.watch()
            first = await gate_scope(ws)
            generation = ws.projects.generation
            (root / "src" / "a.ts.new").write_text("export const a = 2;\n")
            os.replace(root / "src" / "a.ts.new", root / "src" / "a.ts")
            await ws.refresh_open_documents(catch_up=True)
            assert ws.projects.generation > generation  # told created: files may have come
            assert await gate_scope(ws) is first
            assert len(reads) == 1
            write(root, {"src/b.ts": "export const b = 1;\n"})  # a file that came
            await ws.refresh_open_documents(catch_up=True)
            second = await gate_scope(ws)
            assert len(reads) == 2
            (root / "src" / "b.ts").unlink()  # and went
            await ws.refresh_open_documents(catch_up=True)
            assert shown(root, await gate_scope(ws)) == ["src/a.ts"]
            assert len(reads) == 3
            return shown(root, first), shown(root, second)
        finally:
            await ws.close()

    assert asyncio.run(run()) == (["src/a.ts"], ["src/a.ts", "src/b.ts"])


def test_a_project_both_checkers_judge_names_both_configurations(tmp_path: Path) -> None:
    """A pyrightconfig.json beside a [tool.mypy]: both judge api/ (`mypy_config.choose`),
    basedpyright's configuration chooses the files, and the scope names both. Before, only
    "api/pyrightconfig.json" (the summary of `lspd check` hid mypy)."""
    root = write(
        tmp_path / "p",
        {
            "api/pyproject.toml": '[project]\nname = "api"\n\n[tool.mypy]\nstrict = true\n',
            "api/pyrightconfig.json": '{"include": ["src"]}\n',
            "api/src/a.py": ERROR,
            "api/other.py": ERROR,
        },
    )
    scope = scope_of(root)
    assert [p.config for p in scope.projects] == [
        "api/pyrightconfig.json + api/pyproject.toml [tool.mypy]"
    ]
    assert shown(root, scope) == ["api/src/a.py"]
