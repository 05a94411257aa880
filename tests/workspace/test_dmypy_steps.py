"""dmypy's updates on mypy 1.x (a real 1.19.1 and 1.13.0, each in its own environment)
answer mypy's errors: a state that brings a module back (or edits its importer) while
removing the module it imports no longer crashes the server (1.19.1's KeyError in
`fine_grained_increment_follow_imports`, the examiner's F4: the rename app/models.py ->
app/domain.py after a preview of app/service.py's deletion; a removal starts a new server,
`dmypy._stale`), a server crashing anyway is asked again, and an update's errors keep
mypy's columns and notes (dmypy 1.x prints an update as text, without columns unless asked,
and lspd kept its errors alone, each at column 1: F3)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.workspace import dmypy_steps
from lspd.workspace.dmypy import Dmypy
from lspd.workspace.mypy_copy import Mirror
from tests.workspace.mypy_env import cli_errors, environment, mypy_cli, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_dmypy_removed import answers

FILES = {
    "setup.cfg": "[mypy]\nfiles = app\n",
    "app/__init__.py": "",
    "app/models.py": "class User:\n    name: str = ''\n",
    "app/service.py": ("from app.models import User\n\n\ndef make() -> User:\n    return User()\n"),
    "app/api/__init__.py": "",
    "app/api/handlers.py": (
        "from app.models import User\nfrom app.service import make\n\n\n"
        "def name() -> str:\n    return make().name\n\n\nu: User = make()\n"
    ),
}

Shown = list[tuple[str, int, int, str | None, str]]
Noted = list[tuple[str, tuple[str, ...]]]


def mypy_env(version: str) -> Path:
    return environment(f"mypy-{version}", f"mypy=={version}")


def checks(
    root: Path, daemon: Dmypy, states: list[dict[str, bytes]], servers: int = 1
) -> list[Shown]:
    """Each state's errors by the same daemon, in turn, and that it ran `servers` servers
    (one: warm throughout)."""
    found, pids = answers(root, daemon, states)
    assert len(set(pids)) == servers
    return found


State = dict[str, bytes]


def renamed_after_deletion(root: Path) -> tuple[State, State, State]:
    """The project's states HEAD, app/service.py deleted, and app/service.py back as
    app/models.py goes to app/domain.py (its importers not fixed): the disk left so."""
    head = held(root)
    service = root / "app/service.py"
    kept = service.read_text()
    service.unlink()
    deleted = held(root)
    service.write_text(kept)
    (root / "app/models.py").rename(root / "app/domain.py")
    return head, deleted, held(root)


@pytest.mark.parametrize("version", ["1.19.1", "1.13.0"])
def test_a_module_back_as_its_import_goes_is_mypys_answer(tmp_path: Path, version: str) -> None:
    root = project(tmp_path / "p", FILES, mypy_env(version))
    head, deleted, renamed = renamed_after_deletion(root)
    truth = sorted(cli_errors(root))
    assert [row[3] for row in truth] == ["import-not-found"] * 2
    service = root / "app/service.py"
    # an importer edited as its import goes
    service.write_text(service.read_text() + "\nx: int = 1\n")
    edited = held(root)
    edited_truth = sorted(cli_errors(root))
    daemon = daemon_of(root, tmp_path)
    # a new server at each state removing a file (deleted, renamed), never a crash; HEAD's
    # again is answered as before, the edit is an update
    found = checks(root, daemon, [head, deleted, renamed, head, edited], servers=3)
    assert found[2] == truth
    assert found[4] == edited_truth


def test_a_server_crashing_on_an_update_is_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a new server at a removal, 1.19.1's server crashes on the rename: it is
    ended and a new one's whole build answers mypy's errors, never a refusal."""
    monkeypatch.setattr(Mirror, "removes", lambda self, wanted: False)
    monkeypatch.setattr(dmypy_steps, "STEPPED", 1)  # the rename in one update: its crash
    root = project(tmp_path / "p", FILES, mypy_env("1.19.1"))
    head, deleted, renamed = renamed_after_deletion(root)
    truth = sorted(cli_errors(root))
    daemon = daemon_of(root, tmp_path)

    async def run() -> tuple[Shown, set[int | None]]:
        pids = set()
        try:
            for state in (head, deleted):
                await daemon.check([], state)
                pids.add(daemon.pid)
            output = await daemon.check([], renamed)
            pids.add(daemon.pid)
            return sorted(shown(root, parse(output, root, daemon.mirror.directory))), pids
        finally:
            await daemon.stop()

    found, pids = asyncio.run(run())
    assert found == truth
    assert len(pids) == 2  # the crashed server's, then its successor's


@pytest.mark.parametrize("version", ["1.19.1", "1.13.0"])
def test_an_updates_errors_keep_mypys_columns_and_notes(tmp_path: Path, version: str) -> None:
    root = project(tmp_path / "p", FILES, mypy_env(version))
    head = held(root)
    (root / "app/models.py").write_text("import nothere\n\n\nclass User:\n    name: int = 0\n")
    edited = held(root)
    truth = sorted(cli_errors(root))
    assert [row[1:4] for row in truth] == [(6, 12, "return-value"), (1, 1, "import-not-found")]
    hints = [e["hint"] for e in mypy_cli(root) if e["code"] == "import-not-found"]
    daemon = daemon_of(root, tmp_path)
    assert checks(root, daemon, [head, edited]) == [[], truth]
    assert noted(root, daemon, [head, edited]) == [[], [("app/models.py", (str(hints[0]),))]]


def noted(root: Path, daemon: Dmypy, states: list[dict[str, bytes]]) -> list[Noted]:
    """Each state's errors' notes, by the same daemon in turn."""

    async def run() -> list[Noted]:
        found = []
        try:
            for state in states:
                errors = parse(await daemon.check([], state), root, daemon.mirror.directory)
                found.append([(str(e.path.relative_to(root)), e.notes) for e in errors if e.notes])
        finally:
            await daemon.stop()
        return found

    return asyncio.run(run())


LAMBDAS = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["pkg"]\nno_implicit_optional = true\n',
    "pkg/__init__.py": "",
    "pkg/helper.py": "from typing import Sequence, TypeVar\n\nT = TypeVar('T')\n\n\n"
    "def seq_get(seq: Sequence[T], index: int) -> T | None:\n"
    "    return seq[index] if index < len(seq) else None\n",
    "pkg/parser.py": "from __future__ import annotations\n\nimport typing as t\n\n"
    "from pkg.helper import seq_get\n\n\ndef top(args: list[int]) -> int | None:\n"
    "    return seq_get(args, 0)\n\n\nclass Parser:\n"
    "    FUNCTIONS: t.ClassVar[dict[str, t.Callable]] = {\n"
    '        "FIRST": lambda args: seq_get(args, 0),\n    }\n',
    "pkg/sub.py": "from __future__ import annotations\n\nfrom pkg.helper import seq_get\n"
    "from pkg.parser import Parser\n\n\nclass SubParser(Parser):\n    FUNCTIONS = {\n"
    '        **Parser.FUNCTIONS,\n        "THIRD": lambda args: seq_get(args, 2),\n    }\n',
    "pkg/anonymize.py": "from pkg.parser import Parser\nfrom pkg.sub import SubParser\n\n"
    "X: int = 1\n",
}


def test_two_modules_changed_at_once_are_each_an_update(tmp_path: Path) -> None:
    """mypy 2.4.1's server given a leaf edit undone and a signature change in one update
    said 1 of mypy's 3 `call-arg` errors (the lambdas' in class bodies went unsaid; the
    sweep's sqlglot: 273 of 572): each changed module is now an update of its own."""
    root = project(tmp_path / "p", LAMBDAS)
    head = held(root)
    leaf = root / "pkg/anonymize.py"
    leaf.write_text(LAMBDAS["pkg/anonymize.py"] + 'Y: int = "x"\n')
    edited = held(root)
    leaf.write_text(LAMBDAS["pkg/anonymize.py"])
    helper = root / "pkg/helper.py"
    helper.write_text(LAMBDAS["pkg/helper.py"].replace("index: int)", "index: int, probe: int)"))
    changed = held(root)
    truth = sorted(cli_errors(root, "pkg"))
    assert [(f, line, code) for f, line, _, code, _ in truth] == [
        ("pkg/parser.py", 9, "call-arg"),
        ("pkg/parser.py", 14, "call-arg"),
        ("pkg/sub.py", 10, "call-arg"),
    ]
    found = checks(root, daemon_of(root, tmp_path), [head, edited, changed])
    assert [row[3] for row in found[1]] == ["assignment"]
    assert found[2] == truth
