"""Server definitions as lspd runs them: what servers.toml says reaches the process."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import lspd.servers
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from tests.conftest import copy_fixture


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
        return [int(word) for word in handle.read().split()]


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
            found = []
            for pid in _children(session.pid):  # the wrapper's node
                program = Path(os.readlink(f"/proc/{pid}/exe")).name
                found.append((program, _environment(pid).get("NODE_OPTIONS")))
            return found
        finally:
            await ws.close()

    collector = Path(lspd.servers.__file__).parent / "idle_gc.cjs"
    assert collector.is_file()
    assert asyncio.run(main()) == [("node", f'--max-semi-space-size=64 --require "{collector}"')]


def test_a_container_pattern_only_where_it_was_shown_sound() -> None:
    # basedpyright's document symbols give members to class and function declarations only
    # (servers.toml); the others list no pattern and every candidate file is asked.
    found = {name: d.container_pattern for name, d in definitions().items() if d.container_pattern}
    assert found == {"basedpyright": r"\b(?:class|def)(?:\s|\\)+{name}\b"}
