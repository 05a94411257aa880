"""Diffs from `rename` and `fixes` applied as an agent applies them, to a copy, then judged by
the language's own command-line checker."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from lspd.servers.registry import definitions, node_executable
from tests.basedpyright_cli import BASEDPYRIGHT as BASEDPYRIGHT  # for its importers
from tests.basedpyright_cli import diagnostics, relative, start

LEFT_OUT = shutil.ignore_patterns(".vscode", ".git", "node_modules", "__pycache__")


def applied(root: Path, diff: str, destination: Path) -> Path:
    """A copy of `root` with `diff` applied by `git apply` (after `patch -p1 --dry-run` and
    `git apply --check` both accept it)."""
    copy = destination / root.name
    shutil.copytree(root, copy, ignore=LEFT_OUT)
    node_modules = root / "node_modules"
    if node_modules.is_dir():  # a project's own TypeScript: shared, not copied
        (copy / "node_modules").symlink_to(node_modules)
    patch = subprocess.run(
        ["patch", "-p1", "--dry-run", "-s", "-d", str(copy)],
        input=diff,
        capture_output=True,
        text=True,
        check=False,
    )
    assert patch.returncode == 0, (patch.stdout, patch.stderr, diff)
    _git(copy, "init", "-q")
    _git(copy, "apply", "--check", "-", stdin=diff)
    _git(copy, "apply", "-", stdin=diff)
    return copy


def _git(root: Path, *args: str, stdin: str | None = None) -> None:
    done = subprocess.run(
        ["git", "-C", str(root), *args], input=stdin, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, (args, done.stderr, stdin)


def basedpyright_errors(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, rule) of every error basedpyright's CLI reports for the project."""
    return sorted(
        (relative(d, root), start(d)[0], d["rule"])
        for d in diagnostics(root)
        if d["severity"] == "error"
    )


def tsc_errors(root: Path, native: bool = False) -> list[str]:
    """`tsc -p . --noEmit` of lspd's TypeScript (5, or 7 with `native`): its error lines."""
    server = "typescript-native" if native else "typescript-language-server"
    package = definitions()[server].npm_root() / "typescript"
    done = subprocess.run(
        [
            node_executable(),
            str(package / "bin" / "tsc"),
            "-p",
            ".",
            "--noEmit",
            "--pretty",
            "false",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return sorted(line for line in done.stdout.splitlines() if ": error TS" in line)


def go_errors(root: Path) -> list[str]:
    """`go vet ./...` (compiles every package) without a module proxy: its error lines."""
    env = {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod"}
    done = subprocess.run(
        ["go", "vet", "./..."], cwd=root, capture_output=True, text=True, timeout=300, env=env
    )
    return sorted(line for line in done.stderr.splitlines() if line and not line.startswith("#"))
