"""A gate's Python files that mypy and basedpyright share (mypy's project under api/, a
script at the root basedpyright judges), mypy's configuration made stricter since HEAD and
no HEAD result kept: each checker's side of HEAD's state is made on its own
(`engine/python_sides.py`): mypy's in its copy under HEAD's configuration, the script's with
HEAD's texts held. Before, no Python result of HEAD was made at all: `check --baseline
HEAD` said the Python files not compared (refused whole before that), and `diagnostics
FILE --baseline HEAD` exited 2. The answer is what the checkers' own runs at HEAD and now
differ by: real mypy 2.4.1 (its CLI in api/), real basedpyright (its CLI, the script's)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_configured import pyright_rows, since_head
from tests.engine.test_python_across import CHANGED, NEW
from tests.engine.test_python_across import MYPY as ACROSS_MYPY
from tests.engine.test_python_across import layout as across_layout
from tests.engine.test_python_across import truth as across_truth
from tests.ops.test_baseline import committed
from tests.ops.test_file_since_baseline_configured import since_head as one_file
from tests.workspace.mypy_env import cli_errors, mypy_env

Row = tuple[str, int, str]  # path, line, code

FILES = {
    "api/pyproject.toml": '[project]\nname = "api"\n\n[tool.mypy]\nfiles = ["app"]\n',
    "api/app/__init__.py": "",
    "api/app/core.py": "def name(x):\n    return str(x)\n\n\nbroken: int = ''\n",
    "api/app/use.py": "from app.core import name\n\nlabel: int = name(1)\n",
    "tool.py": "count: int = 'x'\n",
}
STRICT = FILES["api/pyproject.toml"] + "strict = true\n"


def truth(root: Path) -> Counter[Row]:
    """mypy's errors in api/ (as the root shows them) and basedpyright's in tool.py."""
    mypy = Counter((f"api/{e[0]}", e[1], e[3] or "") for e in cli_errors(root / "api"))
    pyright = Counter(
        {
            (p, line, code): n
            for (p, line, code, _), n in pyright_rows(root).items()
            if p == "tool.py"
        }
    )
    return mypy + pyright


def shared(tmp_path: Path) -> Path:
    """`FILES` committed, api/.venv linking to the pinned mypy's environment."""
    root = tmp_path / "p"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    os.symlink(mypy_env(), root / "api/.venv")
    (root / ".gitignore").write_text(".venv\n")
    return committed(root.resolve())


def test_each_checker_s_side_under_head_s_configuration(tmp_path: Path) -> None:
    """mypy's strict = true, an edit on each side: every error strict adds is new, the
    script's new error new, HEAD's errors unchanged; no part said not compared."""
    root = shared(tmp_path)
    before = truth(root)
    written(root, {"api/pyproject.toml": STRICT, "tool.py": FILES["tool.py"] + "more: str = 1\n"})
    after = truth(root)
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert Counter((d.path, d.line, d.code or "") for d in since.introduced) == after - before
    assert Counter((d.path, d.line, d.code or "") for d in since.fixed) == before - after
    assert since.unchanged == sum((before & after).values())
    assert since.baseline_stopped == []
    assert ("tool.py", 2, "reportAssignmentType") in after - before
    assert any(path.startswith("api/") for path, _, _ in after - before)


def test_a_file_s_baseline_is_its_own_checker_s_side(tmp_path: Path) -> None:
    """`diagnostics FILE --baseline HEAD` after the same configuration edit: a file of
    mypy's side under HEAD's configuration in its copy, the script with HEAD's texts held."""
    root = shared(tmp_path)
    before = truth(root)
    written(root, {"api/pyproject.toml": STRICT})
    after = truth(root)
    for path in ("api/app/core.py", "tool.py"):
        found = answer(root, one_file(path)).changes  # type: ignore[attr-defined]
        new = Counter((d.path, d.line, d.code or "") for d in found.introduced)
        assert new == Counter({r: n for r, n in (after - before).items() if r[0] == path})
        assert found.fixed == []
        assert found.unchanged == sum(n for r, n in (before & after).items() if r[0] == path)


def test_mypy_s_changed_module_reaches_basedpyright_s_importer(tmp_path: Path) -> None:
    """tool.py (basedpyright's side) imports api/app/core.py (mypy's), core's return type
    changed and mypy's configuration edited (warn_unreachable): each side is made apart,
    and basedpyright's side holds core's HEAD text for tool.py. Before, only mypy's side
    held it: "0 new, 1 unchanged" where basedpyright's CLI says tool.py:3 new (and that
    HEAD result was saved, read back after the configuration was put back)."""
    root = across_layout(tmp_path, ACROSS_MYPY)
    before = across_truth(root)
    edited = ACROSS_MYPY["api/pyproject.toml"] + "warn_unreachable = true\n"
    written(root, {**CHANGED, "api/pyproject.toml": edited})
    assert across_truth(root) - before == Counter(NEW)
    assert cli_errors(root / "api") == []  # mypy: core.py is fine either way
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert [(d.path, d.line, d.code) for d in since.introduced] == NEW
    assert (since.fixed, since.unchanged, since.baseline_stopped) == ([], 0, [])
