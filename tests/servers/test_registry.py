"""Server definitions as lspd runs them: what servers.toml says reaches the process."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path

import lspd.servers
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from tests.conftest import copy_fixture


def _environment(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as handle:
        pairs = [item.decode().split("=", 1) for item in handle.read().split(b"\0") if item]
    return dict(pair for pair in pairs if len(pair) == 2)


def test_basedpyrights_node_runs_with_64_mb_semi_spaces_and_the_idle_collector(
    tmp_path: Path,
) -> None:
    # 64 MB semi-spaces: fewer promotions, a faster re-check than 16 MB; what they keep
    # resident idle_gc.cjs gives back once idle (servers.toml; the collector: test_idle_gc).
    root = copy_fixture("py", tmp_path)
    ws = Workspace(root, log_dir=tmp_path / "logs")

    async def main() -> list[tuple[str, str | None]]:
        try:
            session = ws.session_for(root / "pkg" / "__init__.py")
            await session.start()
            assert session.pid is not None
            # Node itself, not basedpyright's Python console script starting it (servers.toml's
            # node_script): no Python process before Node on a cold start.
            program = Path(os.readlink(f"/proc/{session.pid}/exe")).name
            return [(program, _environment(session.pid).get("NODE_OPTIONS"))]
        finally:
            await ws.close()

    collector = Path(lspd.servers.__file__).parent / "idle_gc.cjs"
    assert collector.is_file()
    assert asyncio.run(main()) == [("node", f'--max-semi-space-size=64 --require "{collector}"')]


def test_a_projects_own_basedpyright_keeps_its_wrapper(tmp_path: Path) -> None:
    # lspd's own copy runs its script with the package's Node; a project's own console script
    # (its virtual environment's basedpyright: its version) is run as it is.
    ours = definitions()["basedpyright"]
    node, script, stdio = ours.resolved_command()
    assert (Path(node).name, Path(script).name, stdio) == ("node", "langserver.index.js", "--stdio")
    assert Path(script).parent.name == "basedpyright" and Path(node).is_file()
    own = tmp_path / "venv" / "bin" / "basedpyright-langserver"
    own.parent.mkdir(parents=True)
    own.write_text("#!/bin/sh\n")
    own.chmod(0o755)
    theirs = dataclasses.replace(ours, command=(str(own), "--stdio"))
    assert theirs.resolved_command() == [str(own), "--stdio"]


def test_a_container_pattern_only_where_it_was_shown_sound() -> None:
    # basedpyright's document symbols give members to class and function declarations only
    # (servers.toml), as pyright's (the same symbol indexer: basedpyright is pyright's fork);
    # the others list no pattern and every candidate file is asked.
    found = {name: d.container_pattern for name, d in definitions().items() if d.container_pattern}
    pattern = r"\b(?:class|def)(?:\s|\\)+{name}\b"
    assert found == {"basedpyright": pattern, "pyright": pattern}
