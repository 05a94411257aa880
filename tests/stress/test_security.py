"""What a hostile page, a curious process or a careless agent can get out of the daemon.

tests/daemon/test_http.py has the basics (a foreign Host or Origin on `initialize` and
`/health`, 401 without the token); this suite covers every way in: each MCP method with
foreign headers, every wrong Authorization, path escapes through every tool, the tool list
and the files, and the sockets of the whole process tree.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from bench.processes import descendants
from mcp import Client

from lspd import sentinel
from lspd.daemon.lock import lock_path
from lspd.tools import TOOL_NAMES
from tests.daemon.support import (
    env_for,
    kill,
    serve_command,
    thread_daemon,
    wait_for_port,
    wait_for_servers,
)
from tests.tools.calls import CALLS, text_of

pytestmark = pytest.mark.anyio

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
SECRET = "hunter2-do-not-leak"


# -- DNS rebinding and cross-origin pages --------------------------------------------------

FOREIGN = [
    {"Host": "evil.example"},
    {"Host": "evil.example:80"},
    {"Host": "127.0.0.1.nip.io:8080"},
    {"Host": "localhost.evil.example"},
    {"Host": "192.168.1.20:8080"},
    {"Host": "0.0.0.0:8080"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://127.0.0.1.evil.example"},
    {"Origin": "null"},
    {"Origin": "file://"},
    {"Origin": "https://localhost.evil.example:443"},
]


@pytest.mark.parametrize("headers", FOREIGN, ids=lambda h: "=".join(next(iter(h.items()))))
def test_foreign_host_or_origin_is_refused_on_every_route(
    root: Path, headers: dict[str, str]
) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        status = 421 if "Host" in headers else 403
        with httpx.Client(headers=headers) as http:
            assert http.post(daemon.url, content=LIST, headers=MCP_HEADERS).status_code == status
            assert http.get(daemon.url, headers=MCP_HEADERS).status_code == status
            assert http.delete(daemon.url).status_code == status
            assert http.get(f"{daemon.base}/health").status_code == status
            assert http.get(f"{daemon.base}/anything").status_code == status


async def test_a_rebinding_page_cannot_call_tools_through_the_sdk(root: Path) -> None:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    with thread_daemon(root, prewarm=False) as daemon:
        async with httpx2.AsyncClient(headers={"Origin": "http://evil.example"}) as http:
            with pytest.raises(BaseException):  # noqa: B017 (the SDK wraps it in a group)
                async with Client(streamable_http_client(daemon.url, http_client=http)) as mcp:
                    await mcp.call_tool("status", {})


# -- token mode ----------------------------------------------------------------------------


def test_every_wrong_authorization_gets_401(root: Path) -> None:
    with thread_daemon(root, prewarm=False, token=True) as daemon:
        token = sentinel.read_token(root)
        assert token is not None
        wrong = [
            {},
            {"Authorization": ""},
            {"Authorization": "Bearer"},
            {"Authorization": f"Basic {token}"},
            {"Authorization": f"bearer {token}x"},
            {"Authorization": f"Bearer {token[:-1]}"},
            {"Authorization": f"Bearer {token} {token}"},
            {"Authorization": f"Bearer {token.upper()}"},
            {"Cookie": f"token={token}"},
        ]
        for headers in wrong:
            for response in (
                httpx.post(daemon.url, content=LIST, headers={**MCP_HEADERS, **headers}),
                httpx.get(f"{daemon.base}/health", headers=headers),
                httpx.get(f"{daemon.base}/health?token={token}", headers=headers),
            ):
                assert response.status_code == 401, headers
                assert response.headers["www-authenticate"] == "Bearer"
                assert token not in response.text
        good = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{daemon.base}/health", headers=good).status_code == 200


def test_files_are_private_whatever_the_umask(root: Path, state: Path) -> None:
    """The token is 0600 and nothing lspd writes is writable by others, even under umask 0."""
    process = subprocess.Popen(
        serve_command(root, "--token", "--no-prewarm"),
        env=env_for(state),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        umask=0,
    )
    try:
        wait_for_port(root)
        token = sentinel.token_path(root)
        assert stat.S_IMODE(token.stat().st_mode) == 0o600
        assert stat.S_IMODE(sentinel.port_path(root).stat().st_mode) == 0o644
        assert stat.S_IMODE(lock_path(root).stat().st_mode) == 0o600
        for path in [*root.rglob("*"), *state.rglob("*")]:
            if path.is_symlink():
                continue
            mode = stat.S_IMODE(path.lstat().st_mode)
            assert not mode & stat.S_IWOTH, f"{path} is world-writable ({mode:o})"
    finally:
        kill(process)


# -- paths that lead out of the root -------------------------------------------------------


@pytest.fixture
def escapes(root: Path, tmp_path: Path) -> Iterator[list[str]]:
    """Ways to name a file outside the root; the file holds a secret and a type error."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(f"password: int = '{SECRET}'\n")
    (root / "pkg/secret_link.py").symlink_to(outside / "secret.py")
    (root / "pkg/linked_dir").symlink_to(outside)
    yield [
        "../outside/secret.py",
        "pkg/../../outside/secret.py",
        str(outside / "secret.py"),
        "pkg/secret_link.py",
        "pkg/linked_dir/secret.py",
        f"{root}/pkg/linked_dir/secret.py",
        "/etc/passwd",
        "~/.bashrc",
    ]


async def test_paths_leading_out_of_the_root_are_refused_by_every_tool(
    root: Path, escapes: list[str]
) -> None:
    with thread_daemon(root) as daemon:
        async with Client(daemon.url) as client:
            for path in escapes:
                for tool in ("hover", "definition", "references", "call_hierarchy"):
                    result = await client.call_tool(tool, {"path": path, "line": 1, "column": 1})
                    assert result.is_error and "outside the workspace" in text_of(result)
                for tool in ("diagnostics", "document_symbols"):
                    result = await client.call_tool(tool, {"path": path})
                    assert result.is_error and "outside the workspace" in text_of(result)
                    assert SECRET not in text_of(result)
            # lspd's own walk of the workspace does not follow the links either. (Outputs may
            # name files outside the root, e.g. a library's definition; inputs may not.)
            everything = await client.call_tool("workspace_diagnostics", {"paths": ["**/*"]})
            assert not everything.is_error
            assert "secret" not in str(everything.structured_content)


# -- read-only tools -------------------------------------------------------------------------


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".vscode" not in p.parts
    }


async def test_the_tools_only_read(root: Path) -> None:
    """Only the spec's read-only tools, so annotated, and calling them all writes nothing."""
    before = tree_digest(root)
    with thread_daemon(root) as daemon:
        async with Client(daemon.url) as client:
            tools = (await client.list_tools()).tools
            assert sorted(t.name for t in tools) == sorted(TOOL_NAMES)
            for tool in tools:
                annotations = tool.annotations
                assert annotations is not None
                assert annotations.read_only_hint is True, tool.name
                assert annotations.open_world_hint is False, tool.name
                assert annotations.destructive_hint is not True, tool.name
                arguments = set(tool.input_schema.get("properties", {}))
                # (`rename` takes a `new_name` and answers a diff: calling it writes nothing,
                # as the digest below shows.)
                assert not arguments & {"command", "edits", "text", "args"}
            for name, arguments in CALLS.items():
                result = await client.call_tool(name, arguments)
                assert not result.is_error, text_of(result)
            unsaved = {"path": "pkg/app.py", "content": "import os\nos.remove('x')\n"}
            assert not (await client.call_tool("diagnostics", unsaved)).is_error
    assert tree_digest(root) == before  # `content` is checked, never written


# -- sockets ---------------------------------------------------------------------------------


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def bound_sockets() -> dict[str, tuple[str, str, str]]:
    """inode -> (table, local address, state) of every TCP/UDP socket bound to a port."""
    found = {}
    for table in ("tcp", "tcp6", "udp", "udp6"):
        with open(f"/proc/net/{table}", encoding="ascii") as handle:
            for line in list(handle)[1:]:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if not local.endswith(":0000"):
                    found[inode] = (table, local, state)
    return found


LOOPBACK_V4 = "0100007F"  # 127.0.0.1 as /proc/net/tcp writes it


def test_nothing_in_the_process_tree_listens_beyond_127_0_0_1(root: Path, state: Path) -> None:
    process = subprocess.Popen(
        serve_command(root),
        env=env_for(state),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    pids: list[int] = []
    try:
        port = wait_for_port(root)
        pids = [s["pid"] for s in wait_for_servers(port)]  # basedpyright, prewarmed
        tree = descendants(process.pid)
        assert set(pids) <= set(tree)
        sockets = bound_sockets()
        listening = [
            (pid, sockets[inode])
            for pid in tree
            for inode in socket_inodes(pid)
            if inode in sockets
            and (sockets[inode][0].startswith("udp") or sockets[inode][2] == "0A")
        ]
        expected = ("tcp", f"{LOOPBACK_V4}:{port:04X}", "0A")
        assert listening == [(process.pid, expected)], listening
    finally:
        kill(process, pids)
