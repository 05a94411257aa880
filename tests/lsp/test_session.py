"""`Session` on a real basedpyright: started, asked, its documents and their diagnostics,
stopped. (Crashes, hangs and garbage, which a real server cannot be made to produce on
demand, are tests/lsp/test_session_faults.py's, against a scripted fake.)"""

from __future__ import annotations

import signal
from pathlib import Path

from lspd.lsp import answers, shapes
from lspd.lsp.session import Session
from lspd.lsp.text import path_to_uri
from lspd.servers.registry import definitions
from tests.conftest import copy_fixture
from tests.daemon.support import alive, wait_dead
from tests.lsp.test_session_faults import run


def basedpyright(tmp_path: Path) -> tuple[Session, Path]:
    """A session of basedpyright on a copy of the Python fixture project (not started)."""
    root = copy_fixture("py", tmp_path)
    return Session(definitions()["basedpyright"], root, tmp_path / "logs"), root


def at(path: Path, line: int, character: int) -> shapes.PositionParams:
    """A zero-based position in `path`, as LSP sends it."""
    return {
        "textDocument": {"uri": path_to_uri(path)},
        "position": {"line": line, "character": character},
    }


def test_a_request_starts_the_server_and_is_answered_in_its_checked_shape(
    tmp_path: Path,
) -> None:
    session, root = basedpyright(tmp_path)
    app = root / "pkg/app.py"

    async def scenario() -> None:
        assert session.state == "stopped" and session.pid is None
        await session.sync_document(app, app.read_text(), "python")
        hover = await session.request(answers.HOVER, at(app, 0, 25))  # `Greeter` imported
        assert hover is not None and "class Greeter" in str(hover["contents"])
        assert session.state == "ready" and session.display_state == "ready"
        assert session.pid is not None and alive(session.pid)
        assert session.encoding in ("utf-32", "utf-16", "utf-8")
        # What the server offers, as it said in `initialize`.
        assert session.supports("hoverProvider") and session.supports("definitionProvider")
        assert not session.supports("noSuchProvider")

    run(scenario, session)


def test_documents_are_versioned_and_their_diagnostics_are_of_that_version(
    tmp_path: Path,
) -> None:
    session, root = basedpyright(tmp_path)
    broken = root / "pkg/broken.py"
    text = broken.read_text()

    async def scenario() -> None:
        first = await session.sync_document(broken, text, "python")
        assert first.version == 1 and broken.as_uri() in session.documents
        [problem] = await session.diagnostics(first, timeout=30)
        assert problem["range"]["start"] == {"line": 1, "character": 11}
        fixed = await session.sync_document(broken, text.replace('"not a number"', "1"), "python")
        assert fixed.version == 2
        assert await session.diagnostics(fixed, timeout=30) == []
        session.close_document(broken)
        assert broken.as_uri() not in session.documents

    run(scenario, session)


def test_stop_ends_the_process_and_a_request_starts_it_again(tmp_path: Path) -> None:
    session, root = basedpyright(tmp_path)
    app = root / "pkg/app.py"
    pids: list[int] = []

    async def scenario() -> None:
        for _ in range(2):
            await session.sync_document(app, app.read_text(), "python")
            assert await session.request(answers.HOVER, at(app, 0, 25)) is not None
            assert session.pid is not None
            pids.append(session.pid)
            await session.stop()
            assert session.state == "stopped" and session.documents == {}

    run(scenario, session)
    assert len(set(pids)) == 2
    for pid in pids:
        assert wait_dead(pid)


def test_a_polite_stop_asks_the_server_to_exit_and_another_kills_it(tmp_path: Path) -> None:
    """A daemon's stop asks first (basedpyright exits with 0); a one-shot CLI's, its answer
    made, does not wait for that (clangd took 0.9 s to exit): its group is killed."""
    session, root = basedpyright(tmp_path)
    app = root / "pkg/app.py"
    codes: list[int | None] = []

    async def scenario() -> None:
        for polite in (True, False):
            await session.sync_document(app, app.read_text(), "python")
            assert await session.request(answers.HOVER, at(app, 0, 25)) is not None
            assert session._server is not None
            process = session._server.process
            await session.stop(polite)
            codes.append(process.returncode)

    run(scenario, session)
    assert codes == [0, -signal.SIGKILL]


def test_a_server_that_loads_once_a_file_opens_is_ready_while_none_is(tmp_path: Path) -> None:
    """tsserver (`ready = "diagnostics"`) loads a project only once a file is open: started
    and asked for no file it is shown ready, not `indexing` for as long as it runs (as the
    daemon's prewarmed one was on mongodb 7.9.0); a file opened, it loads, then is ready."""
    root = copy_fixture("ts", tmp_path)
    session = Session(definitions()["typescript-language-server"], root, tmp_path / "logs")
    main = root / "src/main.ts"
    shown: list[str] = []

    async def scenario() -> None:
        await session.start()
        shown.append(session.state)
        shown.append(session.display_state)
        await session.sync_document(main, main.read_text(), "typescript")
        shown.append(session.display_state)
        assert await session.request(answers.HOVER, at(main, 2, 23)) is not None
        shown.append(session.display_state)

    run(scenario, session)
    assert shown == ["indexing", "ready", "indexing", "ready"]


def test_an_open_of_the_disks_text_leaves_the_other_documents_lists_current(
    tmp_path: Path,
) -> None:
    """clangd publishes nothing for a text it holds already. Told that opening a second C
    file (its disk text) was a change, lspd sent the first again for a fresh list and waited
    out its timeout: a whole check of two C files took 121 s (as did closing a file in
    every session, where it is open or not). Other text than the disk's is a change, opened
    or closed, for a server that republishes."""
    root = tmp_path / "c"
    root.mkdir()
    (root / "compile_flags.txt").write_text("-xc\n")
    for name in ("x.c", "z.c"):
        (root / name).write_text(f"int {name[0]}(int a) {{ return a; }}\n")
    x, z = root / "x.c", root / "z.c"
    session = Session(definitions()["clangd"], root, tmp_path / "logs")

    async def scenario() -> None:
        first = await session.sync_document(x, x.read_text(), "c")
        await session.sync_document(z, z.read_text(), "c")
        assert not session.inbox.outdated(first.uri)
        assert await session.diagnostics(first, 60.0) == []
        assert first.version == 1  # answered as sent, not sent again
        session.close_document(z)
        session.close_document(root / "other.c")  # open in another session, if any
        assert not session.inbox.outdated(first.uri)
        await session.sync_document(z, "int z(void) { return 0; }\n", "c", on_disk=False)
        assert session.inbox.outdated(first.uri)
        # clangd does not republish (servers.toml): closed and opened again, it answers (a
        # preview of two C files failed after 120 s, "sent no diagnostics for lib.h")
        assert await session.diagnostics(first, 10.0) == [] and first.version == 2
        before = session.inbox.changes
        session.close_document(z)  # the server reads the disk's text again: a change too
        assert session.inbox.changes == before + 1

    run(scenario, session)


def test_clangd_s_list_of_a_file_follows_a_header_changed_on_disk(tmp_path: Path) -> None:
    """Sent again, the includer is not answered (its inputs the same); left alone, its list
    said the header's old declarations: reopened, it says the new header's."""
    root = tmp_path / "c"
    root.mkdir()
    (root / "compile_flags.txt").write_text("-xc\n")
    (root / "lib.h").write_text("int f(int a);\n")
    (root / "main.c").write_text('#include "lib.h"\nint main(void) { return f(1); }\n')
    main, lib = root / "main.c", root / "lib.h"
    session = Session(definitions()["clangd"], root, tmp_path / "logs")

    async def scenario() -> None:
        document = await session.sync_document(main, main.read_text(), "c")
        await session.sync_document(lib, lib.read_text(), "c")
        assert await session.diagnostics(document, 60.0) == []
        lib.write_text("int g(int a);\n")  # f is gone
        await session.sync_document(lib, lib.read_text(), "c")
        said = await session.diagnostics(document, 60.0)
        assert [(d["range"]["start"]["line"], d["message"]) for d in said] == [
            (
                1,
                "Call to undeclared function 'f'; ISO C99 and later do not support implicit "
                "function declarations",
            )
        ]

    run(scenario, session)
