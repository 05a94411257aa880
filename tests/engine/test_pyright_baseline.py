"""basedpyright's baseline file (`.basedpyright/baseline.json`, what `--writebaseline`
writes: the errors it silences) changed while the daemon runs is read as its CLI reads it,
on every path (the Python examiner's F2: deleted, `lspd check` 2 errors and `check
--baseline HEAD` 0 new where the CLI says 128 introduced; a daemon started on an edited one
kept it after `git checkout`). Its server reads the file at each analysis but judges again
only the files it re-checks, and watches no such file; HEAD's result is made under HEAD's
baseline. Real basedpyright against its CLI."""

from __future__ import annotations

import subprocess
from pathlib import Path

from lspd.engine.kept import config_key
from lspd.ops.preview import previewed
from tests.basedpyright_cli import BASEDPYRIGHT
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import Row, cli, rows
from tests.ops.test_baseline import committed, git
from tests.workspace.test_sync_config_reload import of_file
from tests.workspace.test_sync_excluded import said

BASELINE = ".basedpyright/baseline.json"
FILES = {
    "pyproject.toml": '[tool.basedpyright]\ntypeCheckingMode = "standard"\n',
    "app/a.py": "def f(x: int) -> str:\n    return x\n",
    "app/b.py": "def g(x: int) -> int:\n    return x\n",
}
LATER = "def g(x: int) -> int:\n    return x\n\n\ndef h() -> int:\n    return 'h'\n"


def write_baseline(root: Path) -> str:
    """What `basedpyright --writebaseline` writes of the project as it is."""
    subprocess.run([BASEDPYRIGHT, "--writebaseline"], cwd=root, capture_output=True, check=False)
    return (root / BASELINE).read_text()


def errors(found: list[Row]) -> list[tuple[str | None, int, str | None]]:
    return [(r[0], r[1], r[3]) for r in found]


def test_a_baseline_deleted_or_written_anew_is_read_as_the_cli_reads_it(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    write_baseline(root)
    committed(root)
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        kept = (root / BASELINE).read_text()
        (root / BASELINE).unlink()  # a shell's `rm`
        truth = cli(root)
        assert errors(truth) == [("app/a.py", 2, "reportReturnType")]
        assert said(warm) == (truth, truth, [])
        assert of_file(warm, "app/a.py") == (truth, truth)
        (root / BASELINE).parent.mkdir(exist_ok=True)
        (root / BASELINE).write_text(kept)  # back as committed
        assert said(warm) == ([], [], [])
        moved = "# a line above\n\n" + FILES["app/a.py"]  # matched by rule and columns
        (root / "app/a.py").write_text(moved)
        assert cli(root) == []
        assert said(warm) == ([], [], [])
        (root / "app/b.py").write_text(LATER)
        later = cli(root)
        assert errors(later) == [("app/b.py", 6, "reportReturnType")]
        assert said(warm) == (later, later, [])
        write_baseline(root)  # written anew: b.py's error silenced too
        assert cli(root) == []
        assert said(warm) == ([], [], [])
        assert of_file(warm, "app/b.py") == ([], [])


def test_a_daemon_started_on_an_edited_baseline_reads_the_commits_once_restored(
    tmp_path: Path,
) -> None:
    """The examiner's F2 (c): started while a rewritten baseline silences an error, then
    `git checkout` of it: the error said again, as introduced (HEAD's baseline holds it)."""
    root = written(tmp_path / "p", FILES)
    committed(root)
    committed_text = write_baseline(root)
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "baseline")
    (root / "app/b.py").write_text(LATER)
    write_baseline(root)  # b.py's error silenced by the work tree's baseline alone
    assert cli(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm)[0] == []
        (root / BASELINE).write_text(committed_text)  # `git checkout -- BASELINE`
        truth = cli(root)
        assert errors(truth) == [("app/b.py", 6, "reportReturnType")]
        assert said(warm) == (truth, truth, [])


def test_a_preview_of_a_baseline_edit_says_what_the_cli_says_once_written(
    tmp_path: Path,
) -> None:
    root = written(tmp_path / "p", FILES)
    write_baseline(root)
    committed(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == ([], [], [])
        gone = warm.run(previewed(warm.ws, [{"path": BASELINE, "content": None}])).changes
        assert gone is not None
        (root / BASELINE).unlink()
        truth = cli(root)
        assert errors(truth) == [("app/a.py", 2, "reportReturnType")]
        assert (rows(gone.introduced), rows(gone.fixed)) == (truth, [])
        git(root, "checkout", "-q", "--", BASELINE)
        (root / "app/b.py").write_text(LATER)
        later = cli(root)
        assert errors(later) == [("app/b.py", 6, "reportReturnType")]
        anew = write_baseline(written(tmp_path / "q", {**FILES, "app/b.py": LATER}))
        assert said(warm) == (later, later, [])
        proposal: list[dict[str, str | None]] = [{"path": BASELINE, "content": anew}]
        silenced = warm.run(previewed(warm.ws, proposal)).changes
        assert silenced is not None
        assert (rows(silenced.introduced), rows(silenced.fixed)) == ([], later)


def test_heads_kept_result_is_keyed_by_its_baseline_edited_or_not(tmp_path: Path) -> None:
    """The kept key reads the baseline beside a pyright configuration: clean, or edited and
    held at the commit's text, the same key (HEAD's result reused, not made on a copy); at
    another commit's text, another key."""
    root = written(tmp_path / "p", {**FILES, BASELINE: "{}\n"})
    configs = [root / "pyproject.toml"]
    clean = config_key(configs)
    (root / BASELINE).write_text('{"files": {}}\n')
    assert config_key(configs, {root / BASELINE: "{}\n"}) == clean
    assert config_key(configs) != clean
    (root / BASELINE).unlink()
    missing = config_key(configs)
    (root / BASELINE).write_text("{}\n")
    assert config_key(configs, {root / BASELINE: None}) == missing != clean
