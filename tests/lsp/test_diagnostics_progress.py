"""A server whose pushed lists settle while its work-done progress runs (`push_waits_for_progress`):
pyright before pull diagnostics. itsdangerous 2.2.0 pins pyright 1.1.358, which publishes a
just-opened file's list before its check of it (exc.py: empty, then its error 100 ms later),
so lspd's 80 ms of quiet took the empty one: `lspd check` said 2 errors where its `pyright`
says 3 (and a warm daemon's check missed an edit's pyright error). Real pyright 1.1.358 in an
environment of its own, on itsdangerous's own files (its source release), a probe error
appended to each."""

from __future__ import annotations

from pathlib import Path

from lspd.dirs import cache_dir
from lspd.ops.check import check_all
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import environment, source_release
from tests.workspace.test_toolchain_pyright import cli

PYRIGHT_OLD = "1.1.358"  # itsdangerous 2.2.0's requirements/typing.txt
FILES = ("exc.py", "encoding.py", "signer.py")
PYPROJECT = (
    '[project]\nname = "p"\nversion = "0"\n\n'
    '[tool.pyright]\ninclude = ["src/p"]\ntypeCheckingMode = "basic"\n'
)


def test_a_pushed_list_is_taken_once_the_servers_check_has_ended(tmp_path: Path) -> None:
    kept = cache_dir() / "tests"  # downloaded once
    release = source_release("itsdangerous", "2.2.0", kept, tmp_path / "release")
    root = tmp_path / "p"
    (root / "src/p").mkdir(parents=True)
    for name in FILES:
        text = (release / "src/itsdangerous" / name).read_text()
        (root / "src/p" / name).write_text(text + '\n_probe: int = "s"\n')
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / ".gitignore").write_text(".venv\n")
    (root / ".venv").symlink_to(environment(f"pyright-{PYRIGHT_OLD}", f"pyright=={PYRIGHT_OLD}"))
    root = committed(root.resolve())
    expected = [(f, line, rule) for f, line, _, rule, _ in cli(root)]
    assert [f for f, _, _ in expected] == [f"src/p/{name}" for name in sorted(FILES)]
    checked = answer(root, check_all)
    assert {r.server for r in checked.results} == {"pyright"}
    found = sorted((str(d.path), d.line, str(d.code)) for d in checked.everything)
    assert found == expected
