"""A toolchain that appears while the daemon runs, on real servers: a `.venv` created after
the workspace opened, holding the package a file imports, or the project's own TypeScript
installed into node_modules, is picked up at the next question (the server restarted,
`status` says why), without `lspd stop`; the environment hint says how to fix unresolved
imports in the answer, in the check (once) and in status."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import Coroutine
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.state import status
from lspd.workspace import Workspace
from lspd.workspace.retool import RECHECK_S
from lspd.workspace.toolchain import python_version
from tests.workspace.toolchains import TS_PINNED, typescript_package

APP = "import pkgx\n\nvalue: int = pkgx.VALUE\n"


def make_venv(root: Path) -> Path:
    """`.venv` in `root` (no pip: quick) holding the typed package `pkgx`."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    [site] = (root / ".venv" / "lib").glob("python3*/site-packages")
    (site / "pkgx").mkdir()
    (site / "pkgx" / "__init__.py").write_text("VALUE: int = 1\n")
    (site / "pkgx" / "py.typed").write_text("")
    return root / ".venv" / "bin" / "python"


async def closing(ws: Workspace, scenario: Coroutine[None, None, None]) -> None:
    """Run `scenario`, then stop the workspace's servers whatever happened."""
    try:
        await scenario
    finally:
        await ws.close()


def test_a_venv_made_after_the_start_is_picked_up_without_a_restart(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    (root / "app.py").write_text(APP)
    (root / "other.py").write_text("import pkgx\n")
    ws = Workspace(root.resolve(), log_dir=tmp_path / "logs")

    async def scenario() -> None:
        before = await diagnostics(ws, "app.py")
        assert "reportMissingImports" in [d.code for d in before.diagnostics]
        hint = before.environment or ""
        assert re.fullmatch(
            r"imports did not resolve with python \S+ \S+, PATH; install the project's "
            r"dependencies there, create the project's \.venv \(lspd picks it up\), or set "
            r'`python = "path/to/venv"` in lspd\.toml',
            hint,
        )
        checked = await workspace_diagnostics(ws)
        assert checked.environment == [hint]  # once, for both files
        assert [s.environment for s in status(ws).servers] == [hint]

        interpreter = make_venv(ws.root)
        deadline = time.monotonic() + 60
        while (after := await diagnostics(ws, "app.py")).total:
            assert time.monotonic() < deadline, after
            await asyncio.sleep(0.2)  # the toolchain is looked up again every 2 s at most
        assert after.environment is None
        label = f"python {python_version(interpreter)} {interpreter}, project"
        assert after.toolchain == label
        [server] = status(ws).servers
        assert server.toolchain == label and server.state in ("indexing", "ready")
        assert re.fullmatch(
            rf"its toolchain changed \(python .+, PATH before, now {re.escape(label)}\)",
            server.restarted or "",
        )

    asyncio.run(closing(ws, scenario()))


def test_a_changed_python_in_lspd_toml_is_read_again(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\nversion = '0'\n")
    one, two = (make_venv(root / "envs" / name) for name in ("one", "two"))
    (root / "lspd.toml").write_text('python = "envs/one/.venv"\n')
    ws = Workspace(root.resolve(), log_dir=tmp_path / "logs")
    basedpyright = ws.definitions["basedpyright"]

    def interpreter() -> str:
        _, _, toolchain = ws.toolchains.key(basedpyright, ws.root)
        assert toolchain is not None
        return f"{toolchain.path}, {toolchain.origin}"

    async def main() -> None:
        assert interpreter() == f"{one}, lspd.toml"
        (root / "lspd.toml").write_text('python = "envs/two/.venv"\n')
        assert interpreter() == f"{one}, lspd.toml"  # looked up again RECHECK_S later
        deadline = time.monotonic() + 10
        while (now := interpreter()) != f"{two}, lspd.toml":
            assert time.monotonic() < deadline, now
            await asyncio.sleep(0.1)
        [why] = ws.toolchains.announced.values()
        assert why.startswith("its toolchain changed (python ") and why.endswith(
            f"{two}, lspd.toml)"
        )
        (root / "lspd.toml").write_text('python = ""\n')  # a mistake keeps the last settings
        await asyncio.sleep(RECHECK_S)
        assert interpreter() == f"{two}, lspd.toml"

    asyncio.run(main())


def test_a_project_typescript_installed_after_the_start_is_picked_up(tmp_path: Path) -> None:
    """`npm install` of the project's pinned TypeScript while the daemon runs: the next
    question restarts the server on it (its diagnostics are that version's), said in status."""
    root = tmp_path / "pinned"
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(
        json.dumps({"name": "pinned", "devDependencies": {"typescript": TS_PINNED}})
    )
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src"]})
    )
    # TypeScript >= 5.5 infers the filter's type predicate; 5.4 reports TS2322 on line 2.
    (root / "src" / "main.ts").write_text(
        'const xs = [1, "a", 2].filter((x) => typeof x === "number");\n'
        "export const n: number[] = xs;\n"
    )
    package = typescript_package()
    ws = Workspace(root.resolve(), log_dir=tmp_path / "logs")

    async def scenario() -> None:
        before = await diagnostics(ws, "src/main.ts")
        assert before.errors == 0
        assert before.toolchain is not None and before.toolchain.endswith(", lspd")

        (root / "node_modules").mkdir()
        (root / "node_modules" / "typescript").symlink_to(package)
        deadline = time.monotonic() + 60
        while (after := await diagnostics(ws, "src/main.ts")).toolchain == before.toolchain:
            assert time.monotonic() < deadline, after
            await asyncio.sleep(0.2)  # the toolchain is looked up again every 2 s at most
        assert after.toolchain == f"typescript {TS_PINNED}, project"
        assert [(d.line, d.column, d.code) for d in after.diagnostics] == [(2, 14, "2322")]
        [server] = [s for s in status(ws).servers if s.toolchain == after.toolchain]
        assert server.restarted == (
            f"its toolchain changed ({before.toolchain} before, now {after.toolchain})"
        )

    asyncio.run(closing(ws, scenario()))
