"""Previews of multi-file changes on basedpyright: nothing written, nothing seen by others."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from lspd.errors import InvalidInput
from lspd.ops.budget import compact_json
from lspd.ops.models import PreviewResult
from lspd.surface.table import call, operation
from tests.conftest import Warm, copy_fixture, warm_workspace
from tests.daemon.support import thread_daemon

pytestmark = pytest.mark.anyio

TWO_ARGUMENTS = "def make_greeter(name: str, loud: bool) -> Greeter:"


@pytest.fixture
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    yield from warm_workspace("py", tmp_path_factory)


def greeting_with_two_arguments(root: Path) -> str:
    """greeting.py whose make_greeter takes (and uses) a second argument."""
    old = "def make_greeter(name: str) -> Greeter:\n    return Greeter(name)"
    new = f"{TWO_ARGUMENTS}\n    return LoudGreeter(name) if loud else Greeter(name)"
    text = (root / "pkg/greeting.py").read_text()
    assert old in text
    return text.replace(old, new)


def preview(warm: Warm, changes: list[dict[str, Any]]) -> PreviewResult:
    result: PreviewResult = warm.run(call(operation("preview"), warm.ws, {"changes": changes}))
    return result


def test_a_signature_change_with_its_caller_introduces_nothing(own: Warm) -> None:
    app = (own.root / "pkg/app.py").read_text()
    greeting = greeting_with_two_arguments(own.root)
    result = preview(
        own,
        [
            {"path": "pkg/greeting.py", "content": greeting},
            {"path": "pkg/app.py", "content": app.replace('("world")', '("world", True)')},
        ],
    )
    assert result.changes.introduced == [] and result.changes.baseline == "disk"
    assert (result.errors, result.warnings) == (0, 0)
    # Pre-existing problems of the compared files are counted per file, never listed.
    assert '"introduced":[]' in compact_json(result) and '"fixed":[]' in compact_json(result)
    assert result.changes.changed == ["pkg/app.py", "pkg/greeting.py"]
    # Without the caller, its call breaks: introduced in app.py, which was not proposed.
    alone = preview(own, [{"path": "pkg/greeting.py", "content": greeting}])
    # (in basedpyright's default mode, the failed call's unknown types are warnings too)
    assert [(d.path, d.line, d.code) for d in alone.changes.introduced] == [
        ("pkg/app.py", 5, "reportCallIssue"),
        ("pkg/app.py", 5, "reportUnknownVariableType"),
        ("pkg/app.py", 6, "reportUnknownMemberType"),
        ("pkg/app.py", 6, "reportUnknownVariableType"),
    ]
    assert (own.root / "pkg/greeting.py").read_text() != greeting  # the disk is untouched


def test_a_new_file_and_a_deletion(own: Warm) -> None:
    result = preview(
        own,
        [
            {"path": "pkg/fresh.py", "content": "from pkg.greeting import Greeter\nn: int = ''\n"},
            {"path": "pkg/greeting.py", "content": None},
        ],
    )
    assert not (own.root / "pkg/fresh.py").exists() and (own.root / "pkg/greeting.py").exists()
    new = [(d.path, d.line, d.code) for d in result.changes.introduced]
    assert ("pkg/fresh.py", 2, "reportAssignmentType") in new
    # The disk is the baseline: the counts are of what the change introduces.
    assert (result.errors, result.warnings) == (
        sum(d.severity == "error" for d in result.changes.introduced),
        sum(d.severity == "warning" for d in result.changes.introduced),
    )
    assert result.errors > 0
    introduced = {(d.path, d.code) for d in result.changes.introduced}
    # Every file importing from the deleted module loses its names.
    assert {p for p, _ in introduced} >= {"pkg/app.py", "pkg/extra.py", "pkg/fresh.py"}
    assert own.ws.document(own.root / "pkg/fresh.py") is None  # not left open


def test_bad_changes_say_what_to_send(own: Warm) -> None:
    with pytest.raises(InvalidInput, match="non-empty list"):
        preview(own, [])
    with pytest.raises(InvalidInput, match="cannot be deleted"):
        preview(own, [{"path": "pkg/none.py", "content": None}])
    with pytest.raises(InvalidInput, match="changed twice"):
        preview(own, [{"path": "pkg/app.py", "content": ""}, {"path": "pkg/app.py", "content": ""}])


def test_a_cancelled_preview_leaves_the_servers_as_before(own: Warm) -> None:
    app = own.root / "pkg/app.py"
    proposed = app.read_text().replace("greeter = make_greeter", "greeter: int = make_greeter")

    async def cancel_midway() -> None:
        changes = [{"path": "pkg/app.py", "content": proposed}, {"path": "pkg/x.py", "content": ""}]
        task = asyncio.create_task(call(operation("preview"), own.ws, {"changes": changes}))
        # Until the server holds the proposal: then cancel, as a client that went away.
        while (held := own.ws.document(app)) is None or held.text != proposed:
            assert not task.done(), task
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    own.run(cancel_midway())
    assert own.ws.document(app) is not None
    assert own.ws.document(app).text == app.read_text()  # type: ignore[union-attr]
    assert own.ws.document(own.root / "pkg/x.py") is None
    hover = own.run(
        call(operation("hover"), own.ws, {"path": "pkg/app.py", "line": 5, "column": 5})
    )
    assert "greeter: Greeter" in hover.contents


async def test_a_concurrent_client_never_sees_the_preview(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    proposed = (
        (root / "pkg/app.py")
        .read_text()
        .replace("greeter = make_greeter", "greeter: int = make_greeter")
    )
    hover = {"path": "pkg/app.py", "line": 5, "column": 5}
    with thread_daemon(root, prewarm=False) as daemon:
        async with Client(daemon.url) as previewer, Client(daemon.url) as other:
            assert "greeter: Greeter" in str((await other.call_tool("hover", hover)).content)

            async def previews() -> None:
                for _ in range(3):
                    changes = [{"path": "pkg/app.py", "content": proposed}]
                    result = await previewer.call_tool("preview", {"changes": changes})
                    assert not result.is_error, result.content

            async def hovers() -> list[str]:
                seen = []
                for _ in range(30):
                    answer = await other.call_tool("hover", hover)
                    seen.append(str(answer.structured_content))
                return seen

            _, seen = await asyncio.gather(previews(), hovers())
    assert all("greeter: Greeter" in text for text in seen), seen
