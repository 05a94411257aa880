"""The cache of mypy run once (`mypy_once.Caches`): a preview's first question costs the
modules its edit reaches, not a load of every other one from JSON.

On mypy 1.19.1 (a real one, its own environment): lspd's run writes mypy's fixed-format
cache, which mypy reads a fresh module's tree from several times faster than the JSON one
(svcs, 673 modules: 0.34 s against 2.6 s of a leaf edit's run); a leaf edit's run on a copy
of the disk state's cache re-checks the leaf alone (every other module's cache file stays
the disk state's, shared); each answer is mypy's own, run cold. A slot taken for another
state is made to hold the nearest one's cache by what differs (`synced`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.workspace import mypy_once
from lspd.workspace.mypy_once import Caches, cache_flags, synced
from tests.workspace.mypy_env import cli_errors, environment, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_mypy_once import IGNORING

OTHER_EDITED = "count: int = 2  # type: ignore\n\nmore: int = 'x'\n"


def mypy_119() -> Path:
    return environment("mypy-1.19.1", "mypy==1.19.1")


def files_of(slot: Path) -> dict[str, int]:
    """The cache's module files (mypy's own `@` entries, rewritten by every run, aside) by
    path relative to the slot, each one's inode."""
    return {
        p.relative_to(slot).as_posix(): p.stat().st_ino
        for p in slot.rglob("*")
        if p.is_file() and p.name.endswith((".json", ".ff")) and not p.name.startswith("@")
    }


def test_a_leaf_edit_re_checks_the_leaf_alone_on_the_fixed_format_cache(tmp_path: Path) -> None:
    root = project(tmp_path / "p", IGNORING, mypy_119())
    daemon = daemon_of(root, tmp_path)
    other = root / "app" / "other.py"

    async def run() -> tuple[list[object], list[object], Path, Path]:
        try:
            disk = await daemon.check([], held(root))
            edited = await daemon.check([], held(root, {other: OTHER_EDITED}))
            assert disk.once and edited.once  # mypy's own run, not dmypy's
            assert daemon.version == (1, 19, 1)
            slots = sorted((daemon.state / "cache").iterdir())
            assert [p.name for p in slots] == ["0", "1"]
            copy = daemon.mirror.directory
            answers = [shown(root, parse(out, root, copy)) for out in (disk, edited)]
            return answers[0], answers[1], slots[0], slots[1]
        finally:
            await daemon.forks.end()

    disk, edited, first, second = asyncio.run(run())
    assert disk == cli_errors(root)
    other.write_text(OTHER_EDITED)
    assert sorted(edited) == sorted(cli_errors(root))
    assert ("app/other.py", 3, 13, "assignment") in [e[:4] for e in edited]
    # mypy's fixed-format cache, not JSON: no module of the project has a JSON file.
    before, after = files_of(first), files_of(second)
    assert any(p.endswith("/app/shapes.meta.ff") for p in before)
    assert not [p for p in before if p.endswith(".json")]
    # The edit's run re-checked app.other alone: every other module's files are still the
    # disk state's (the same file, linked); builtins and the rest came from the cache.
    rewritten = sorted(p.split("/", 1)[1] for p in after if after[p] != before.get(p))
    assert rewritten == ["app/other.data.ff", "app/other.meta.ff"]
    assert any(p.endswith("/builtins.data.ff") for p in after)


@pytest.mark.parametrize(
    ("version", "flags"),
    [
        ((1, 13, 0), []),
        ((1, 18, 2), []),  # experimental there
        ((1, 19, 1), ["--fixed-format-cache"]),
        ((2, 4, 1), []),  # 2.x writes it by default
        (None, []),
    ],
)
def test_the_fixed_format_cache_is_asked_of_mypy_1_19_on(
    version: tuple[int, ...] | None, flags: list[str]
) -> None:
    assert cache_flags(version) == flags


def test_a_slot_is_made_the_nearest_cache_by_what_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slot that held another state ends holding exactly the nearest's files: those mypy
    replaces whole linked (the ones it already shares left as they are), the others copied,
    what the nearest lacks removed."""
    caches = Caches(tmp_path / "cache")
    disk = {f"m{n}.py": b"1" for n in range(20)}
    first = caches.take(disk)
    (first / "3.11" / "pkg").mkdir(parents=True)
    for n in range(20):
        (first / "3.11" / "pkg" / f"m{n}.meta.ff").write_text(f"disk {n}")
    (first / "3.11" / "missing_stubs").write_text("disk")
    second = caches.take({**disk, "m0.py": b"2"})
    # the second state's run: m0 replaced whole, a module of its own added, stubs rewritten
    partial = second / "3.11" / "pkg" / "new.tmp"
    partial.write_text("preview 0")
    os.replace(partial, second / "3.11" / "pkg" / "m0.meta.ff")
    (second / "3.11" / "pkg" / "extra.meta.ff").write_text("preview only")
    (second / "3.11" / "missing_stubs").write_text("preview")
    third = caches.take({**disk, "m1.py": b"2"})  # nearest: the disk's
    assert third not in (first, second)
    partial = third / "3.11" / "pkg" / "new.tmp"
    partial.write_text("third 0")
    os.replace(partial, third / "3.11" / "pkg" / "m0.meta.ff")  # its run's
    partial = first / "3.11" / "pkg" / "new.tmp"
    partial.write_text("disk 5 again")
    os.replace(partial, first / "3.11" / "pkg" / "m5.meta.ff")  # the disk's state moved on

    links: list[str] = []
    real_link = os.link

    def counted(source: object, target: object) -> None:
        links.append(Path(str(target)).name)
        real_link(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(mypy_once.os, "link", counted)
    caches.take(disk)  # the disk's own: taken as it is
    assert links == []
    synced(first, second)
    held_now = {p.relative_to(second).as_posix(): p for p in second.rglob("*") if p.is_file()}
    wanted = {p.relative_to(first).as_posix(): p for p in first.rglob("*") if p.is_file()}
    assert sorted(held_now) == sorted(wanted)  # extra.meta.ff gone
    for name, path in wanted.items():
        assert held_now[name].read_bytes() == path.read_bytes()
        if name.endswith(".ff"):
            assert os.path.samefile(held_now[name], path)
    assert sorted(links) == ["m0.meta.ff", "m5.meta.ff"]  # what differed, nothing else
    assert not os.path.samefile(held_now["3.11/missing_stubs"], wanted["3.11/missing_stubs"])
    links.clear()
    synced(first, third)
    assert sorted(links) == ["m0.meta.ff", "m5.meta.ff"]
    assert (third / "3.11" / "pkg" / "m0.meta.ff").read_text() == "disk 0"
    synced(tmp_path / "none", third)  # the nearest had no cache: neither has this one
    assert not third.exists()
