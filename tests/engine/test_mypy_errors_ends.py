"""mypy 1.x says no end of an error (its JSON has none; its text, with the columns asked,
none either), and lspd reads every one as its column alone, whichever way mypy printed it:
dmypy 1.x prints an update's errors as text, its first run's as JSON. The text's were read
one column wider, so an error HEAD's state and the disk's state both hold, one read from
JSON and the other from text, pointed at other text and was called new and fixed at once:
`check --baseline HEAD` after adding one error to a file with one said 2 new, 1 fixed (and a
preview of it 3 new, 3 fixed on a project with a symlinked package folder). Real mypy
1.19.1 against the project's own."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import FileDiagnostic
from lspd.ops.preview import preview
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, environment, project

FILES = {
    ".gitignore": ".venv\n",
    "pyproject.toml": "[tool.mypy]\nstrict = true\n",
    "app/__init__.py": "",
    "app/other.py": 'def bad() -> int:\n    return "x"\n',
    "app/main.py": "def run() -> int:\n    return 1\n",
}
WORSE = 'def bad() -> int:\n    return "x"\n\n\ndef worse() -> str:\n    return 1\n'

Row = tuple[str, int, int, str | None]


def rows(found: list[FileDiagnostic]) -> Counter[Row]:
    return Counter((str(d.path), d.line, d.column, d.code) for d in found)


def mypys(root: Path) -> Counter[Row]:
    return Counter((f, line, column, code) for f, line, column, code, _ in cli_errors(root, "."))


def test_an_error_at_head_stays_unchanged_beside_a_new_one(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES, environment("mypy-1.19.1", "mypy==1.19.1")))
    head = mypys(root)
    assert head == Counter({("app/other.py", 2, 12, "return-value"): 1})
    change: list[dict[str, str | None]] = [{"path": "app/other.py", "content": WORSE}]
    previewed = answer(root, lambda ws: preview(ws, change))
    (root / "app/other.py").write_text(WORSE)
    new = mypys(root) - head
    assert new == Counter({("app/other.py", 6, 12, "return-value"): 1})
    assert rows(previewed.changes.introduced) == new
    assert previewed.changes.fixed == [] and previewed.changes.unchanged == 1
    since = answer(root, lambda ws: workspace_diagnostics(ws, limit=1000, baseline="HEAD"))
    assert since.changes is not None
    assert rows(since.changes.introduced) == new
    assert since.changes.fixed == [] and since.changes.unchanged == 1
