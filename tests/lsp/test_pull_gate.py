"""Changes wait for the pulls in flight of a server that drops them (`lsp/pull_gate.py`).

ty 0.0.14 answered a pulled file "no diagnostics" when lspd opened or closed another file
while it checked that one: a check of 40 files holding an error each told 33 to 37 of them.
Real ty 0.0.14 (the project pins it, lspd installs it) against the same ty's CLI."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.dirs import cache_dir
from lspd.lsp.pull_gate import PullGate
from lspd.ops.check import workspace_diagnostics
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import diagnostic_rows
from tests.workspace.ty_cli import ty_rows

PINNED = "0.0.14"
MODULES = 60


def test_a_check_opening_and_closing_files_is_told_every_error(tmp_path: Path) -> None:
    lock = f'version = 1\n\n[[package]]\nname = "ty"\nversion = "{PINNED}"\n'
    files = {f"app/m{n:02}.py": f'x{n}: int = "s"\n' for n in range(MODULES)}
    pyproject = '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n'
    root = written(
        tmp_path / "p",
        {**files, "app/__init__.py": "", "pyproject.toml": pyproject, "uv.lock": lock},
    )
    written(root, {"tox.ini": "[testenv:type]\ncommands = ty check\n", ".gitignore": ".venv\n"})
    (root / ".venv").symlink_to(environment("no-mypy"))
    checked = answer(root, lambda ws: workspace_diagnostics(ws, limit=MODULES))
    installed = cache_dir() / f"pip-ty-{PINNED}" / "target" / "bin" / "ty"
    expected = ty_rows(root, ty=installed)
    assert len(expected) == MODULES
    assert (checked.files_checked, checked.skipped) == (MODULES + 1, [])
    assert diagnostic_rows(checked) == expected


def test_a_change_made_during_a_pull_is_sent_after_it_in_order() -> None:
    sent: list[str] = []

    async def main() -> None:
        gate = PullGate(holds=True)
        send = lambda method, params: sent.append(f"{method} {params}")  # noqa: E731
        entered, release = asyncio.Event(), asyncio.Event()

        async def pull() -> None:
            async with gate.pulling():
                entered.set()
                await release.wait()
                sent.append("pulled")

        first = asyncio.create_task(pull())
        await entered.wait()
        gate.notify(send, "textDocument/didOpen", "b")
        gate.notify(send, "$/cancelRequest", 7)  # not a change: at once
        gate.notify(send, "textDocument/didClose", "a")
        assert gate.waiting == 2
        told = asyncio.create_task(gate.told())
        await asyncio.sleep(0)
        assert not told.done()  # a request waits for the changes held
        release.set()
        await asyncio.gather(first, told)
        assert gate.waiting == 0

    asyncio.run(main())
    assert sent == [
        "$/cancelRequest 7",
        "pulled",
        "textDocument/didOpen b",
        "textDocument/didClose a",
    ]
