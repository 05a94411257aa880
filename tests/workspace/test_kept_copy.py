"""A held Python state's copy and its server stay warm in a daemon between questions
(`workspace/kept_copy.py`): the next question brings the copy to its state and tells the
same server what changed, and its answers are still the checker's own (real basedpyright,
its CLI the judge on a tree holding each state)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.dirs import state_dir
from lspd.ops import check as check_ops
from lspd.workspace.kept_copy import Kept, Wanted, brought
from tests.conftest import Warm
from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import FILES, MISSING, cli, preview, rows

GONE = {k: v for k, v in FILES.items() if k != "pkg/helper.py"}
EXTRA = "def twice(x: int) -> int:\n    return 2 * x\n"
USER = "from pkg.extra import twice\n\nfrom pkg.helper import helper\n\nz: int = twice('s')\n"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    yield from watched(written(tmp_path / "py", FILES), tmp_path / "logs")


def pids(warm: Warm) -> list[int | None]:
    return [helper.pid for helper in warm.ws.kept_copy.helpers.values()]


def test_one_server_answers_question_after_question_as_the_checker(
    project: Warm, tmp_path: Path
) -> None:
    """A deletion, a new module, the deletion again after the disk changed, then a
    configuration changed on disk: each preview is the CLI's on a tree holding that state;
    the copy's server is the same process until the configuration changes (then started
    again, as it reads it at its start alone)."""
    root, ws = project.root, project.ws
    assert project.run(check_ops.check_all(ws)).everything == []
    changes = preview(project, {"pkg/helper.py": None})
    assert rows(changes.introduced) == cli(written(tmp_path / "a", GONE))
    assert len(changes.introduced) > 0
    [first] = pids(project)
    assert first is not None

    # A new module: the copy holds helper.py again and extra.py; the same server says so.
    change = {"pkg/extra.py": EXTRA, "pkg/user.py": USER}
    changes = preview(project, change)
    assert rows(changes.introduced) == cli(written(tmp_path / "b", {**FILES, **change}))
    assert [(d.path, d.line, d.code) for d in changes.introduced if d.severity == "error"] == [
        ("pkg/user.py", 5, "reportArgumentType")
    ]
    assert pids(project) == [first]

    # The disk changes (helper returns str): the copy reads it again; the deletion's
    # preview is of the disk as it is now (its importers' errors of a missing module).
    helper = "def helper() -> str:\n    return 's'\n"
    (root / "pkg/helper.py").write_text(helper)
    disk = {**FILES, "pkg/helper.py": helper}
    project.run(check_ops.check_all(ws))
    changes = preview(project, {"pkg/user.py": "from pkg.helper import helper\n\nx = helper()\n"})
    assert changes.introduced == [] and len(changes.fixed) == 1  # no mirror: nothing deleted
    changes = preview(project, {"pkg/helper.py": None})
    gone = written(tmp_path / "c", {k: v for k, v in disk.items() if k != "pkg/helper.py"})
    assert rows(changes.introduced) == cli(gone)
    assert pids(project) == [first]

    # A configuration on disk turns strict on: a server reads it at its start alone.
    config = '{"typeCheckingMode": "strict"}\n'
    (root / "pyrightconfig.json").write_text(config)
    project.run(check_ops.check_all(ws))
    changes = preview(project, {"pkg/helper.py": None})
    strict = {**disk, "pyrightconfig.json": config}
    gone = written(tmp_path / "d", {k: v for k, v in strict.items() if k != "pkg/helper.py"})
    before = Counter((r[0], r[3], r[4]) for r in cli(written(tmp_path / "e", strict)))
    new = Counter((r[0], r[3], r[4]) for r in cli(gone)) - before
    assert Counter((r[0], r[3], r[4]) for r in rows(changes.introduced)) == new
    assert ("pkg/user.py", "reportMissingImports", MISSING) in new
    [again] = pids(project)
    assert again not in (None, first)

    # The workspace's close stops it and removes the copy.
    project.run(ws.close())
    assert not (state_dir(root) / "python-copy-kept").exists()
    assert pids(project) == []


def test_the_copy_is_brought_to_each_state_by_the_files_that_differ(tmp_path: Path) -> None:
    """What a question writes into a kept copy: only the files that differ from what it
    holds, each told as created, changed or deleted; a configuration that differs makes
    the copy anew (None: its servers start again)."""
    source = written(tmp_path / "src", {"a.py": "a = 1\n", "b.py": "b = 1\n"})
    kept = Kept(tmp_path / "copy")

    def want(held: dict[str, bytes], config: bytes = b"{}") -> Wanted:
        files: dict[Path, Path | bytes] = {Path(n): source / n for n in ("a.py", "b.py")}
        files[Path("pyrightconfig.json")] = config
        files.update((Path(n), t) for n, t in held.items())
        return Wanted(files, {}, {Path("pyrightconfig.json")}, {Path(".")})

    assert brought(kept, want({})) is None  # new: made whole
    assert sorted(p.name for p in kept.copy.iterdir()) == ["a.py", "b.py", "pyrightconfig.json"]
    assert brought(kept, want({})) == []
    assert brought(kept, want({"c.py": b"c = 1\n", "a.py": b"a = 2\n"})) == [
        (Path("a.py"), 2),
        (Path("c.py"), 1),
    ]
    assert (kept.copy / "a.py").read_text() == "a = 2\n"
    (source / "b.py").write_text("b = 22\n")  # the disk moved: read again
    assert brought(kept, want({})) == [(Path("a.py"), 2), (Path("b.py"), 2), (Path("c.py"), 3)]
    assert (kept.copy / "a.py").read_text() == "a = 1\n"
    assert (kept.copy / "b.py").read_text() == "b = 22\n"
    assert not (kept.copy / "c.py").exists()
    assert brought(kept, want({}, b'{"strict": ["."]}')) is None
