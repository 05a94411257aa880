"""mypy's answers run once are kept across lspd's processes, never stale: the next process
asking the same texts of the same mypy is answered without running it (its runs counted),
with the answer the project's own mypy gives; any change of what mypy reads (a file, the
installed distributions, the configuration, a `.pth`, the user's configuration) asks mypy
again; where mypy may read what the key cannot see, nothing is kept. A one-shot preview
after a one-shot check runs mypy for the proposal only, a baseline's committed texts asked
before are not run again, a check of the proposal once written runs none; on a real mypy
1.13 (httpx 0.28.1's), against the project's own mypy on the states written."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from lspd.engine.mypy_errors import parse
from lspd.ops.check import workspace_diagnostics
from lspd.ops.preview import preview
from lspd.workspace import Workspace
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_kept import Kept, kept_key
from lspd.workspace.mypy_mirror import Place
from lspd.workspace.mypy_said import MypyOutput
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import EXTRA, FILES, TARGETS, mypy_113
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_mypy_once import AREA_EDITED, IGNORING

Shown = set[tuple[str, int, str | None]]


def asked(daemon: Dmypy, root: Path) -> tuple[MypyOutput, int]:
    """One process's question (a daemon object of its own, stopped after it): its answer
    and how many times it ran mypy."""

    async def run() -> tuple[MypyOutput, int]:
        try:
            return await daemon.check([], held(root)), daemon.runs
        finally:
            await daemon.stop()

    return asyncio.run(run())


def test_the_next_process_gets_mypys_answer_without_running_it(tmp_path: Path) -> None:
    root = project(tmp_path / "p", IGNORING)
    first, runs = asked(daemon_of(root, tmp_path), root)
    assert runs == 1 and first.once
    truth = cli_errors(root)
    assert shown(root, parse(first, root, daemon_of(root, tmp_path).mirror.directory)) == truth
    again, runs = asked(daemon_of(root, tmp_path), root)  # another process's daemon
    assert runs == 0 and again == first  # status, lines, run once: the same answer
    shapes = root / "app" / "shapes.py"
    shapes.write_text(AREA_EDITED)  # the disk changed since: mypy asked, its new answer
    edited, runs = asked(daemon_of(root, tmp_path), root)
    changed = shown(root, parse(edited, root, daemon_of(root, tmp_path).mirror.directory))
    assert runs == 1 and sorted(changed) == sorted(cli_errors(root)) != sorted(truth)
    (info,) = (root / ".venv").glob("lib/python*/site-packages/mypy-*.dist-info")
    was = info.stat()
    try:  # mypy reinstalled: asked again
        os.utime(info, ns=(was.st_atime_ns, was.st_mtime_ns + 1_000_000_000))
        assert asked(daemon_of(root, tmp_path), root)[1] == 1
    finally:
        os.utime(info, ns=(was.st_atime_ns, was.st_mtime_ns))
    daemon = daemon_of(root, tmp_path)
    daemon.forget()  # the bench measures a re-check: nothing kept is reused
    assert asked(daemon, root)[1] == 1


def place(tmp_path: Path) -> tuple[Place, Path]:
    """A project's place in its copy, and an interpreter of an environment of its own."""
    base = tmp_path / "p"
    (base / "app").mkdir(parents=True)
    (base / "app" / "a.py").write_text("x = 1\n")
    python = tmp_path / "env" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    (tmp_path / "env" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (tmp_path / "env" / "pyvenv.cfg").write_text("include-system-site-packages = false\n")
    return Place(tmp_path / "copy", base, base), python


def texts_with(config: str) -> dict[str, bytes]:
    return {"pyproject.toml": config.encode(), "app/a.py": b"x = 1\n"}


STRICT = "[tool.mypy]\nstrict = true\n"


def test_nothing_is_kept_where_mypy_reads_beyond_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    at, python = place(tmp_path)
    seen = [at.base / "app" / "a.py"]

    def key_of(config: str, texts: dict[str, bytes] | None = None) -> str | None:
        held = texts or texts_with(config)
        return kept_key(b"state", ["-O", "json"], held, at, python, lambda: seen)

    plain = key_of(STRICT)
    assert plain is not None and plain == key_of(STRICT)
    assert key_of(STRICT + 'mypy_path = "stubs"\nplugins = ["pydantic.mypy"]\n') is not None
    for leaving in (
        'mypy_path = "../shared"',
        'mypy_path = "stubs:/opt/stubs"',
        'files = ["app", "$HOME/x"]',
        'plugins = ["~/plugin.py:fn"]',
        'custom_typeshed_dir = "typeshed"',
        'python_executable = "/usr/bin/python3"',
    ):
        assert key_of(f"{STRICT}{leaving}\n") is None, leaving
    assert key_of("", {"mypy.ini": b"[mypy\nstrict = True\n"}) is None  # does not parse
    cfg = tmp_path / "env" / "pyvenv.cfg"
    cfg.write_text("include-system-site-packages = true\n")  # mypy reads the system's too
    assert key_of(STRICT) is None
    cfg.unlink()  # no virtual environment: the user's site-packages too
    assert key_of(STRICT) is None
    cfg.write_text("include-system-site-packages = false\n")
    monkeypatch.setenv("MYPYPATH", "/elsewhere")
    assert key_of(STRICT) is None
    monkeypatch.delenv("MYPYPATH")
    user = tmp_path / "home" / ".mypy.ini"  # read where the project has no configuration
    user.parent.mkdir()
    user.write_text("[mypy]\nstrict = True\n")
    assert key_of(STRICT) not in (None, plain)
    user.unlink()
    site = python.parent.parent / "lib" / "python3.11" / "site-packages"
    (site / "bare.py").write_text("x = 1\n")  # a module written there, no .dist-info
    assert key_of(STRICT) not in (None, plain)
    (site / "_editable.pth").write_text(f"import sys\n{at.base}\n")  # the project installed
    into = key_of(STRICT)
    assert into not in (None, plain)
    seen.append(at.base / "app" / "gone.py")  # held as gone: mypy would find the disk's
    assert key_of(STRICT) is None
    seen.pop()
    (site / "_other.pth").write_text(f"{tmp_path / 'sibling'}\n")  # a directory elsewhere
    assert key_of(STRICT) is None


def test_the_configuration_judged_is_the_one_mypy_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy 1.15 and later look for their configuration up from where they run to the
    copy's root (its `.git` mark), then the user's; 1.13 reads only where it runs. Only
    the project's place was read: a configuration above it naming a path outside the copy
    (a nested project's copy is of the package it is in) was not judged."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("MYPYPATH", raising=False)
    at, python = place(tmp_path)
    nested = Place(at.copy, at.base / "sub", at.base)
    site = python.parent.parent / "lib" / "python3.11" / "site-packages"
    info = site / "mypy-0.dist-info"
    info.mkdir()

    def key_of(version: str | None, texts: dict[str, bytes]) -> str | None:
        if version is None:
            (info / "METADATA").unlink(missing_ok=True)
        else:
            (info / "METADATA").write_text(f"Name: mypy\nVersion: {version}\n")
        return kept_key(b"state", ["-O", "json"], texts, nested, python, list)

    module = {"sub/m.py": b"x = 1\n"}
    above = {**module, "pyproject.toml": b'[tool.mypy]\nmypy_path = "../shared"\n'}
    assert key_of("2.4.1", above) is None  # read on the way up
    assert key_of("1.15.0", above) is None
    assert key_of("1.13.0", above) is not None  # where it runs alone: none there
    assert key_of(None, above) is None  # which mypy not known: either search
    own = {**above, "sub/mypy.ini": b"[mypy]\nstrict = True\n"}
    assert key_of("2.4.1", own) is not None  # its own found first
    other_tool = {**above, "sub/pyproject.toml": b'[project]\nname = "x"\n'}
    assert key_of("2.4.1", other_tool) is None  # no mypy section: passed over, on up
    user = tmp_path / "home" / ".mypy.ini"
    user.parent.mkdir()
    for naming in ("plugins = pydantic.mypy", "mypy_path = stubs", "files = app"):
        user.write_text(f"[mypy]\n{naming}\n")
        assert key_of("2.4.1", module) is None, naming  # the user's: read where none is
        assert key_of("2.4.1", own) is not None  # not read: the copy's first
    user.write_text("[mypy]\nstrict = True\n")
    assert key_of("2.4.1", module) is not None


# No configuration of its own: mypy reads the user's. One file turns the report of unused
# ignores on for itself and holds one: mypy runs once (`mypy_once`), its answer kept.
USER_CONFIGURED = {
    "app/__init__.py": "",
    "app/main.py": (
        "# mypy: warn-unused-ignores\n"
        "from stubbed import value\n\n"
        "count: int = value\n"
        "kept = 1  # type: ignore\n"
    ),
}


def test_the_user_s_configuration_naming_a_path_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy reads the user's configuration where the copy has none (up to its `.git` mark:
    mypy 2.4.1); its `mypy_path` names stubs outside the copy that the key cannot see. The
    answer was kept, and once the stubs changed the next process was given it again, the
    error they make missed."""
    env = mypy_env()  # under lspd's cache, before the user's directories move
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    (stubs / "stubbed.pyi").write_text("value: int\n")
    users = tmp_path / "xdg"
    (users / "mypy").mkdir(parents=True)
    (users / "mypy" / "config").write_text(f"[mypy]\nmypy_path = {stubs}\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(users))
    monkeypatch.delenv("MYPYPATH", raising=False)
    root = project(tmp_path / "p", USER_CONFIGURED, env)

    def checked() -> tuple[list[tuple[str, int, int, str | None, str]], int]:
        daemon = daemon_of(root, tmp_path)

        async def run() -> MypyOutput:
            try:
                return await daemon.check(["app"], held(root))
            finally:
                await daemon.stop()

        found = asyncio.run(run())
        assert found.once
        return shown(root, parse(found, root, daemon.mirror.directory)), daemon.runs

    first, runs = checked()
    assert runs == 1 and first == cli_errors(root, "app")
    assert [code for *_, code, _ in first] == ["unused-ignore"]
    (stubs / "stubbed.pyi").write_text("value: str\n")
    truth = cli_errors(root, "app")
    assert sorted(code for *_, code, _ in truth) == ["assignment", "unused-ignore"]
    again, runs = checked()  # another process: mypy asked (it was 0 runs, the old answer)
    assert (sorted(again), runs) == (sorted(truth), 1)


def test_a_kept_answer_not_trusted_is_not_read(tmp_path: Path) -> None:
    kept = Kept(tmp_path / "answers", tmp_path / "env" / "bin" / "python")
    assert kept.get("k") is None
    kept.put("k", (1, "out", "err"))
    kept.put(None, (0, "", ""))  # no key: nothing kept
    assert kept.get("k") == (1, "out", "err") and kept.get(None) is None
    kept.clear()
    for n in range(8):
        kept.put(f"k{n}", (0, str(n), ""))
        os.utime(tmp_path / "answers" / f"k{n}.json", ns=(n + 1, n + 1))  # in this order
    kept.put("k9", (0, "9", ""))
    assert kept.get("k0") is None  # the newest 8 kept
    assert kept.get("k1") == (0, "1", "") and kept.get("k9") == (0, "9", "")
    (tmp_path / "answers" / "k9.json").write_text('{"format": 1, "key": "k8", "status": 0}')
    assert kept.get("k9") is None  # another key's: not trusted
    (tmp_path / "answers" / "k8.json").write_text("{")
    assert kept.get("k8") is None
    assert not list(tmp_path.glob("answers/*.part"))
    kept.clear()
    assert kept.get("k1") is None


def runs_of(ws: Workspace) -> int:
    return sum(daemon.runs for daemon in ws.pool.mypy.values())


def truth(root: Path, tmp_path: Path, changes: dict[str, str]) -> Shown:
    """The project's own mypy's errors in the state `changes` make, written to a copy."""
    copy = tmp_path / f"truth-{len(list(tmp_path.glob('truth-*')))}"
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for name, text in changes.items():
        (copy / name).write_text(text)
    return {(file, line, code) for file, line, _, code, _ in cli_errors(copy, *TARGETS)}


def test_a_preview_after_a_check_runs_mypy_for_the_proposal_only(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES, mypy_113()))
    proposal = [{"path": "app/extra.py", "content": EXTRA}]

    def previewed() -> tuple[Shown, int]:
        async def ask(ws: Workspace) -> tuple[Any, int]:
            return await preview(ws, proposal), runs_of(ws)

        found, runs = answer(root, ask)
        return {(d.path, d.line, d.code) for d in found.changes.introduced}, runs

    def since_head() -> tuple[Shown, int]:
        async def ask(ws: Workspace) -> tuple[Any, int]:
            return await workspace_diagnostics(ws, baseline="HEAD"), runs_of(ws)

        found, runs = answer(root, ask)
        return {(d.path, d.line, d.code) for d in found.changes.introduced}, runs

    checked = answer(root, lambda ws: workspace_diagnostics(ws))
    assert checked.total == len(truth(root, tmp_path, {}))
    expected = truth(root, tmp_path, {"app/extra.py": EXTRA}) - truth(root, tmp_path, {})
    assert expected == {("app/extra.py", 5, "arg-type")}
    assert previewed() == (expected, 1)  # the disk's state: the check's answer
    assert previewed() == (expected, 0)  # both states asked before
    utils = root / "app" / "utils.py"
    edit = utils.read_text() + 'wrong: int = ""\n'
    written = truth(root, tmp_path, {"app/utils.py": edit}) - truth(root, tmp_path, {})
    assert written == {("app/utils.py", 3, "assignment")}
    utils.write_text(edit)  # the disk changed since: its state asked of mypy again
    assert since_head() == (written, 1)  # HEAD's texts: the check's state, asked before
    after_edit = truth(root, tmp_path, {"app/utils.py": edit, "app/extra.py": EXTRA})
    assert previewed() == (after_edit - truth(root, tmp_path, {"app/utils.py": edit}), 1)
    (root / "app" / "extra.py").write_text(EXTRA)  # the proposal written: the state it asked

    async def check(ws: Workspace) -> tuple[Any, int]:
        return await workspace_diagnostics(ws), runs_of(ws)

    written_check, runs = answer(root, check)
    assert runs == 0
    assert {(d.path, d.line, d.code) for d in written_check.diagnostics} == after_edit
