"""`check --baseline` after an edit of the checkers' configuration (`engine/committed._key`:
HEAD's kept result is the one made under HEAD's configuration, `revisions.configs_then`):
tsconfig.json's noUnusedParameters and mypy's warn_unreachable turned on introduce errors
in files the edit did not touch. Before, the key was the disk's configuration: HEAD's result
was made again under the new one and said "0 new" (exit 0, the stop gate passed) where tsc
and mypy say the new errors. Without a result kept under HEAD's configuration, it is made by the
checker on a copy holding HEAD's configuration (`engine/configured.py`); a preview of a
configuration is refused, saying what to send instead. `unchanged`
counts every diagnostic in both states, as `preview` does (it counted the compared files'
only: 0 on a clean tree). The `session` baseline stands where the session started when
HEAD moves (it was answered with HEAD's result, "0 new" after a commit). Real builder
(lspd's TypeScript 5.9) and mypy 2.4.1, each's own run asserted beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import progressive_kept
from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import Changes
from lspd.ops.preview import preview
from lspd.ops.progressive import Progress
from lspd.workspace import Workspace
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_baseline import committed, git
from tests.ops.test_file_since_kept_stops import ts_project
from tests.ops.test_mypy_held_files import FILES
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_tsbuilder_syntax import CONFIG, CORE, TYPE_ERROR, tsc_of

UNUSED = "export function f(unused: number): number {\n  return 1;\n}\n"
STRICTER = CONFIG.replace('"noEmit": true', '"noEmit": true, "noUnusedParameters": true')
UNUSED_ERROR = "src/extra.ts(1,19): error TS6133: 'unused' is declared but its value is never read."
REACH = "def f(x: int) -> int:\n    if isinstance(x, str):\n        return 0\n    return x\n"
UNREACHABLE = "[tool.mypy]\nstrict = true\nwarn_unreachable = true\n"


def extra_project(tmp_path: Path) -> Path:
    """`ts_project` (user.ts's TS2322) with src/extra.ts, an unused parameter (no error
    until noUnusedParameters), committed."""
    root = ts_project(tmp_path)
    (root / "src/extra.ts").write_text(UNUSED)
    return committed(root)


def made_stricter(warm: Warm, tmp_path: Path, baseline: str) -> Changes:
    """`extra_project` compared with `baseline` clean (user.ts's error unchanged), then with
    noUnusedParameters turned on in tsconfig.json (tsc -p: extra.ts's TS6133 too): that
    comparison, extra.ts's TS6133 new in it."""
    clean = warm.run(workspace_diagnostics(warm.ws, baseline=baseline)).changes
    assert clean is not None
    assert (clean.introduced, clean.fixed, clean.unchanged) == ([], [], 1)  # user.ts's
    (warm.root / "tsconfig.json").write_text(STRICTER)
    assert tsc_of(warm.root, tmp_path, {}) == [UNUSED_ERROR, TYPE_ERROR]
    since = warm.run(workspace_diagnostics(warm.ws, baseline=baseline)).changes
    assert since is not None
    assert [(d.path, d.line, d.code) for d in since.introduced] == [("src/extra.ts", 1, "6133")]
    assert (since.fixed, since.unchanged) == ([], 1)
    return since


def test_a_stricter_tsconfig_introduces_its_errors(tmp_path: Path) -> None:
    """Kept at HEAD from the clean tree (the daemon's case), then read back by a fresh
    workspace (a one-shot `lspd check --baseline HEAD`); with no result kept, made by tsc
    on a copy holding HEAD's tsconfig (refused before: `engine/configured.py`)."""
    root = extra_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        made_stricter(warm, tmp_path, "HEAD")

    async def ask(ws: Workspace) -> object:
        return await workspace_diagnostics(ws, baseline="HEAD")

    again = answer(root, ask).changes  # type: ignore[attr-defined]
    assert "(read back); the configuration changed since " in again.scope
    assert [(d.path, d.code) for d in again.introduced] == [("src/extra.ts", "6133")]
    for fresh in warm_root(root, tmp_path / "other" / "logs"):  # nothing kept there
        # HEAD's texts and tsconfig checked by its own tsc -p on a copy (`engine/configured`)
        made = fresh.run(workspace_diagnostics(fresh.ws, baseline="HEAD")).changes
        assert made is not None and "(checked); the configuration changed since " in made.scope
        assert [(d.path, d.code) for d in made.introduced] == [("src/extra.ts", "6133")]
        assert (made.fixed, made.unchanged) == ([], 1)


def test_mypy_s_warn_unreachable_introduces_its_errors(tmp_path: Path) -> None:
    """pyproject.toml's [tool.mypy] given warn_unreachable: mypy's own run says the
    isinstance and the return after it of app/reach.py, in a file the edit did not touch."""
    root = project(tmp_path / "p", {**FILES, "app/reach.py": REACH}, mypy_env())
    committed(root)
    before = cli_errors(root, "app", "tests")
    (root / "pyproject.toml").write_text(UNREACHABLE)
    after = cli_errors(root, "app", "tests")
    new = [e for e in after if e not in before]
    want = [("app/reach.py", 2, "unreachable"), ("app/reach.py", 3, "unreachable")]
    assert [(path, line, code) for path, line, _, code, _ in new] == want
    (root / "pyproject.toml").write_text(FILES["pyproject.toml"])

    async def ask(ws: Workspace) -> tuple[object, object]:
        head = await workspace_diagnostics(ws, baseline="HEAD")  # kept from the clean tree
        (root / "pyproject.toml").write_text(UNREACHABLE)
        return head, await workspace_diagnostics(ws, baseline="HEAD")

    head, since = answer(root, ask)
    assert head.changes.introduced == []  # type: ignore[attr-defined]
    assert head.changes.unchanged == len(before)  # type: ignore[attr-defined]
    changes = since.changes  # type: ignore[attr-defined]
    assert sorted((d.path, d.line, d.code) for d in changes.introduced) == want
    assert (changes.fixed, changes.unchanged) == ([], len(before))


def test_the_session_does_not_move_with_head(tmp_path: Path) -> None:
    """user.ts given a second error, then committed: its error is new since the session
    whatever HEAD is, and HEAD's own kept result (made in the background) is not it."""
    root = ts_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        # HEAD asked first: the session's start is kept with it (none made after the edit)
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 1)
        user = root / "src/user.ts"
        user.write_text(user.read_text() + 'export const t: number = "x";\n')
        for step in ("edited", "committed"):
            if step == "committed":  # and another file edited (a comparison not reused)
                git(root, "-c", "user.name=t", "-c", "user.email=t@e.com", "commit", "-qam", "x")
                (root / "src/core.ts").write_text(CORE + "export const u = 1;\n")
                now = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
                assert now is not None and (now.introduced, now.unchanged) == ([], 2)
                assert "HEAD moved" in now.scope
            session = warm.run(workspace_diagnostics(warm.ws, baseline="session")).changes
            assert session is not None, step
            assert [(d.path, d.line, d.code) for d in session.introduced] == [
                ("src/user.ts", 3, "2322")
            ], step
            assert session.unchanged == 1


def test_a_preview_of_a_configuration_says_what_to_send_instead(tmp_path: Path) -> None:
    """No preview holds a configuration (the servers read the disk's): refused, naming
    what answers it, before any server is asked."""
    root = ts_project(tmp_path)

    async def ask(ws: Workspace) -> object:
        return await preview(ws, [{"path": "tsconfig.json", "content": STRICTER}])

    with pytest.raises(
        InvalidInput,
        match=r"^tsconfig.json is a checker's configuration: .*"
        r"run `lspd check --baseline HEAD`: it compares every file of the gate",
    ):
        answer(root, ask)


def test_the_hooks_check_of_an_edited_tsconfig_tells_its_errors(tmp_path: Path) -> None:
    """The hook's and stop gate's check (`ops/progressive_kept.py`) of tsconfig.json edited:
    the gate's new errors, as check --baseline (before: nothing, tsconfig.json being no
    source file the change differs in)."""
    root = extra_project(tmp_path)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))  # kept from the clean tree
        config = root / "tsconfig.json"
        config.write_text(STRICTER)
        progress = Progress("HEAD", [config])
        warm.run(progressive_kept.run(warm.ws, progress))
        assert progress.failed is None and progress.changed == [config]
        told = [
            (i.diagnostic.path, i.diagnostic.line, i.diagnostic.code) for i in progress.introduced
        ]
        assert told == [("src/extra.ts", 1, "6133")]
