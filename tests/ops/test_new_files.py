"""A file not written yet is checked in the project that will own it on disk (issue 30):
`preview` and `diagnostics` with `content` on a new path, under tsserver (the project's own
TypeScript 5, and lspd's) and TypeScript 7, and under basedpyright; tsc agrees."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.ops import file_diagnostics, navigation, progressive, progressive_kept
from lspd.ops.models import PreviewResult
from lspd.servers.registry import definitions
from lspd.surface.table import call, operation
from lspd.workspace.toolchain import package_version
from tests.conftest import Warm, copy_fixture, warm_root, warm_workspace
from tests.workspace.toolchains import (
    TS7_PINNED,
    TS_PINNED,
    gate,
    make_venv,
    typescript_package,
)

# `@demo/shapes` is the fixture's own name: resolved only through its custom `exports`
# condition, which its tsconfig sets (`customConditions`); `~/` is a `paths` alias, and
# BUILD_ID a global of its src/globals.d.ts. One real error: line 5.
FRESH = """import * as z from "@demo/shapes";
import { unit } from "~/index";

export const id: string = BUILD_ID;
export const n: string = z.area(unit);
"""
# src/uses.ts, importing a new file beside it.
IMPORTER = """import * as shapes from "@demo/shapes";
import { id } from "./fresh";

export const big: number = shapes.area({ radius: 10 });
export const size: number = id;
"""
LSPD = "lspd"  # no node_modules/typescript: lspd's own TypeScript (tsserver)


def lspd_typescript() -> Path:
    return definitions()["typescript-language-server"].npm_root() / "typescript"


@pytest.fixture(scope="module", params=[LSPD, TS_PINNED, TS7_PINNED])
def shapes(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """The custom-condition fixture on its own TypeScript (or lspd's), its watcher running."""
    own = None if request.param == LSPD else typescript_package(request.param)
    for warm in warm_workspace("conditions_ts", tmp_path_factory, watch=True):
        if own is not None:
            (warm.root / "node_modules").mkdir()
            (warm.root / "node_modules" / "typescript").symlink_to(own)
        yield warm


def tree(root: Path) -> list[str]:
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if "node_modules" not in p.parts
    )


def held(warm: Warm) -> list[str]:
    return sorted(u for s in warm.ws.sessions.values() for u in s.documents)


def preview(warm: Warm, changes: list[dict[str, Any]]) -> PreviewResult:
    result: PreviewResult = warm.run(call(operation("preview"), warm.ws, {"changes": changes}))
    return result


def tsc_with(warm: Warm, tmp_path: Path, files: dict[str, str]) -> str:
    """The project's tsc (lspd's TypeScript for LSPD) on a copy holding `files` written."""
    copy = tmp_path / "written"
    shutil.copytree(warm.root, copy, symlinks=True, ignore=shutil.ignore_patterns(".lspd*"))
    if not (copy / "node_modules").exists():
        (copy / "node_modules").mkdir()
        (copy / "node_modules" / "typescript").symlink_to(lspd_typescript())
    for name, text in files.items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text(text)
    return gate(copy)[1].strip()


def test_a_new_file_in_preview_resolves_its_own_package(shapes: Warm, tmp_path: Path) -> None:
    before, documents, seen = tree(shapes.root), held(shapes), shapes.ws.changes_seen
    result = preview(shapes, [{"path": "src/feature/fresh.ts", "content": FRESH}])
    introduced = [(d.path, d.line, d.column, d.code) for d in result.changes.introduced]
    assert introduced == [("src/feature/fresh.ts", 5, 14, "2322")]
    # Nothing written, no watcher event, nothing left open (the new file, its host).
    assert tree(shapes.root) == before and held(shapes) == documents
    assert shapes.ws.changes_seen == seen
    tsc = tsc_with(shapes, tmp_path, {"src/feature/fresh.ts": FRESH})
    assert tsc == (
        "src/feature/fresh.ts(5,14): error TS2322: Type 'number' is not assignable to type "
        "'string'."
    )


def test_diagnostics_with_content_on_a_new_path(shapes: Warm) -> None:
    before, documents = tree(shapes.root), held(shapes)
    result = shapes.run(
        file_diagnostics.diagnostics(shapes.ws, "src/feature/fresh.ts", content=FRESH)
    )
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(5, 14, "2322")]
    assert tree(shapes.root) == before and held(shapes) == documents
    # The files the servers held for it answer from the disk again.
    uses = shapes.run(file_diagnostics.diagnostics(shapes.ws, "src/uses.ts"))
    assert (uses.errors, uses.warnings) == (0, 0)


def test_hover_in_a_new_file_knows_its_own_package(shapes: Warm) -> None:
    documents = held(shapes)
    # `z.area` on line 5: typed from the package's source, not `any`.
    result = shapes.run(navigation.hover(shapes.ws, "src/feature/fresh.ts", 5, 30, content=FRESH))
    assert "function area(circle: z.Circle): number" in result.contents
    assert held(shapes) == documents


def test_the_hook_after_a_new_file_is_written(tmp_path: Path) -> None:
    """After a Write the file is on disk: the hook's check finds only its real error."""
    root = copy_fixture("conditions_ts", tmp_path)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *identity, *command], check=True)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(file_diagnostics.diagnostics(warm.ws, "src/uses.ts"))  # tsserver is warm
        (root / "src/feature").mkdir()
        (root / "src/feature/fresh.ts").write_text(FRESH)
        progress = progressive.Progress("HEAD", [root / "src/feature/fresh.ts"])
        warm.run(progressive_kept.run(warm.ws, progress))
        found = [
            (i.diagnostic.path, i.diagnostic.line, i.diagnostic.code) for i in progress.introduced
        ]
        assert progress.failed is None and found == [("src/feature/fresh.ts", 5, "2322")]


def test_a_file_written_in_a_new_directory_is_in_its_project(tmp_path: Path) -> None:
    """Under the project's TypeScript 5.4 with lspd's watcher, a file written in a new
    directory is checked in its tsconfig's project: the directory's own creation reaches
    tsserver, whose configured project lists directories from a cache (it was TS2307 on
    both imports and TS2304 on the global, from an inferred project)."""
    root = copy_fixture("conditions_ts", tmp_path)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(file_diagnostics.diagnostics(warm.ws, "src/uses.ts"))  # tsserver is warm
        (root / "src/feature").mkdir()
        (root / "src/feature/fresh.ts").write_text(FRESH)
        result = warm.run(file_diagnostics.diagnostics(warm.ws, "src/feature/fresh.ts"))
        assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(5, 14, "2322")]


def test_an_importer_of_a_new_file(shapes: Warm, tmp_path: Path) -> None:
    """uses.ts is checked through its import of the new file: TypeScript 5.4's tsserver
    asks lspd's plugin (servers/tsplugin) whether the open file exists, as 5.9's asks its
    open files itself; TypeScript 7 places it by its path."""
    changes = {"src/uses.ts": IMPORTER, "src/fresh.ts": FRESH}  # the importer first
    documents = held(shapes)
    result = preview(shapes, [{"path": p, "content": t} for p, t in changes.items()])
    introduced = [(d.path, d.line, d.column, d.code) for d in result.changes.introduced]
    assert tsc_with(shapes, tmp_path, changes).splitlines() == [
        "src/fresh.ts(5,14): error TS2322: Type 'number' is not assignable to type 'string'.",
        "src/uses.ts(5,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]
    assert introduced == [
        ("src/fresh.ts", 5, 14, "2322"),
        ("src/uses.ts", 5, 14, "2322"),
    ]
    assert result.changes.unchecked == []
    # The servers answer from the disk again: uses.ts has no import of the file now gone.
    uses = shapes.run(file_diagnostics.diagnostics(shapes.ws, "src/uses.ts"))
    assert (uses.errors, uses.warnings) == (0, 0) and held(shapes) == documents


def test_an_importer_of_a_new_file_in_a_new_directory(shapes: Warm) -> None:
    """tsserver (with lspd's plugin: a directory holding an open file exists) resolves an
    open file in a directory not on disk; TypeScript 7 does not, and cannot be told: its
    program is checked by its own tsc on a copy holding the texts (`native_held._unplaced`;
    before, the import was set aside and uses.ts said not checked through it)."""
    importer = IMPORTER.replace("./fresh", "./lib/fresh")
    changes = {"src/lib/fresh.ts": FRESH, "src/uses.ts": importer}
    result = preview(shapes, [{"path": p, "content": t} for p, t in changes.items()])
    introduced = [(d.path, d.line, d.column, d.code) for d in result.changes.introduced]
    unchecked = [(u.path, u.lines, u.imports, u.set_aside) for u in result.changes.unchecked]
    assert introduced == [
        ("src/lib/fresh.ts", 5, 14, "2322"),
        ("src/uses.ts", 5, 14, "2322"),
    ]
    assert unchecked == []
    uses = shapes.run(file_diagnostics.diagnostics(shapes.ws, "src/uses.ts"))
    assert (uses.errors, uses.warnings) == (0, 0)


def pinned(warm: Warm) -> str | None:
    """The version of the project's own TypeScript (None: lspd's)."""
    own = warm.root / "node_modules" / "typescript"
    return package_version(own) if own.exists() else None


# -- Python: a new module of a package, in its project's environment ----------------------

DEEP = """from ..greeting import Greeter
from pkg.greeting import make_greeter


def polite() -> Greeter:
    return make_greeter("you")


size: int = polite().name
"""


@pytest.fixture(scope="module")
def py_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory, watch=True)


def test_a_new_python_module_in_a_new_subpackage(py_project: Warm) -> None:
    before, seen = tree(py_project.root), py_project.ws.changes_seen
    result = preview(py_project, [{"path": "pkg/sub/deep.py", "content": DEEP}])
    introduced = [(d.path, d.line, d.code) for d in result.changes.introduced]
    assert introduced == [("pkg/sub/deep.py", 9, "reportAssignmentType")]
    alone = py_project.run(
        file_diagnostics.diagnostics(py_project.ws, "pkg/sub/deep.py", content=DEEP)
    )
    assert [(d.line, d.code) for d in alone.diagnostics] == [(9, "reportAssignmentType")]
    assert tree(py_project.root) == before and py_project.ws.changes_seen == seen
    assert py_project.ws.document(py_project.root / "pkg/sub/deep.py") is None


def test_a_new_module_of_a_nested_project_uses_its_environment(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    (root / "api").mkdir()
    (root / "api" / "pyproject.toml").write_text('[project]\nname = "api"\nversion = "0"\n')
    make_venv(root / "api" / ".venv", "humanize==4.11.0")
    text = "import humanize\n\nsize: int = humanize.naturalsize(1)\n"
    for warm in warm_root(root, root.parent / "logs"):
        result = warm.run(file_diagnostics.diagnostics(warm.ws, "api/app/new.py", content=text))
        assert [(d.line, d.code) for d in result.diagnostics] == [(3, "reportAssignmentType")]
        assert result.toolchain is not None and "api/.venv" in result.toolchain
        assert not (root / "api" / "app").exists()


# -- An import of a file not written yet, from another file of the same preview -----------

NEWMOD = 'def f() -> int:\n    return 1\n\n\nwrong: int = "one"\n'
IMPORTS_NEWMOD = """from pkg.newmod import f
from .newmod import f as g
from pkg import newmod
from pkg.fresh.deep import h

size: int = f() + g() + newmod.f() + h()
"""


def test_an_import_of_a_new_python_module_is_checked_through(py_project: Warm) -> None:
    """basedpyright resolves imports from the disk only, so app.py, importing the new
    modules, is asked of a copy holding them (`engine/python_mirror.py`): its imports
    resolve, nothing is set aside, and what it uses of them is checked (before, its 4
    imports were set aside and app.py named as not checked through them)."""
    app = (py_project.root / "pkg/app.py").read_text()
    changes = {
        "pkg/newmod.py": NEWMOD,
        "pkg/fresh/deep.py": "def h() -> int:\n    return 2\n",
        "pkg/app.py": IMPORTS_NEWMOD + app,
    }
    before, seen = tree(py_project.root), py_project.ws.changes_seen
    result = preview(py_project, [{"path": p, "content": t} for p, t in changes.items()])
    introduced = [(d.path, d.line, d.code) for d in result.changes.introduced]
    assert introduced == [("pkg/newmod.py", 5, "reportAssignmentType")]
    assert result.changes.unchecked == []
    counts = {c.path: (c.errors, c.warnings) for c in result.files}
    assert [counts[p] for p in changes] == [(1, 0), (0, 0), (0, 0)]
    assert (result.errors, result.total) == (1, 1)
    assert tree(py_project.root) == before and py_project.ws.changes_seen == seen
    # what app.py uses of a new module is checked: a wrong type is introduced there
    wrong = {**changes, "pkg/fresh/deep.py": "def h() -> str:\n    return ''\n"}
    result = preview(py_project, [{"path": p, "content": t} for p, t in wrong.items()])
    assert [(d.path, d.line, d.column, d.code) for d in result.changes.introduced] == [
        ("pkg/app.py", 6, 13, "reportOperatorIssue"),
        ("pkg/newmod.py", 5, 14, "reportAssignmentType"),
        ("pkg/app.py", 6, 1, "reportUnknownVariableType"),  # `size`: int + str is Unknown
    ]


def test_a_preview_adding_a_module_the_disk_already_imports(tmp_path: Path) -> None:
    """app.py on disk imports pkg/later.py, which a preview adds: asked of a copy holding
    it, app.py's import resolves (its reportMissingImports fixed) and the wrong type it
    takes from it is introduced (before, app.py was said not checked through it)."""
    root = copy_fixture("py", tmp_path)
    app = root / "pkg/app.py"
    app.write_text("from pkg.later import LATER\n\nsize: int = LATER\n" + app.read_text())
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        later = [{"path": "pkg/later.py", "content": 'LATER: str = "x"\n'}]
        result = preview(warm, later)
        assert [(d.path, d.line, d.code) for d in result.changes.introduced] == [
            ("pkg/app.py", 3, "reportAssignmentType")
        ]
        fixed = [(d.path, d.line, d.code) for d in result.changes.fixed]
        assert ("pkg/app.py", 1, "reportMissingImports") in fixed
        assert result.changes.unchecked == []
