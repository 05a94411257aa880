"""On a real project, a name added that no file uses asks its file alone, one that a file
reaching an import cycle names asks every importer (engine/python_cycles: every rich
module reaches rich/__init__.py's cycle), and the whole check then equals a fresh one:
rich 13.9.4 (78 modules, its release cached once) on basedpyright in standard mode, watched
as in the daemon. Each edit is made, checked, compared with a workspace opened anew on the
same files, and undone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import proposal_reach
from lspd.engine.python_affected import names
from lspd.engine.python_cycles import cycles_reached, shared
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


def test_a_name_added_asks_its_file_alone_or_in_a_cycle_every_importer(rich: Warm) -> None:
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
    assert seen is not None
    imported = names(rich.ws, seen)
    every = sorted(
        {rich.ws.display(p) for p in importers(rich.root, [pick], imported)} | {"rich/_pick.py"}
    )
    # lspd_uses.py names lspd_extra, text.py (an importer) does not, and both reach the import
    # cycle of rich/__init__.py: basedpyright would meet its types from the file checked first.
    assert shared(cycles_reached(rich.root, imported), [uses], [rich.root / "rich/text.py"])
    files = set(rich.root.glob("rich/**/*.py"))
    reach = proposal_reach.reached(rich.ws, {pick: extra}, files, seen, None)
    assert sorted(rich.ws.display(p) for p in reach) == every  # a preview asks every importer
    introduced, fixed = previewed_said(rich, {"rich/_pick.py": extra})
    gone = {(p, line, code) for p, line, code in before if p == "rich/lspd_uses.py"}
    assert introduced == [] and {(p, line, code) for p, line, code, _ in fixed} == gone
    pick.write_text(extra)
    assert asked(rich) == every
    assert errors(rich) == before - gone

    pick.write_text(extra.replace("def pick_bool(", "def pick_bool2("))  # every importer
    assert asked(rich) == every
    assert {p for p, _, _ in errors(rich) - before} == set(CALLERS) - {"rich/_pick.py"}
