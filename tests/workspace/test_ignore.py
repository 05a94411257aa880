"""Ignore rules: built-in directories plus lspd.toml's globs, for scans and the watcher."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.ops import check as check_ops
from lspd.ops.check_models import WorkspaceDiagnosticsResult
from lspd.workspace import Workspace
from lspd.workspace.ignore import Ignore

ROOT = Path("/repo")
GLOBS = ["generated", "*.min.js", "docs/**/*.md", "src/*/fixtures/**", "/tmp"]


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("src/app.py", False),
        ("node_modules/left-pad/index.js", True),  # built in
        ("pkg/.cache/x.py", True),  # hidden directories
        (".eslintrc.js", False),  # a hidden file is a file like any other
        ("generated/api.ts", True),  # a name glob, at the top...
        ("web/generated/api.ts", True),  # ...or at any depth
        ("web/generated.ts", False),
        ("dist.min.js", True),
        ("web/vendor/jquery.min.js", True),
        ("docs/guide.md", True),  # `**` spans no directory too
        ("docs/api/deep/x.md", True),
        ("docs/api/x.txt", False),
        ("src/a/fixtures/b/c.py", True),
        ("src/a/b/fixtures/c.py", False),  # `*` stays inside one part
        ("tmp/scratch.py", True),  # a leading `/` is the root
        ("web/tmp/scratch.py", False),
    ],
)
def test_globs(path: str, ignored: bool) -> None:
    assert Ignore(ROOT, GLOBS)(ROOT / path) is ignored


def test_outside_the_root_is_ignored() -> None:
    assert Ignore(ROOT)(Path("/elsewhere/app.py"))


def test_walk_keeps_what_the_rules_keep(tmp_path: Path) -> None:
    for name in ["a.py", "generated/b.py", "web/c.min.js", "web/d.js", "node_modules/e.js"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    rules = Ignore(tmp_path, ["generated", "*.min.js"])
    kept = {(d / n).relative_to(tmp_path).as_posix() for d, names in rules.walk() for n in names}
    assert kept == {"a.py", "web/d.js"}
    assert sum(len(names) for _, names in rules.walk(limit=1)) == 1


def test_config_globs_keep_files_out_of_workspace_scans(tmp_path: Path) -> None:
    (tmp_path / "lspd.toml").write_text('ignore = ["generated"]\n')
    (tmp_path / "ok.py").write_text("x: int = 1\n")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated/bad.py").write_text('x: int = "one"\n')
    ws = Workspace(tmp_path, log_dir=tmp_path.parent / "logs")
    assert ws.ignore(tmp_path / "generated/bad.py")  # what the file watcher asks

    async def check() -> WorkspaceDiagnosticsResult:
        try:
            return await check_ops.workspace_diagnostics(ws)
        finally:
            await ws.close()

    result = asyncio.run(check())
    assert (result.files_checked, result.errors) == (1, 0)
    assert [p.sample.name for p in ws.projects_present()] == ["ok.py"]


def test_a_marker_inside_an_ignored_directory_is_no_project(tmp_path: Path) -> None:
    library = tmp_path / "node_modules/lib"
    library.mkdir(parents=True)
    (library / "package.json").write_text("{}")
    (library / "index.ts").write_text("export const x = 1;\n")
    (tmp_path / "tsconfig.json").write_text("{}")
    ws = Workspace(tmp_path)
    assert ws.session_for(library / "index.ts").root == tmp_path.resolve()


def test_the_gitignore_is_read_again_when_it_changes(tmp_path: Path) -> None:
    """Edited in place (the root's mtime unchanged), deleted, written twice within
    `files.RACY_NS` at the same size: each walk and question follows it. Before, the
    .gitignore was read once, when the workspace opened."""
    for name in ["a.py", "gen/b.py", "out/c.py"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    gitignore = tmp_path / ".gitignore"
    gitignore.write_text("gen/\n")
    rules = Ignore(tmp_path)

    def kept() -> set[str]:
        found = {
            (d / n).relative_to(tmp_path).as_posix() for d, names in rules.walk() for n in names
        }
        return found - {".gitignore"}

    assert kept() == {"a.py", "out/c.py"}
    gitignore.write_text("out/\n")  # the same size, at once
    assert kept() == {"a.py", "gen/b.py"}
    assert rules(tmp_path / "out/c.py") and rules.directory(tmp_path / "out")
    with gitignore.open("a") as file:
        file.write("a.py\n")
    assert kept() == {"gen/b.py"}
    gitignore.unlink()
    assert kept() == {"a.py", "gen/b.py", "out/c.py"}
    assert not rules(tmp_path / "out/c.py")
