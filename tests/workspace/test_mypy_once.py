"""A project whose mypy reports unused `# type: ignore` comments and whose files hold one is
answered by its own `mypy`, run once with lspd's cache, not by dmypy: after an edit dmypy
loses the unused ignores of the modules it did not update last (mypy issue 9655). On a real
mypy: lspd's answer is one-shot `mypy`'s, cold and after an edit that makes one ignore
unused and another used, with an unused one in a file the edit does not touch; the user's
own dmypy, asked the same, is not (why this mode exists)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.ops.check import workspace_diagnostics
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_once import Caches, needs_once
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown

AREA = "def area(width: int, height: int) -> int:\n    return width * height\n"
# `height` becomes a str: main's `area(2, "3")` is fine (its ignore unused), used's
# `area(1, 2)` is broken (its ignore used).
AREA_EDITED = "def area(width: int, height: str) -> int:\n    return width * len(height)\n"
# The same size as AREA_EDITED, asked right after it (within the second of its run: mypy's
# cache compares size and whole seconds of mtime): returns a str, which no caller does.
AREA_SAME_SIZE = AREA_EDITED.replace("-> int", "-> str")
IGNORING = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/shapes.py": AREA,
    "app/main.py": (
        "from app.shapes import area\n\n\ndef run() -> int:\n"
        '    return area(2, "3")  # type: ignore[arg-type]\n'
    ),
    "app/used.py": (
        "from app.shapes import area\n\n\ndef h() -> int:\n"
        "    return area(1, 2)  # type: ignore[arg-type]\n"
    ),
    "app/other.py": "count: int = 1  # type: ignore\n",  # unused, and never edited
}


def own_dmypy(root: Path, status: Path) -> list[tuple[str, int, int, str | None, str]]:
    """The user's own `dmypy run` of the project, as cli_errors shows mypy's."""
    dmypy = [str(root / ".venv" / "bin" / "dmypy"), "--status-file", str(status)]
    done = subprocess.run(
        [*dmypy, "run", "--", "-O", "json"], cwd=root, capture_output=True, text=True, timeout=600
    )
    assert done.returncode in (0, 1), done.stderr + done.stdout
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [
        (str(e["file"]), e["line"], max(e["column"] + 1, 1), e["code"], e["message"])
        for e in found
        if e["severity"] == "error"
    ]


def test_an_edit_gets_one_shot_mypys_unused_ignores_where_dmypy_loses_them(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p", IGNORING)
    daemon = daemon_of(root, tmp_path)
    shapes = root / "app" / "shapes.py"
    # Every question asked within one wall-clock second, as quick runs are (mypy's cache
    # keeps whole seconds of mtime): the same-size edit must still be seen.
    second = time.time_ns() // 1_000_000_000 * 1_000_000_000
    daemon.mirror.clock = lambda: second

    async def run() -> list[list[tuple[str, int, int, str | None, str]]]:
        answers = []
        try:
            for text in (AREA, AREA_EDITED, AREA_SAME_SIZE):
                shapes.write_text(text)
                output = await daemon.check([], held(root))
                answers.append(shown(root, parse(output, root, daemon.mirror.directory)))
                assert output.once and daemon.once and not daemon.running  # mypy's, no dmypy
                assert daemon.pid == daemon.forks.pid is not None  # forked from its holder
            assert sorted(p.name for p in (daemon.state / "cache").iterdir()) == ["0", "1", "2"]
        finally:
            await daemon.stop()
        # Its copy and its holder go with it, and of its caches the one used last stays, as
        # the slot taken first (`Caches.keep`).
        assert not daemon.mirror.directory.exists() and daemon.pid is None
        assert sorted(p.name for p in (daemon.state / "cache").iterdir()) == ["0"]
        return answers

    cold, edited, same_size = asyncio.run(run())
    assert len(AREA_SAME_SIZE) == len(AREA_EDITED)
    shapes.write_text(AREA_SAME_SIZE)
    assert sorted(same_size) == sorted(cli_errors(root))  # in the order mypy checked them
    assert sorted((e[0], e[1]) for e in same_size if e[3] == "return-value") == [
        ("app/main.py", 5),
        ("app/shapes.py", 2),
        ("app/used.py", 5),
    ]
    shapes.write_text(AREA)
    assert cold == cli_errors(root)
    assert sorted((e[0], e[1]) for e in cold if e[3] == "unused-ignore") == [
        ("app/other.py", 1),
        ("app/used.py", 5),
    ]
    shapes.write_text(AREA_EDITED)
    assert edited == cli_errors(root)
    assert sorted((e[0], e[1]) for e in edited if e[3] == "unused-ignore") == [
        ("app/main.py", 5),
        ("app/other.py", 1),
    ]

    # The user's own dmypy, cold then after the same edit: the edit's answer lacks the
    # unused ignores of the modules it did not update last (shapes.py, the edited one, has
    # none): main's, which the edit made, and other's, which it did not touch.
    status = tmp_path / "own.json"
    shapes.write_text(AREA)
    try:
        assert own_dmypy(root, status) == cold
        shapes.write_text(AREA_EDITED)
        os.utime(shapes)
        own = own_dmypy(root, status)
        assert set(own) <= set(edited)
        assert set(edited) - set(own) == {
            ("app/main.py", 5, 1, "unused-ignore", 'Unused "type: ignore" comment'),
            ("app/other.py", 1, 1, "unused-ignore", 'Unused "type: ignore" comment'),
        }
    finally:
        subprocess.run(
            [str(root / ".venv" / "bin" / "dmypy"), "--status-file", str(status), "kill"],
            cwd=root,
            capture_output=True,
            timeout=60,
        )


def test_the_user_s_configuration_reporting_unused_ignores_runs_mypy_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy reads the user's configuration where the copy has none (mypy 2.4.1: up to the
    copy's `.git` mark, then `$XDG_CONFIG_HOME/mypy/config`); its `strict` reports unused
    ignores, so dmypy's answer after an edit is not mypy's (only the project's own
    configuration was read: dmypy answered, main's and other's unused ignores lost)."""
    env = mypy_env()  # under lspd's cache, before the user's directories move
    users = tmp_path / "xdg"
    (users / "mypy").mkdir(parents=True)
    (users / "mypy" / "config").write_text("[mypy]\nstrict = True\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(users))
    files = {**IGNORING, "pyproject.toml": "[tool.black]\nline-length = 99\n"}  # not mypy's
    root = project(tmp_path / "p", files, env)
    daemon = daemon_of(root, tmp_path)
    shapes = root / "app" / "shapes.py"

    async def run() -> list[tuple[bool, list[tuple[str, int, int, str | None, str]]]]:
        answers = []
        try:
            for text in (AREA, AREA_EDITED):
                shapes.write_text(text)
                output = await daemon.check(["app"], held(root))
                answers.append(
                    (output.once, shown(root, parse(output, root, daemon.mirror.directory)))
                )
        finally:
            await daemon.stop()
        return answers

    (cold_once, cold), (edited_once, edited) = asyncio.run(run())
    assert (cold_once, edited_once) == (True, True)
    assert sorted(edited) == sorted(cli_errors(root, "app"))
    assert sorted((e[0], e[1]) for e in edited if e[3] == "unused-ignore") == [
        ("app/main.py", 5),
        ("app/other.py", 1),
    ]
    shapes.write_text(AREA)
    assert sorted(cold) == sorted(cli_errors(root, "app"))


def test_dmypy_answers_where_it_has_nothing_to_lose() -> None:
    strict = b"[tool.mypy]\nstrict = true\n"
    ignoring = {"pyproject.toml": strict, "a.py": b"x = 1  # type: ignore[misc]\n"}
    assert needs_once(ignoring)
    assert not needs_once({**ignoring, "a.py": b"x = 1\n"})  # no ignore comment
    assert not needs_once({**ignoring, "pyproject.toml": b"[tool.mypy]\nstrict = false\n"})
    per_module = b"[mypy]\n[mypy-app.*]\nwarn_unused_ignores = True\n"
    assert needs_once({"mypy.ini": per_module, "a.py": ignoring["a.py"]})
    codes = b'[tool.mypy]\nenable_error_code = ["unused-ignore"]\n'
    assert needs_once({**ignoring, "pyproject.toml": codes})
    assert not needs_once({"pyproject.toml": strict, "notes.txt": b"# type: ignore"})
    # Only mypy's own sections, as mypy reads them: another tool's `strict` is not mypy's.
    pytest_strict = b"[tool.mypy]\nfiles = ['a.py']\n[tool.pytest.ini_options]\nstrict = true\n"
    assert not needs_once({**ignoring, "pyproject.toml": pytest_strict})
    disabled = b'[tool.mypy]\nstrict = true\ndisable_error_code = ["unused-ignore"]\n'
    assert not needs_once({**ignoring, "pyproject.toml": disabled})
    override = b'[tool.mypy]\n[[tool.mypy.overrides]]\nmodule = "a"\nwarn_unused_ignores = true\n'
    assert needs_once({**ignoring, "pyproject.toml": override})
    dashed = b"[mypy]\nwarn-unused-ignores = yes\n"
    assert needs_once({"setup.cfg": dashed, "a.py": ignoring["a.py"]})
    assert not needs_once({"setup.cfg": b"[flake8]\nstrict = true\n", "a.py": ignoring["a.py"]})
    # mypy.ini comes first: pyproject's [tool.mypy] is not read beside it.
    assert not needs_once({**ignoring, "mypy.ini": b"[mypy]\nstrict = False\n"})
    # A file turning the report on itself, holding an ignore: whatever the configuration.
    plain = b"[tool.mypy]\nfiles = ['a.py']\n"
    inline = b"# mypy: warn-unused-ignores\nx = 1  # type: ignore[misc]\n"
    assert needs_once({"pyproject.toml": plain, "a.py": inline})
    enabled = b'# mypy: enable-error-code="unused-ignore"\nx = 1  # type: ignore\n'
    assert needs_once({"pyproject.toml": plain, "a.py": enabled})
    assert not needs_once({"pyproject.toml": plain, "a.py": inline.replace(b"warn", b"no-warn")})
    apart = {
        "pyproject.toml": plain,
        "a.py": b"# mypy: warn-unused-ignores\n",
        "b.py": ignoring["a.py"],
    }
    assert not needs_once(apart)  # the comment is for its own file, which holds no ignore


def test_a_configuration_dmypy_refuses_runs_mypy_once() -> None:
    """pdm's `follow_imports = "silent"`: dmypy exits "dmypy: follow-imports=silent not
    supported", and lspd said "mypy failed" for the whole project."""
    plain = {"a.py": b"x = 1\n"}
    assert needs_once({**plain, "pyproject.toml": b'[tool.mypy]\nfollow_imports = "silent"\n'})
    assert needs_once({**plain, "setup.cfg": b"[mypy]\nlocal-partial-types = False\n"})
    assert not needs_once({**plain, "mypy.ini": b"[mypy]\nfollow_imports = skip\n"})
    section = b"[mypy]\n[mypy-a]\nfollow_imports = silent\n"  # dmypy reads the global one
    assert not needs_once({**plain, "mypy.ini": section})
    # a script's option overrides the configuration's (`mypy --no-local-partial-types app`)
    off = {**plain, "mypy.ini": b"[mypy]\nlocal_partial_types = false\n"}
    assert needs_once(plain, arguments=("--no-local-partial-types", "app"))
    assert not needs_once(off, arguments=("--strict", "--local-partial-types"))
    assert needs_once(off, arguments=("--local-partial-types", "--no-local-partial-types"))
    silent = {**plain, "mypy.ini": b"[mypy]\nfollow_imports = silent\n"}
    assert needs_once(silent, arguments=("--local-partial-types",))  # refused all the same


def test_a_script_disabling_local_partial_types_is_answered_by_mypy(tmp_path: Path) -> None:
    """dmypy exits "disabling local-partial-types not supported"; the script's own `mypy`
    completes `x`'s partial type from `f` (no "Need type annotation") and reports the other."""
    files = {
        "pyproject.toml": "[tool.mypy]\n",
        "scripts/lint.sh": "mypy --no-local-partial-types app\n",
        "app/__init__.py": "",
        "app/main.py": 'x = []\n\n\ndef f() -> None:\n    x.append(1)\n\n\nn: int = ""\n',
    }
    root = project(tmp_path / "p", files)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *_LINT))
    assert truth == [("app/main.py", 8, "assignment")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth
    assert cli_errors(root, "app") != cli_errors(root, *_LINT)  # the option matters here


_LINT = ("--no-local-partial-types", "app")


def test_a_project_following_imports_silently_is_answered_by_mypy(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["app/main.py"]\nfollow_imports = "silent"\n',
        "app/__init__.py": "",
        "app/main.py": 'from app.helper import half\n\ncount: int = half(3)\nname: int = "x"\n',
        "app/helper.py": 'def half(n: int) -> float:\n    return n / 2\n\nbad: int = "y"\n',
    }
    root = project(tmp_path / "p", files)
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root))
    assert truth == [("app/main.py", 3, "assignment"), ("app/main.py", 4, "assignment")]
    checked = answer(root, workspace_diagnostics)
    assert sorted((d.path, d.line, d.code) for d in checked.diagnostics) == truth


def test_each_state_runs_on_the_cache_nearest_it_and_keeps_its_own(tmp_path: Path) -> None:
    caches = Caches(tmp_path / "cache")
    disk = {"a.py": b"1", "b.py": b"2", "c.py": b"3"}
    first = caches.take(disk)
    first.mkdir(parents=True)
    (first / "cache.db").write_text("the disk's")
    previewed = caches.take({**disk, "a.py": b"edited"})
    assert previewed != first and (previewed / "cache.db").read_text() == "the disk's"
    (previewed / "cache.db").write_text("the preview's")
    assert caches.take(disk) == first  # the same texts: its own cache, as it was
    revision = caches.take({**disk, "a.py": b"edited", "b.py": b"old"})  # nearest: the preview
    assert (revision / "cache.db").read_text() == "the preview's"
    assert len({first, previewed, revision}) == 3
    fourth = caches.take({**disk, "c.py": b"new"})  # nearest: the disk; the least recent goes
    assert fourth == previewed and (fourth / "cache.db").read_text() == "the disk's"
    caches.forget()
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [fourth.name]
    # A stop keeps the cache used last as the slot the next process takes first.
    assert fourth.name != "0"
    caches.keep()
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["0"]
    assert (tmp_path / "cache" / "0" / "cache.db").read_text() == "the disk's"
    assert Caches(tmp_path / "cache").take(disk) == tmp_path / "cache" / "0"


def cached(cache: Path) -> dict[str, float]:
    """What mypy's cache holds (its sqlite shards): each module's entries and their write
    times (its `@` entries, rewritten by every run, aside)."""
    rows: dict[str, float] = {}
    for shard in cache.rglob("cache.*.db"):
        with contextlib.closing(sqlite3.connect(shard)) as db:
            found = db.execute("SELECT path, mtime FROM files2 WHERE path NOT LIKE '@%'")
            rows.update(found.fetchall())
    return rows


def test_a_configuration_turning_incremental_off_still_runs_on_the_cache(tmp_path: Path) -> None:
    """`incremental = false` would make every question a cold mypy: `--incremental` wins."""
    config = IGNORING["pyproject.toml"] + "incremental = false\n"
    root = project(tmp_path / "p", {**IGNORING, "pyproject.toml": config})
    daemon = daemon_of(root, tmp_path)

    async def run() -> tuple[dict[str, float], dict[str, float]]:
        try:
            await daemon.check([], held(root))
            first = cached(daemon.state / "cache" / "0")
            daemon.forget()  # the same texts asked of mypy again, not answered from memory
            await daemon.check([], held(root))
            return first, cached(daemon.state / "cache" / "0")
        finally:
            await daemon.stop()

    first, again = asyncio.run(run())
    assert any(path.startswith("builtins.") for path in first)
    assert again == first  # nothing re-checked, nothing written again


def test_the_cache_kept_at_a_stop_serves_the_next_process_exactly(tmp_path: Path) -> None:
    """The next lspd process (a one-shot CLI check) starts on the cache the last stop kept,
    and a same-size edit asked in the same wall-clock second is still seen: the copy's
    stamp file outlives the copy, so its writes still land in a later second."""
    root = project(tmp_path / "p", {**IGNORING, "app/shapes.py": AREA_EDITED})
    second = time.time_ns() // 1_000_000_000 * 1_000_000_000
    shapes = root / "app" / "shapes.py"

    async def ask(daemon: Dmypy) -> list[tuple[str, int, int, str | None, str]]:
        daemon.mirror.clock = lambda: second
        try:
            output = await daemon.check([], held(root))
            return shown(root, parse(output, root, daemon.mirror.directory))
        finally:
            await daemon.stop()

    daemon = daemon_of(root, tmp_path)
    first = asyncio.run(ask(daemon))
    assert first == cli_errors(root)
    kept = cached(daemon.state / "cache" / "0")
    shapes.write_text(AREA_SAME_SIZE)
    again = asyncio.run(ask(daemon_of(root, tmp_path)))  # another process's daemon
    assert sorted(again) == sorted(cli_errors(root)) and again != first
    after = cached(daemon.state / "cache" / "0")
    typeshed = [path for path in kept if path.startswith("builtins.")]
    assert typeshed and all(after[path] == kept[path] for path in typeshed)  # not re-checked


def test_a_cache_file_mypy_replaces_whole_is_shared_by_a_link(tmp_path: Path) -> None:
    """mypy 1.x's `.json` cache files are written beside and renamed over (its metadata
    store): another state's copy links them, and a run on the copy leaves the first as it
    was; sqlite shards, written in place, are copied."""
    caches = Caches(tmp_path / "cache")
    first = caches.take({"a.py": b"1"})
    (first / "3.11" / "app").mkdir(parents=True)
    (first / "3.11" / "app" / "a.meta.json").write_text("the disk's")
    (first / "3.11" / "cache.db").write_text("the disk's")
    other = caches.take({"a.py": b"2"})
    meta, shard = other / "3.11" / "app" / "a.meta.json", other / "3.11" / "cache.db"
    assert meta.stat().st_ino == (first / "3.11" / "app" / "a.meta.json").stat().st_ino
    assert shard.stat().st_ino != (first / "3.11" / "cache.db").stat().st_ino
    (other / "new.json").write_text("the preview's")
    os.replace(other / "new.json", meta)  # as mypy writes it
    assert (first / "3.11" / "app" / "a.meta.json").read_text() == "the disk's"


def test_a_syntax_error_is_answered_and_its_cache_kept(tmp_path: Path) -> None:
    """mypy stops at a syntax error (exit 2, its error said): an answer, and its cache, which
    holds every other module as before, stays for the check after the fix."""
    root = project(tmp_path / "p", IGNORING)
    daemon = daemon_of(root, tmp_path)
    shapes = root / "app" / "shapes.py"

    async def run() -> tuple[list[tuple[str, int, int, str | None, str]], list[str]]:
        try:
            await daemon.check([], held(root))
            shapes.write_text(AREA + "\n\ndef broken(:\n    pass\n")
            output = await daemon.check([], held(root))
            assert output.status == 2 and output.once
            slots = sorted(p.name for p in (daemon.state / "cache").iterdir())
            return shown(root, parse(output, root, daemon.mirror.directory)), slots
        finally:
            await daemon.stop()

    errors, slots = asyncio.run(run())
    assert {(e[0], e[1], e[3]) for e in errors} == {("app/shapes.py", 5, "syntax")}
    assert slots == ["0", "1"]  # the blocked state's cache kept, not dropped
