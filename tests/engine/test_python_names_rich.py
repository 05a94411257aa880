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


def asked(warm: Warm, fresh_too: bool = True) -> list[str]:
    """The files the whole check asked; its result is a fresh workspace's."""
    checked = warm.run(check_all(warm.ws))
    if fresh_too:
        assert compact(summary(checked)) == fresh(warm.root, warm.root.parent / "fresh-logs")
    return sorted(warm.ws.display(p) for p in checked.asked)


def errors(warm: Warm) -> set[tuple[str | None, int, str | None]]:
    checked = warm.run(check_all(warm.ws))
    return {(d.path, d.line, d.code) for d in checked.everything if d.severity == "error"}


USES = "from rich._pick import lspd_extra\n\nvalue: int = lspd_extra(1)\n"
EXTRA = "\n\ndef lspd_extra(x: int) -> int:\n    return x\n"


def test_names_added_ask_the_files_naming_them_and_another_change_every_importer(
    rich: Warm,
) -> None:
    uses = rich.root / "rich/lspd_uses.py"
    uses.write_text(USES)  # a file naming what `_pick` does not have yet
    assert len(asked(rich, fresh_too=False)) == 79  # cold: every file
    before = errors(rich)
    assert {p for p, _, _ in before if p == "rich/lspd_uses.py"} == {"rich/lspd_uses.py"}
    pick = rich.root / "rich/_pick.py"
    original = pick.read_text()
    pick.write_text(original + "\n\nadded: int = 0\n")
    assert asked(rich) == ["rich/_pick.py"]  # a name added that no file uses

    extra = pick.read_text() + EXTRA
    seen = memory_of(rich.ws).python
    files = set(rich.root.glob("rich/**/*.py"))
    reach = proposal_reach.reached(rich.ws, {pick: extra}, files, seen, None)
    named = ["rich/_pick.py", "rich/lspd_uses.py"]
    assert sorted(rich.ws.display(p) for p in reach) == named  # a preview asks them
    introduced, fixed = previewed_said(rich, {"rich/_pick.py": extra})
    gone = {(p, line, code) for p, line, code in before if p == "rich/lspd_uses.py"}
    assert introduced == [] and {(p, line, code) for p, line, code, _ in fixed} == gone
    pick.write_text(extra)
    assert asked(rich) == named
    assert errors(rich) == before - gone

    assert seen is not None
    every = importers(rich.root, [pick], names(rich.ws, seen))
    pick.write_text(extra.replace("def pick_bool(", "def pick_bool2("))  # every importer
    every_name = {rich.ws.display(p) for p in every} | {"rich/_pick.py"}
    assert asked(rich) == sorted(every_name)
    assert {p for p, _, _ in errors(rich) - before} == set(CALLERS) - {"rich/_pick.py"}
