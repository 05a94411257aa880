"""Settings reach a server once: pulled by a server that asks, pushed only to one that does not.

basedpyright >= 1.40 pulls its settings when told `initialized`; a push on top made it set
its workspace up twice. basedpyright 1.39.0 (pyright before its January 2026 fix) sets up
nothing until it is pushed, and then never answers without the push.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lspd.lsp.configuration import PULL_GRACE_S, PULL_WAIT_S, Configuration, covered
from lspd.lsp.session import Session
from lspd.servers.registry import ServerDefinition, definitions
from tests.workspace.toolchains import make_venv

CHECKED = 'wrong: int = "text"\n'


@pytest.fixture(scope="module")
def basedpyright_1_39(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An environment holding basedpyright 1.39.0, the last release that needs the push."""
    where = tmp_path_factory.mktemp("envs") / "basedpyright-1.39"
    make_venv(where, "basedpyright==1.39.0")
    return where


def _basedpyright(python: Path, server: Path | None = None) -> ServerDefinition:
    """lspd's basedpyright told the interpreter as the workspace's toolchain tells it."""
    definition = definitions()["basedpyright"]
    settings = {**definition.settings, "python": {"pythonPath": str(python)}}
    definition = dataclasses.replace(definition, settings=settings)
    if server is not None:
        definition = dataclasses.replace(definition, command=(str(server), "--stdio"))
    return definition


def _first_answer(definition: ServerDefinition, root: Path) -> tuple[Session, list[str]]:
    """Start `definition` on a project, let it settle its settings, then pull diagnostics;
    the session and the codes it answered."""
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (root / "app.py").write_text(CHECKED)
    session = Session(definition, root, root.parent / "logs", request_timeout=30.0)

    async def run() -> list[str]:
        try:
            await session.start()
            await asyncio.wait_for(session.configuration.settled.wait(), 30.0)
            document = await session.sync_document(root / "app.py", CHECKED, "python")
            found = await session.diagnostics(document, 30.0)
            return [str(diagnostic.get("code")) for diagnostic in found]
        finally:
            await session.stop()

    return session, asyncio.run(run())


def _server_log(caplog: pytest.LogCaptureFixture, text: str) -> int:
    """How many of the server's log messages contain `text`."""
    return sum(
        1
        for record in caplog.records
        if record.name == "lspd.lsp.session" and text in record.getMessage()
    )


def test_a_server_that_pulls_is_not_pushed_and_sets_up_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="lspd.lsp.session")
    python = Path(sys.executable)
    session, codes = _first_answer(_basedpyright(python), tmp_path / "proj")
    assert codes == ["reportAssignmentType"]
    assert _server_log(caplog, f'Setting pythonPath for service "proj": "{python}"') == 1
    assert session.configuration.pulled == {"python", "basedpyright"}
    assert not session.configuration.pushed


def test_basedpyright_1_39_is_pushed_and_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, basedpyright_1_39: Path
) -> None:
    caplog.set_level(logging.DEBUG, logger="lspd.lsp.session")
    python = basedpyright_1_39 / "bin" / "python"
    server = basedpyright_1_39 / "bin" / "basedpyright-langserver"
    session, codes = _first_answer(_basedpyright(python, server), tmp_path / "proj")
    assert codes == ["reportAssignmentType"]
    assert session.configuration.pushed
    assert _server_log(caplog, "basedpyright language server 1.39.0 starting") == 1
    assert _server_log(caplog, f'Setting pythonPath for service "proj": "{python}"') == 1


SETTINGS = {
    "python": {"pythonPath": "/usr/bin/python3"},
    "basedpyright": {"analysis": {"autoSearchPaths": True}},
}


@pytest.mark.parametrize(
    ("pulled", "answer"),
    [
        ({"python", "basedpyright"}, True),  # basedpyright 1.40
        ({"python", "basedpyright.analysis"}, True),  # basedpyright 1.39, once pushed
        ({""}, True),  # all of them
        ({"python"}, False),  # pyrefly's section leaves basedpyright's unread
        ({"python", "basedpyright.other"}, False),
        ({"formattingOptions"}, False),  # typescript-language-server: not its settings
        (set(), False),
    ],
)
def test_settings_are_covered_only_by_the_sections_pulled(pulled: set[str], answer: bool) -> None:
    assert covered(SETTINGS, pulled) is answer


def test_the_push_waits_while_the_server_has_said_nothing_since_initialized() -> None:
    """A server that has not handled `initialized` yet (a loaded machine) is given time to
    pull, up to PULL_WAIT_S; one that spoke and did not pull is pushed after the grace."""
    sent: dict[str, float] = {}

    async def run(speaks_after: float | None) -> float:
        server = SimpleNamespace(received=0)  # its connection's count of messages
        configuration = Configuration(SETTINGS, Path("/p"))
        loop = asyncio.get_running_loop()
        began = loop.time()

        def notify(method: str, params: Any) -> None:
            sent[method] = loop.time() - began

        configuration.initialized(SETTINGS, notify, server)
        if speaks_after is not None:
            await asyncio.sleep(speaks_after)
            server.received += 1  # e.g. its registration, without the pull
        await asyncio.wait_for(configuration.settled.wait(), 5.0)
        assert configuration.pushed
        return sent.pop("workspace/didChangeConfiguration")

    # Lower bounds are the rule; upper bounds only tell the two apart (a loaded machine
    # may wake the loop late, never early): the silent one waits PULL_WAIT_S, the one that
    # spoke is pushed at the grace's next turn after it spoke, well before that.
    silent = asyncio.run(run(None))
    assert silent >= PULL_WAIT_S
    spoke = asyncio.run(run(0.2))
    assert 0.2 <= spoke < PULL_WAIT_S


def test_a_server_pulling_its_sections_one_by_one_is_not_pushed() -> None:
    """basedpyright asks `python`, then `basedpyright` in another request: on a loaded
    machine the second came 20 ms after the first and 58 ms after `initialized`."""
    configuration = Configuration(SETTINGS, Path("/p"))
    sent: list[str] = []

    async def run() -> None:
        server = SimpleNamespace(received=0)
        configuration.initialized(SETTINGS, lambda method, params: sent.append(method), server)
        await asyncio.sleep(PULL_GRACE_S * 0.5)
        server.received += 1
        configuration.answer({"items": [{"section": "python"}]})
        await asyncio.sleep(PULL_GRACE_S * 2)  # past the first grace
        server.received += 1
        configuration.answer({"items": [{"section": "basedpyright"}]})
        await asyncio.wait_for(configuration.settled.wait(), 5.0)

    asyncio.run(run())
    assert (sent, configuration.pushed) == ([], False)
    assert configuration.pulled == {"python", "basedpyright"}
