"""A pyright configuration written twice in quick succession (two watcher batches, one
server reload: basedpyright's reload timer starts again at each event) is reloaded once:
a question after it waits for that one reload, not for a second that never comes (it
waited `RELOAD_TIMEOUT_S`, 21.3 s where 1.2 s do). Real basedpyright against its CLI."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed
from tests.workspace.test_sync_config_reload import BROKEN, FINE, JSON_OFF, JSON_ON
from tests.workspace.test_sync_excluded import said


def test_a_configuration_written_twice_at_once_is_waited_for_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = "pyrightconfig.json"
    root = committed(written(tmp_path / "p", {config: JSON_OFF, "app/a.py": BROKEN, "b.py": FINE}))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        caplog.set_level(logging.WARNING, "lspd.lsp.readiness")
        warm.run(_twice(root / config, JSON_ON))
        truth = cli(root)
        assert [(r[0], r[1], r[3]) for r in truth] == [("app/a.py", 2, "reportReturnType")]
        assert said(warm) == (truth, truth, [])
        assert [r.getMessage() for r in caplog.records if r.name == "lspd.lsp.readiness"] == []


async def _twice(path: Path, text: str) -> None:
    """`text` written to `path`, then again 50 ms on (past the watcher's 20 ms of quiet: two
    batches, inside the server's 100 ms), while the daemon's loop runs."""
    path.write_text(text.replace("}", " }"))
    await asyncio.sleep(0.05)
    path.write_text(text)
    await asyncio.sleep(0.05)
