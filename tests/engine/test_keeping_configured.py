"""A daemon started at HEAD's configuration, a configuration deleted (tsconfig.json) before
its background keeping made HEAD's result (`engine/keeping.py`): keeping is refused
(NotKept) and waits for the next change, and `check --baseline HEAD` is refused saying what
makes a comparison possible, which the test then does: the configuration put back, one
`check --baseline` makes HEAD's result, the deletion made again is compared under HEAD's
tsconfig. Before, the refusal said "a daemon started at HEAD's configuration keeps its
result": this one was. Real TypeScript, real git."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from lspd.engine.kept_memory import memory_of
from tests.cli.test_check import lspd_check
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon
from tests.engine.test_keeping import wait_for
from tests.ops.test_baseline import committed, git


def test_a_configuration_deleted_before_heads_result_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="lspd.engine.keeping")
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = committed(copy_fixture("ts", tmp_path))
    head = git(root, "rev-parse", "HEAD").strip()[:12]
    config = root / "tsconfig.json"
    text = config.read_text()
    with thread_daemon(root, prewarm=False) as running:  # keeping's first look: in 5 s
        ws = running.daemon.ws
        assert ws is not None
        memory = memory_of(ws)
        config.unlink()
        wait_for(lambda: any("cannot be kept now" in r.getMessage() for r in caplog.records))
        assert memory.state is None
        refused = lspd_check(root, "--baseline", "HEAD")
        assert refused.returncode == 2, refused.stdout + refused.stderr
        told = " ".join(refused.stderr.split())
        assert f"put tsconfig.json back as at {head} and run `lspd check --baseline {head}`" in told
        assert "a daemon started at" not in told
        # what it says, done: HEAD's result made under HEAD's tsconfig, the edit made again
        config.write_text(text)
        made = lspd_check(root, "--baseline", head)
        assert made.returncode in (0, 1), made.stdout + made.stderr
        wait_for(lambda: memory.state is not None)
        config.unlink()
        compared = lspd_check(root, "--baseline", "HEAD")
        assert compared.returncode in (0, 1), compared.stdout + compared.stderr
        assert "the configuration changed since" in compared.stdout
        assert "compared under the one then" in compared.stdout
