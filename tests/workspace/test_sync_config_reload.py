"""A pyright configuration edited while the daemon runs, right after a check, is read as
its CLI reads it: basedpyright's server reloads its configuration ~100 ms after it hears of
the change ("Reloading configuration file", then its files analyzed again), and a check
asked before that kept the answers of the old configuration, on every path after (the F5
fixer's note: `check --baseline HEAD` 0 new where the CLI says 3, still 6 s later, the
daemon answering in 0.06 s re-asking nothing). Real basedpyright against its CLI."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from lspd.lsp.readiness import RELOAD_TIMEOUT_S
from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import Row, cli, rows
from tests.ops.test_baseline import committed
from tests.workspace.test_sync_excluded import said

BROKEN = "def f(x: int) -> str:\n    return x\n"
FINE = "def g(x: int) -> int:\n    return x\n"
JSON_OFF = '{"typeCheckingMode": "standard", "reportReturnType": "none"}\n'
JSON_ON = '{"typeCheckingMode": "standard", "reportReturnType": "error"}\n'
TOML = '[project]\nname = "p"\nversion = "0"\n\n[tool.{}]\ntypeCheckingMode = "standard"\n'
CASES = {
    "pyrightconfig": ("pyrightconfig.json", JSON_OFF, JSON_ON),
    **{
        table: (
            "pyproject.toml",
            TOML.format(table) + 'reportReturnType = "none"\n',
            TOML.format(table) + 'reportReturnType = "error"\n',
        )
        for table in ("basedpyright", "pyright")
    },
}


def of_file(warm: Warm, name: str) -> tuple[list[Row], list[Row]]:
    """`lspd diagnostics FILE`'s diagnostics, and `--baseline HEAD`'s introduced (named by
    the file's path, as the CLI's)."""
    now = warm.run(diagnostics(warm.ws, name))
    since = warm.run(diagnostics(warm.ws, name, baseline="HEAD")).changes
    assert since is not None
    return [(name, *r[1:]) for r in rows(now.diagnostics)], [
        (name, *r[1:]) for r in rows(since.introduced)
    ]


@pytest.mark.parametrize("case", CASES)
def test_a_configuration_edited_right_after_a_check_is_read_as_the_cli_reads_it(
    tmp_path: Path, case: str
) -> None:
    name, off, on = CASES[case]
    root = committed(written(tmp_path / "p", {name: off, "app/a.py": BROKEN, "app/b.py": FINE}))
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        (root / name).write_text(on)  # a shell's write, in place
        truth = cli(root)
        assert [(r[0], r[1], r[3]) for r in truth] == [("app/a.py", 2, "reportReturnType")]
        assert said(warm) == (truth, truth, [])  # at once: before the server's reload
        assert said(warm) == (truth, truth, [])
        (root / name).write_text(off)
        assert said(warm) == ([], [], [])
        (root / name).write_text(on)  # a file's question first
        assert of_file(warm, "app/a.py") == (truth, truth)
        assert said(warm) == (truth, truth, [])


def test_a_configuration_written_where_there_was_none_is_read_as_the_cli_reads_it(
    tmp_path: Path,
) -> None:
    """Without a configuration file the server watches its folder for either name written
    (then reads its options anew), not a file of its own."""
    root = committed(written(tmp_path / "p", {"app/a.py": BROKEN, "app/b.py": FINE}))
    before = cli(root)
    assert [(r[0], r[1], r[3]) for r in before] == [("app/a.py", 2, "reportReturnType")]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == (before, [], [])
        (root / "pyrightconfig.json").write_text('{"reportReturnType": "none"}\n')
        assert cli(root) == []
        assert said(warm) == ([], [], before)


def test_a_pyrightconfig_written_beside_a_pyproject_is_read_as_the_cli_reads_it(
    tmp_path: Path,
) -> None:
    """A folder configured by its pyproject.toml: the server watches that file alone, so a
    pyrightconfig.json written beside it (which the CLI reads instead) reloads nothing:
    the server restarts (asked after the write, a question waited 20 s for a reload that
    never came, then said the old configuration's answer)."""
    off = TOML.format("basedpyright") + 'reportReturnType = "none"\n'
    root = committed(written(tmp_path / "p", {"pyproject.toml": off, "app/a.py": BROKEN}))
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        (root / "pyrightconfig.json").write_text(JSON_ON)
        truth = cli(root)
        assert [(r[0], r[1], r[3]) for r in truth] == [("app/a.py", 2, "reportReturnType")]
        started = time.monotonic()
        assert said(warm) == (truth, truth, [])
        assert time.monotonic() - started < RELOAD_TIMEOUT_S
