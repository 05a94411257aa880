"""The projects' TypeScript as one check's `ts_configs.asked` looks it up: each folder's
node_modules/typescript looked at once, each package's version read once, the same answers
as `find_typescript` and `package_version` of each project; nothing kept past the check, so
another node_modules/typescript is the next check's. Real TypeScript packages (5.4.5, 7.0.2)."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.ts_configs import _typescripts
from lspd.workspace.typescript_package import find_typescript, package_version
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, typescript_package


def test_one_check_s_lookups_are_each_project_s_own(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    projects = [root / "packages" / name for name in ("p1", "p2", "p3")]
    for project in projects:
        project.mkdir(parents=True)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    own = projects[0] / "node_modules"  # p1's own TypeScript, nearer than the root's
    own.mkdir()
    (own / "typescript").symlink_to(typescript_package(TS7_PINNED))

    def each(project: Path) -> tuple[Path, str | None] | None:
        package = find_typescript(project, root)
        return None if package is None else (package, package_version(package))

    found = _typescripts(root)
    assert [found(p) for p in projects] == [each(p) for p in projects]
    assert [found(p)[1] for p in projects if found(p)] == [TS7_PINNED, TS_PINNED, TS_PINNED]
    assert found(tmp_path.parent) is None  # above the root: none of the project's

    (own / "typescript").unlink()  # p1's gone: the next check finds the root's
    assert found(projects[0]) == (typescript_package(TS7_PINNED).resolve(), TS7_PINNED)
    assert _typescripts(root)(projects[0]) == each(projects[0])
    assert each(projects[0]) == (typescript_package(TS_PINNED).resolve(), TS_PINNED)
