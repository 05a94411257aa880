"""`check --baseline HEAD`, the hook's check and a preview after an edit of a configuration a
tsconfig.json extends under another name (`engine/config_files.py`: tsc's resolution of
`extends`, a relative path with `.json` added, `../`, a package's config in node_modules):
noUnusedParameters turned on in base.json introduces extra.ts's TS6133 as `tsc -p` says.
Before, only the files named like a configuration (tsconfig*.json, pyproject.toml ...)
were: the key of HEAD's kept result followed base.json's edit (its result made again under
the new configuration: "0 new"), the hook was silent, a preview held it. Real builder
(lspd's TypeScript 5.9), tsc -p asserted beside it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import progressive_kept
from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from lspd.ops.progressive import Progress
from lspd.workspace import Workspace
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.test_tsbuilder_syntax import CORE, TYPE_ERROR, USER
from tests.workspace.toolchains import gate

UNUSED = "export function f(unused: number): number {\n  return 1;\n}\n"
UNUSED_ERROR = "src/extra.ts(1,19): error TS6133: 'unused' is declared but its value is never read."
OPTIONS = {"strict": True, "noEmit": True}
# (the workspace's directory in the repository, tsconfig.json's `extends`, the file it names)
ABOVE = ("app", "../base.json", "base.json")  # above the workspace: no daemon watches it
LAYOUTS = {
    "base.json": (".", "./base.json", "base.json"),
    "configs/strict": (".", "./configs/strict", "configs/strict.json"),
    "a package's": (".", "@acme/tsconfig/strict.json", "packages/tsconfig/strict.json"),
    "../base.json": ABOVE,  # no watcher sees it: each question looks at its stamp
}


def extending(tmp_path: Path, layout: str) -> tuple[Path, Path]:
    """The workspace (core.ts, user.ts's TS2322, extra.ts's unused parameter) whose
    tsconfig.json takes its options from the file `layout` names, committed; and that file.
    A package's config is node_modules/@acme/tsconfig, a link to the repository's
    packages/tsconfig (a workspace package: node_modules itself is not committed)."""
    folder, extends, base = LAYOUTS[layout]
    repo = tmp_path / "repo"
    root = repo / folder
    config = {"extends": extends, "include": ["src"]}
    written(root, {"tsconfig.json": json.dumps(config), "src/core.ts": CORE, "src/user.ts": USER})
    written(root, {"src/extra.ts": UNUSED})
    written(
        repo,
        {
            base: json.dumps({"compilerOptions": OPTIONS}),
            ".gitignore": "node_modules\nlogs\nkept\nwatch\n",
        },
    )
    (root / "node_modules" / "@acme").mkdir(parents=True)
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    link = root / "node_modules" / "@acme" / "tsconfig"
    link.symlink_to(os.path.relpath(repo / "packages" / "tsconfig", link.parent))
    committed(repo)
    return root.resolve(), (repo / base).resolve()


def tsc_of(root: Path, tmp_path: Path) -> list[str]:
    """The project's own `tsc -p .` on a copy of the repository (its ../base.json too)."""
    repo = (tmp_path / "repo").resolve()
    copy = tmp_path / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(repo, copy, symlinks=True, ignore=shutil.ignore_patterns(".lspd*"))
    return gate(copy / root.relative_to(repo))[1].splitlines()


def stricter(base: Path) -> None:
    base.write_text(json.dumps({"compilerOptions": {**OPTIONS, "noUnusedParameters": True}}))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_an_extended_configuration_s_edit_introduces_its_errors(
    tmp_path: Path, layout: str
) -> None:
    """Kept at HEAD from the clean tree, then the extended file given noUnusedParameters:
    extra.ts's TS6133 new, as tsc -p says, by the whole check and by the hook's told of the
    file; read back by a fresh workspace too."""
    root, base = extending(tmp_path, layout)
    assert tsc_of(root, tmp_path) == [TYPE_ERROR]
    for warm in warm_root(root, root.parent / "logs", watch=True):  # read back below
        clean = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert clean is not None
        assert (clean.introduced, clean.fixed, clean.unchanged) == ([], [], 1)
        stricter(base)
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert [(d.path, d.line, d.code) for d in since.introduced] == [("src/extra.ts", 1, "6133")]
        assert (since.fixed, since.unchanged) == ([], 1)
        progress = Progress("HEAD", [base])
        warm.run(progressive_kept.run(warm.ws, progress))
        assert progress.failed is None and progress.changed == [base]
        told = [(i.diagnostic.path, i.diagnostic.code) for i in progress.introduced]
        assert told == [("src/extra.ts", "6133")]
    assert tsc_of(root, tmp_path) == [UNUSED_ERROR, TYPE_ERROR]

    async def ask(ws: Workspace) -> object:
        return await workspace_diagnostics(ws, baseline="HEAD")

    again = answer(root, ask).changes  # type: ignore[attr-defined]
    assert "(read back); the configuration changed since " in again.scope
    assert [(d.path, d.code) for d in again.introduced] == [("src/extra.ts", "6133")]


def test_a_configuration_extended_from_above_the_workspace(tmp_path: Path) -> None:
    """app/tsconfig.json extends ../base.json, outside the workspace (a package of a
    monorepo): HEAD's result kept by one `lspd check --baseline HEAD`, base.json edited, the
    next one compares with it (before, its key followed the disk's base.json: the result
    made again under the new options, "0 new" where tsc -p says TS6133)."""
    root, base = extending(tmp_path, "../base.json")

    async def ask(ws: Workspace) -> object:
        return await workspace_diagnostics(ws, baseline="HEAD")

    clean = answer(root, ask).changes  # type: ignore[attr-defined]
    assert (clean.introduced, clean.fixed, clean.unchanged) == ([], [], 1)
    stricter(base)
    assert tsc_of(root, tmp_path) == [UNUSED_ERROR, TYPE_ERROR]
    since = answer(root, ask).changes  # type: ignore[attr-defined]
    assert "(read back); the configuration changed since " in since.scope
    assert f"({base}): compared under the one then" in since.scope  # outside: absolute
    assert [(d.path, d.line, d.code) for d in since.introduced] == [("src/extra.ts", 1, "6133")]
    assert (since.fixed, since.unchanged) == ([], 1)


def test_a_preview_of_an_extended_configuration_is_refused(tmp_path: Path) -> None:
    """configs/strict.json, extended by tsconfig.json, is a configuration: no preview holds
    it (before, it was held as a text no server reads: "0 introduced")."""
    root, base = extending(tmp_path, "configs/strict")
    text = json.dumps({"compilerOptions": {**OPTIONS, "noUnusedParameters": True}})

    async def ask(ws: Workspace) -> object:
        return await preview(ws, [{"path": str(base), "content": text}])

    with pytest.raises(InvalidInput, match=r"^configs/strict.json is a checker's configuration"):
        answer(root, ask)
