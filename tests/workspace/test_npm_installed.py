"""A nested npm package whose dependencies are not installed is left out of the gate
(`workspace/npm_installed.py`), said in the scope with what to run: zustand's
examples/starter (a package.json of its own, no workspace naming it, no node_modules) made
`lspd check` fail a project whose `tsc --noEmit` is clean. Members of a workspace, a
package declaring nothing, the root, and a package once installed are checked as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.npm_installed import deciding, uninstalled
from tests.conftest import answer
from tests.workspace.test_scope import scope_of, write

STRICT = json.dumps({"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src"]})
BROKEN = 'const x: number = "no";\nexport {};\n'
APP = json.dumps({"name": "app", "devDependencies": {"typescript": "^5.0.0"}})
FILES = {
    "package.json": json.dumps({"name": "root", "workspaces": ["packages/*"]}),
    "package-lock.json": "{}",  # npm installs it: its pnpm-workspace.yaml is a leftover
    "pnpm-workspace.yaml": "packages:\n  - 'apps/**'\n  - '!apps/skipped'\n",
    "tsconfig.json": STRICT,
    "src/index.ts": "export const x = 1;\n",
    # a standalone example: its own dependencies, named by no workspace, never installed
    "examples/starter/package.json": APP,
    "examples/starter/tsconfig.json": STRICT,
    "examples/starter/src/main.ts": BROKEN,
    # a member of the root's npm workspace (the root's install links it), and a package
    # installed in its own node_modules (pnpm's, named by a pnpm-workspace.yaml npm ignores)
    "packages/a/package.json": APP,
    "packages/a/tsconfig.json": STRICT,
    "packages/a/src/a.ts": BROKEN,
    "apps/web/site/package.json": APP,
    "apps/web/site/node_modules/.modules.yaml": "",  # pnpm's install: a member's own
    "apps/web/site/tsconfig.json": STRICT,
    "apps/web/site/src/site.ts": BROKEN,
    # a package declaring no dependency: nothing to install
    "tools/package.json": json.dumps({"name": "tools", "private": True}),
    "tools/tsconfig.json": STRICT,
    "tools/src/tool.ts": BROKEN,
}


def test_a_nested_package_not_installed_is_said_and_not_checked(tmp_path: Path) -> None:
    root = write(tmp_path / "p", FILES)
    scope = scope_of(root)
    lines = [
        (p.project.relative_to(root).as_posix(), p.config, len(p.files)) for p in scope.projects
    ]
    assert lines == [
        ("apps/web/site", "apps/web/site/tsconfig.json", 1),
        ("packages/a", "packages/a/tsconfig.json", 1),
        ("tools", "tools/tsconfig.json", 1),
        (".", "tsconfig.json", 1),
        ("examples/starter", None, 0),
    ]
    assert scope.projects[-1].note == (
        "not checked: examples/starter/package.json's dependencies are not installed (no "
        "examples/starter/node_modules, and no workspace above hoists them into its own); "
        "install them there to check it"
    )
    assert root / "examples/starter/node_modules" in dict(scope.read)  # its install is seen
    checked = answer(root, workspace_diagnostics)
    assert sorted(f.path for f in checked.files) == [
        "apps/web/site/src/site.ts",
        "packages/a/src/a.ts",
        "tools/src/tool.ts",
    ]
    (root / "examples/starter/node_modules").mkdir()  # installed: checked as any
    assert uninstalled(root / "examples/starter/tsconfig.json", root) is None
    checked = answer(root, workspace_diagnostics)
    assert "examples/starter/src/main.ts" in {f.path for f in checked.files}


def test_what_makes_a_package_installed(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "package.json": json.dumps({"workspaces": {"packages": ["./libs/*/"]}}),
            "lerna.json": json.dumps({"packages": ["tools/*"]}),
            "libs/one/package.json": APP,  # yarn's {"packages": [...]}, written ./libs/*/
            "tools/two/package.json": APP,  # lerna's
            "docs/demo/package.json": APP,
            "docs/demo/src/deep/tsconfig.json": "{}",  # the package above it is the one
            "docs/broken/package.json": "{not json",  # unread: declares nothing
            "nested/package.json": json.dumps({"workspaces": ["inner"]}),
            "nested/inner/package.json": APP,  # a workspace below the root names it
        },
    )
    assert uninstalled(root / "libs/one/tsconfig.json", root) is None
    assert uninstalled(root / "tools/two/tsconfig.json", root) is None
    assert uninstalled(root / "docs/demo/src/deep/tsconfig.json", root) == root / "docs/demo"
    assert uninstalled(root / "docs/broken/tsconfig.json", root) is None
    assert uninstalled(root / "nested/inner/tsconfig.json", root) is None
    assert uninstalled(root / "tsconfig.json", root) is None  # the root: its own install
    (root / "package.json").unlink()  # docs/demo is the repository's own project now
    assert uninstalled(root / "docs/demo/src/deep/tsconfig.json", root) is None
    # in a Python project (strawberry's e2e/, a bun project never installed): not checked
    deep = root / "docs/demo/src/deep/tsconfig.json"
    assert uninstalled(deep, root, python=True) == root / "docs/demo"


def test_a_workspace_of_its_own_package_alone_names_no_other(tmp_path: Path) -> None:
    """jotai's pnpm-workspace.yaml `packages: [.]`: the root's package alone; its examples/*
    and website (package.jsons of their own, never installed) were taken for members."""
    for pattern in (".", "./", "'.'"):
        root = write(
            tmp_path / f"p{len(pattern)}",
            {
                "package.json": json.dumps({"name": "jotai"}),
                "pnpm-workspace.yaml": f"packages:\n  - {pattern}\n",
                "examples/hello/package.json": APP,
            },
        )
        assert uninstalled(root / "examples/hello/tsconfig.json", root) == root / "examples/hello"


def test_a_pnpm_member_is_installed_where_it_has_node_modules_or_pnpm_hoists(
    tmp_path: Path,
) -> None:
    """valtio's website (`typescript ^5`) is a member of its pnpm workspace: pnpm installs a
    member's dependencies into its own node_modules, so one without it (a root installed
    by npm) is not installed. Checked by the root's TypeScript 6, its tsconfig failed."""
    files = {
        "package.json": json.dumps({"name": "valtio"}),
        "pnpm-workspace.yaml": "packages:\n  - .\n  - website\n",
        "website/package.json": APP,
    }
    root = write(tmp_path / "p", files)
    config = root / "website/tsconfig.json"
    assert uninstalled(config, root) == root / "website"
    (root / ".npmrc").write_text("auto-install-peers=true\n node-linker = hoisted\n")
    assert uninstalled(config, root) is None
    (root / ".npmrc").unlink()
    (root / "pnpm-workspace.yaml").write_text("packages: [website]\nnodeLinker: hoisted\n")
    assert uninstalled(config, root) is None
    (root / "pnpm-workspace.yaml").write_text("packages: [website]\n")
    (root / "package.json").write_text(json.dumps({"workspaces": ["website"]}))  # npm's too
    assert uninstalled(config, root) == root / "website"  # pnpm's: it reads no `workspaces`
    (root / "package-lock.json").write_text("{}")  # npm's install, pnpm's file a leftover
    assert uninstalled(config, root) is None
    (root / "pnpm-lock.yaml").write_text("")  # pnpm's install (its lockfile wins)
    assert uninstalled(config, root) == root / "website"


@pytest.mark.parametrize(
    ("made", "installer"),
    [
        ("node_modules/.package-lock.json", "npm"),  # npm install: its hidden lockfile
        ("node_modules/.yarn-integrity", "yarn"),
        ("node_modules/.modules.yaml", "pnpm"),  # pnpm install, npm's file a leftover too
        ("npm-shrinkwrap.json", "npm"),  # npm's committed lockfile of another name
        (None, "pnpm"),  # nothing installed, nothing committed: pnpm's file says
    ],
)
def test_without_a_lockfile_the_node_modules_made_says_who_installs(
    tmp_path: Path, made: str | None, installer: str
) -> None:
    """An npm workspace (`workspaces`) with a leftover pnpm-workspace.yaml and no lockfile
    committed was taken as pnpm's, and its member uninstalled (pnpm reads no
    `workspaces`): the root's node_modules says who installed it."""
    files = {
        "package.json": json.dumps({"workspaces": ["website"]}),
        "pnpm-workspace.yaml": "packages: [website]\n",
        "website/package.json": APP,
        **({made: "{}"} if made is not None else {}),
    }
    root = write(tmp_path / "p", files)
    if installer == "pnpm" and made is not None:
        (root / "node_modules/.package-lock.json").write_text("{}")
    config = root / "website/tsconfig.json"
    assert uninstalled(config, root) == (root / "website" if installer == "pnpm" else None)
    assert root / "node_modules" in deciding(config, root)  # an install later is seen


def test_what_says_whether_a_package_is_installed_is_watched_installed_or_not(
    tmp_path: Path,
) -> None:
    """A pnpm member installed because pnpm hoists is left out again when .npmrc stops
    saying so: a running daemon must see that file change, not only an uninstalled one's."""
    files = {
        "package.json": json.dumps({"name": "valtio"}),
        "pnpm-workspace.yaml": "packages: [website]\n",
        ".npmrc": "node-linker=hoisted\n",
        "website/package.json": APP,
    }
    root = write(tmp_path / "p", files)
    config = root / "website/tsconfig.json"
    assert uninstalled(config, root) is None
    watched = deciding(config, root)
    for name in (".npmrc", "pnpm-workspace.yaml", "pnpm-lock.yaml", "website/node_modules"):
        assert root / name in watched
    assert deciding(root / "tsconfig.json", root) == []  # the root's own: always checked
    (root / "website/tsconfig.json").write_text(STRICT)
    (root / "website/src").mkdir()
    (root / "website/src/site.ts").write_text(BROKEN)
    assert root / ".npmrc" in dict(scope_of(root).read)
