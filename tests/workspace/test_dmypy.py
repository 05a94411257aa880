"""The project's own mypy through a dmypy of lspd's own, on a real mypy in a real virtual
environment: mypy's errors exactly, notes attached; unsaved text without a file written
into the project; a user's dmypy never touched; a daemon killed mid-check started again;
no mypy, and a crashing plugin, said in one line."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import MypyError, parse
from lspd.workspace.dmypy import Dmypy, MypyMissing
from lspd.workspace.mypy_said import MypyFailed, MypyOutput
from tests.workspace.mypy_env import STRICT, cli_errors, environment, project


def daemon_of(root: Path, tmp_path: Path) -> Dmypy:
    return Dmypy(root, root / ".venv" / "bin" / "python", tmp_path / "state")


def held(root: Path, texts: dict[Path, str] | None = None) -> dict[str, bytes]:
    """Every file of the project (its venv aside), `texts` in place of some."""
    found = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".venv" not in p.parts
    }
    found.update((p.relative_to(root).as_posix(), t.encode()) for p, t in (texts or {}).items())
    return found


def errors_of(root: Path, daemon: Dmypy, texts: dict[Path, str] | None = None) -> list[MypyError]:
    async def run() -> list[MypyError]:
        try:
            return parse(await daemon.check([], held(root, texts)), root, daemon.mirror.directory)
        finally:
            await daemon.stop()

    return asyncio.run(run())


def shown(root: Path, errors: list[MypyError]) -> list[tuple[str, int, int, str | None, str]]:
    return [(str(e.path.relative_to(root)), e.line, e.column, e.code, e.message) for e in errors]


def test_the_daemon_answers_mypys_errors_exactly_with_notes_attached(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)
    errors = errors_of(root, daemon)
    assert sorted(shown(root, errors)) == sorted(cli_errors(root))
    assert len(errors) == 3  # an untyped def, a str for an int, a missing module
    missing = next(e for e in errors if e.code == "import-not-found")
    assert missing.notes == (
        'Did you mean "attrs"?',
        "See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports",
    )
    assert daemon.status_file.is_relative_to(tmp_path / "state")
    assert not (root / ".dmypy.json").exists() and not daemon.running
    # mypy before `-O json` (1.11): its text with columns and ends, parsed the same.
    daemon.version = (1, 10, 0)
    assert errors_of(root, daemon) == errors


def test_unsaved_text_is_checked_and_nothing_is_written_into_the_project(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    main = root / "app" / "main.py"
    text = main.read_text().replace('count: int = "three"', "count: int = 3")
    errors = errors_of(root, daemon_of(root, tmp_path), {main: text})
    assert [e.code for e in errors] == ["no-untyped-def", "import-not-found"]
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_a_same_size_edit_is_seen_and_the_same_texts_are_answered_at_once(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p", STRICT)
    main = root / "app" / "main.py"
    same_size = main.read_text().replace("count: int", "count: str")  # no error: same size
    daemon = daemon_of(root, tmp_path)

    async def run() -> list[list[str]]:
        codes = []
        try:
            for texts in (None, {main: same_size}, {main: same_size}, None):
                found = await daemon.check([], held(root, texts))
                codes.append(sorted(str(e.code) for e in parse(found, root)))
            return codes
        finally:
            await daemon.stop()

    with_error = ["assignment", "import-not-found", "no-untyped-def"]
    without = ["import-not-found", "no-untyped-def"]
    assert asyncio.run(run()) == [with_error, without, without, with_error]


def test_a_users_dmypy_is_never_taken_over_or_stopped(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    dmypy = str(root / ".venv" / "bin" / "dmypy")
    subprocess.run([dmypy, "start"], cwd=root, check=True, timeout=120, capture_output=True)
    try:
        users = (root / ".dmypy.json").read_text()
        daemon = daemon_of(root, tmp_path)
        assert len(errors_of(root, daemon)) == 3
        assert (root / ".dmypy.json").read_text() == users  # the user's, as it was
        status = subprocess.run([dmypy, "status"], cwd=root, timeout=60, capture_output=True)
        assert status.returncode == 0, status.stdout  # still running
    finally:
        subprocess.run([dmypy, "stop"], cwd=root, timeout=60, capture_output=True)


def test_a_daemon_killed_mid_check_is_started_again_and_the_check_completes(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)

    async def run() -> tuple[list[MypyError], int | None, int | None]:
        checking = asyncio.create_task(daemon.check([], held(root)))
        while daemon.pid is None and not checking.done():  # its cold check has begun
            await asyncio.sleep(0.01)
        if checking.done():  # the check ended (or failed) before the daemon was seen
            raise AssertionError(f"no daemon seen mid-check: {checking.result()!r}")
        killed = daemon.pid
        os.kill(killed, signal.SIGKILL)
        try:
            return parse(await checking, root), killed, daemon.pid
        finally:
            await daemon.stop()

    errors, killed, now = asyncio.run(run())
    assert sorted(shown(root, errors)) == sorted(cli_errors(root))
    assert now is not None and now != killed


def test_no_mypy_in_the_environment_says_how_to_install_it(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT, environment("no-mypy"))
    python = root / ".venv" / "bin" / "python"
    with pytest.raises(MypyMissing) as raised:
        errors_of(root, daemon_of(root, tmp_path))
    assert str(raised.value) == (
        f"mypy judges the project, but {python} has no mypy: install it there "
        f'({python} -m pip install mypy), or choose another checker with python_checker = "'
        'basedpyright" in lspd.toml'
    )


def test_a_crashing_plugin_is_one_line_and_its_traceback_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    files = {
        "mypy.ini": "[mypy]\nplugins = crash.py\nfiles = app\n",
        "crash.py": "def plugin(version: str) -> None:\n    raise RuntimeError('it broke')\n",
        "app/__init__.py": "",
    }
    root = project(tmp_path / "p", files)
    with caplog.at_level(logging.ERROR), pytest.raises(MypyFailed) as raised:
        errors_of(root, daemon_of(root, tmp_path))
    assert "\n" not in str(raised.value)
    assert str(raised.value).startswith(f"mypy failed in {root}: ")
    assert "RuntimeError: it broke" in str(raised.value)
    assert "Traceback (most recent call last)" in caplog.text


def test_a_changed_environment_restarts_the_daemon(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)
    (site,) = (root / ".venv").glob("lib/python*/site-packages")
    was = site.stat()

    async def run() -> tuple[int | None, int | None]:
        try:
            await daemon.check([], held(root))
            first = daemon.pid
            os.utime(site, ns=(was.st_atime_ns, was.st_mtime_ns + 1_000_000_000))  # installed
            await daemon.check([], held(root, {root / "app/main.py": "x: int = 1\n"}))
            return first, daemon.pid
        finally:
            os.utime(site, ns=(was.st_atime_ns, was.st_mtime_ns))
            await daemon.stop()

    first, then = asyncio.run(run())
    assert first is not None and then is not None and then != first


def test_an_upgraded_package_or_an_outside_change_is_asked_again(tmp_path: Path) -> None:
    root = project(tmp_path / "p", STRICT)
    daemon = daemon_of(root, tmp_path)
    (info,) = (root / ".venv").glob("lib/python*/site-packages/mypy-*.dist-info")
    was = info.stat()

    async def run() -> list[MypyOutput]:
        try:
            found = [await daemon.check([], held(root)), await daemon.check([], held(root))]
            os.utime(info, ns=(was.st_atime_ns, was.st_mtime_ns + 1_000_000_000))  # upgraded
            found.append(await daemon.check([], held(root)))
            found.append(await daemon.check([], held(root), outside=7))  # a sibling edited
            found.append(await daemon.check([], held(root), outside=7))
            return found
        finally:
            os.utime(info, ns=(was.st_atime_ns, was.st_mtime_ns))
            await daemon.stop()

    first, again, upgraded, sibling, same = asyncio.run(run())
    assert again is first  # the same texts: answered at once
    assert upgraded is not again and sibling is not upgraded and same is sibling
    assert first == upgraded == sibling  # asked again: the same errors here
