"""On a real project, a change of module names asks the files naming them, and the whole
check then equals a fresh one: rich 13.9.4 (78 modules, its release cached once) on
basedpyright in standard mode, watched as in the daemon. Each edit is made, checked,
compared with a workspace opened anew on the same files, and undone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import proposal_reach
from lspd.engine.python_affected import names
from lspd.engine.python_imports import importers
from lspd.ops.budget import compact
from lspd.ops.check import check_all, summary
from lspd.ops.check_memory import memory_of
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import fresh
from tests.ops.test_overlaid_check import previewed_said
from tests.workspace.mypy_env import rich_release

# A cold check of rich, then per edit a check and a fresh workspace's: minutes under load.
pytestmark = pytest.mark.timeout(900)
PICK = "def pick_bool(*values: Optional[bool]) -> bool:"
CALLERS = ["rich/_pick.py", "rich/pretty.py", "rich/table.py", "rich/text.py"]  # name pick_bool


@pytest.fixture
def rich(tmp_path: Path) -> Iterator[Warm]:
    root = rich_release(tmp_path)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "r"\nversion = "0"\n\n[tool.basedpyright]\n'
        'include = ["rich"]\ntypeCheckingMode = "standard"\n'
    )
    yield from warm_root(root, tmp_path / "logs", watch=True)


def asked(warm: Warm) -> list[str]:
    """The files the whole check asked; its result is a fresh workspace's."""
    checked = warm.run(check_all(warm.ws))
    assert compact(summary(checked)) == fresh(warm.root, warm.root.parent / "fresh-logs")
    return sorted(warm.ws.display(p) for p in checked.asked)


def edit(warm: Warm, name: str, old: str, new: str) -> None:
    path = warm.root / name
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))


def errors(warm: Warm) -> set[tuple[str | None, int, str | None]]:
    checked = warm.run(check_all(warm.ws))
    return {(d.path, d.line, d.code) for d in checked.everything if d.severity == "error"}


def test_module_names_ask_the_files_naming_them_and_a_member_asks_every_importer(
    rich: Warm,
) -> None:
    assert len(asked(rich)) == 78  # cold: every file
    pick = rich.root / "rich/_pick.py"
    original = pick.read_text()
    pick.write_text(original + "\n\nadded: int = 0\n")
    assert asked(rich) == ["rich/_pick.py"]  # a name added that no file uses
    before = errors(rich)
    changed = pick.read_text().replace(PICK, PICK.replace("-> bool", "-> str"))
    seen = memory_of(rich.ws).python
    files = set(rich.root.glob("rich/**/*.py"))
    reach = proposal_reach.reached(rich.ws, {pick: changed}, files, seen, None)
    assert sorted(rich.ws.display(p) for p in reach) == CALLERS  # a preview asks them
    introduced, fixed = previewed_said(rich, {"rich/_pick.py": changed})
    assert fixed == []
    pick.write_text(changed)
    assert asked(rich) == CALLERS
    now = errors(rich)
    assert {path for path, _, _ in now - before} == set(CALLERS)
    assert sorted(now - before) == sorted((path, line, code) for path, line, code, _ in introduced)
    pick.write_text(original)
    assert asked(rich) == CALLERS
    assert errors(rich) == before

    measure = rich.root / "rich/measure.py"
    seen = memory_of(rich.ws).python
    assert seen is not None
    every = importers(rich.root, [measure], names(rich.ws, seen))
    edit(rich, "rich/measure.py", "def span(self) -> int:", "def span(self) -> str:")
    assert asked(rich) == sorted({rich.ws.display(p) for p in every} | {"rich/measure.py"})
