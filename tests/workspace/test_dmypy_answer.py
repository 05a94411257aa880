"""How a question of a mypy-judged project is answered (`workspace/dmypy_answer.py`): dmypy
always checks with local partial types on; mypy before 2.0 has them off unless configured.
mitmproxy's `_KEEP_ALIVE = set()`, filled in a function, was "Need type annotation" 3 times
where its mypy 1.20 says nothing. Such an answer is asked of mypy run once, and so is every
later question; mypy 1.19.1 and 2.4.1, real, against their own runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.workspace.dmypy import Dmypy
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_mypy_once_cache import mypy_119

Shown = list[tuple[str, int, int, str | None, str]]
PARTIAL = {
    "app/__init__.py": "",
    "app/alive.py": (
        "_KEEP_ALIVE = set()\n\n\ndef keep(task: int) -> None:\n    _KEEP_ALIVE.add(task)\n"
    ),
    "app/other.py": 'count: int = "three"\n',
}


def _answers(root: Path, daemon: Dmypy) -> tuple[Shown, Shown, bool, bool]:
    """The daemon's answers of the disk and of an edit, and whether each was mypy run once."""

    async def run() -> tuple[Shown, Shown, bool, bool]:
        try:
            disk = await daemon.check(["app"], held(root))
            edit = {root / "app/other.py": 'count: int = "four"\nmore: str = 1\n'}
            edited = await daemon.check(["app"], held(root, edit))
            copy = daemon.mirror.directory
            found = [sorted(shown(root, parse(out, root, copy))) for out in (disk, edited)]
            return found[0], found[1], disk.once, edited.once
        finally:
            await daemon.stop()
            await daemon.forks.end()

    return asyncio.run(run())


@pytest.mark.parametrize("configured", [False, True])
def test_a_partial_type_completed_in_a_function_is_mypys_answer(
    tmp_path: Path, configured: bool
) -> None:
    config = "[mypy]\nlocal_partial_types = True\n" if configured else "[mypy]\n"
    root = project(tmp_path / "p", {**PARTIAL, "mypy.ini": config}, mypy_119())
    truth = sorted(cli_errors(root, "app"))
    codes = [code for _, _, _, code, _ in truth]
    assert codes == (["var-annotated", "assignment"] if configured else ["assignment"])
    daemon = daemon_of(root, tmp_path)
    disk, edited, once, once_again = _answers(root, daemon)
    assert disk == truth
    assert [code for _, _, _, code, _ in edited] == [*codes[:-1], "assignment", "assignment"]
    # dmypy's whole answer where configured so; else mypy's own, and every later one's
    assert (once, once_again, daemon.partial_once) == (not configured,) * 3


def test_mypy_2_has_local_partial_types_on_as_dmypy(tmp_path: Path) -> None:
    root = project(tmp_path / "p", {**PARTIAL, "mypy.ini": "[mypy]\n"}, mypy_env())
    truth = sorted(cli_errors(root, "app"))
    assert [code for _, _, _, code, _ in truth] == ["var-annotated", "assignment"]
    daemon = daemon_of(root, tmp_path)
    disk, _, once, _ = _answers(root, daemon)
    assert (disk, once, daemon.partial_once) == (truth, False, False)
