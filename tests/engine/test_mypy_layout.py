"""A project mypy cannot check as lspd gives it its files: two files of one module name
(fastapi 0.165.0's docs_src: many tutorial001.py, none in a package, and no `files` in its
[tool.mypy], so lspd's gate is every Python file). mypy's own run stops there before
checking any file (exit 2); lspd's check refuses, saying what mypy said and what the
configuration can do, where it said one error at line -1 (exit 1), a proof '0 new' (exit
0) and the stop gate 'fix the syntax error'. On mypy 2.4.1, against its own run."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from lspd.engine.mypy_layout import refusal
from lspd.workspace import Workspace
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_scope import EVERY
from tests.cli.test_check import lspd_check
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "pyproject.toml": "[tool.mypy]\nstrict = true\n",
    "app/__init__.py": "",
    "app/main.py": 'count: int = "three"\n',
    "docs/one/tutorial001.py": "x = 1\n",
    "docs/two/tutorial001.py": "y = 2\n",
}
ADVICE = (
    "(mypy's own run exits 2 there: errors prevented further checking); lspd gives mypy "
    "every Python file of the project (pyproject.toml [tool.mypy] names no `files`), so "
    "nothing of this project can be checked: in pyproject.toml, name the files your own "
    "mypy checks (files = [...]: the packages your CI runs it on), leave the duplicates out "
    "(exclude = [...]), or make each a module of its own (an __init__.py in their "
    "directories, or explicit_package_bases with mypy_path)"
)


def own_duplicate(root: Path, module: str = "tutorial001") -> tuple[str, str]:
    """The project's own `mypy .` (every Python file, as lspd's gate has them), asserted
    stopped at the duplicate: the file it names and the other."""
    done = subprocess.run(
        [str(root / ".venv/bin/mypy"), "--cache-dir", "/dev/null", "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "errors prevented further checking" in done.stdout
    [error] = [line for line in done.stdout.splitlines() if ": error: " in line]
    named, said = error.split(": error: ")
    assert said.startswith(f'Duplicate module named "{module}" (also at "./')
    other = said.split('(also at "./')[1].rstrip('")')
    return named, other


def test_two_files_of_one_module_name_are_said_with_what_to_write(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES))
    named, other = own_duplicate(root)
    expected = (
        f"lspd: mypy stopped before checking any file, at {named}: Duplicate module named "
        f'"tutorial001" (also at "{other}") {ADVICE}'
    )
    check = lspd_check(root)
    assert (check.returncode, check.stderr.splitlines()[-1], check.stdout) == (2, expected, "")
    (root / "app/main.py").write_text('count: int = "three"\nmore: str = 4\n')
    proof = lspd_check(root, "--baseline", "HEAD")
    assert (proof.returncode, proof.stderr.splitlines()[-1], proof.stdout) == (2, expected, "")
    # Its files named, as its CI runs it: checked, mypy's own errors.
    (root / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["app"]\nstrict = true\n')
    named_files = lspd_check(root)
    assert named_files.returncode == 1
    lines = [line for line in named_files.stdout.splitlines() if ": error: " in line]
    assert [line.split(": error: ")[0] for line in lines] == [
        f"{f}:{line}:{column}" for f, line, column, _, _ in cli_errors(root)
    ]
    assert len(lines) == 2


def test_the_refusal_names_the_files_the_configuration_gave() -> None:
    """With `files` named, the refusal says them; without a configuration, that."""
    ws = cast("Workspace", SimpleNamespace(display=lambda p: Path(p).name))
    config = MypyConfig(Path("/r/mypy.ini"), "mypy.ini", ("docs", "app"), None)
    said = refusal(ws, config, Path("/r/docs/a.py"), "Duplicate module named")
    assert said.startswith(
        "mypy stopped before checking any file, at a.py: Duplicate module named (mypy's own "
        "run exits 2 there: errors prevented further checking); lspd gives mypy the files "
        "mypy.ini names (files = docs, app), so nothing of this project can be checked: in "
        "mypy.ini, name the files"
    )
    # chosen by a pre-commit hook (pluggy's): what chose them, not "every Python file"
    bare = MypyConfig(Path("/r/mypy.ini"), "mypy.ini", (), None)
    hook = "no `files`: those .pre-commit-config.yaml's mypy hook passes mypy"
    said = refusal(ws, bare, Path("/r/docs/a.py"), "Duplicate module named", hook)
    assert f"lspd gives mypy the files its gate runs mypy on ({hook}), so nothing" in said
    said = refusal(ws, bare, Path("/r/docs/a.py"), "Duplicate module named", EVERY)
    assert "lspd gives mypy every Python file of the project (mypy.ini names no `files`)" in said
    said = refusal(ws, None, Path("/r/docs/a.py"), "Duplicate module named")
    assert said == (
        "mypy stopped before checking any file, at a.py: Duplicate module named (mypy's own "
        "run exits 2 there: errors prevented further checking); lspd gives mypy every Python "
        "file of the project (it has no mypy configuration), so nothing of this project can "
        "be checked: in a mypy configuration, name the files your own mypy checks (files = "
        "[...]: the packages your CI runs it on), leave the duplicates out (exclude = [...]), "
        "or make each a module of its own (an __init__.py in their directories, or "
        "explicit_package_bases with mypy_path)"
    )


def test_a_duplicate_the_change_made_is_its_error_and_the_stop(tmp_path: Path) -> None:
    """tools/run.py added beside scripts/run.py (no packages): mypy's own run stops at it
    (exit 2), where at HEAD it checked the project. The proof says so: 1 new, mypy's error,
    and the stop (it was refused: "nothing of this project can be checked")."""
    files = {k: v for k, v in FILES.items() if not k.startswith("docs/")}
    root = committed(project(tmp_path / "p", {**files, "scripts/run.py": "y = 2\n"}))
    (root / "tools").mkdir()
    (root / "tools/run.py").write_text("z = 3\n")
    named, other = own_duplicate(root, "run")
    assert (named, other) == ("tools/run.py", "scripts/run.py")
    proof = lspd_check(root, "--baseline", "HEAD")
    lines = proof.stdout.splitlines()
    assert proof.returncode == 1, proof.stderr
    assert lines[0] == (f'{named}:1:1: error: Duplicate module named "run" (also at "{other}")')
    assert lines[1] == (
        f"mypy stopped at {named}:1 and checked nothing else: 1 baseline diagnostic(s) of "
        "app/main.py not checked (not fixed)"
    )
    assert lines[2].startswith("1 new since HEAD (1 error(s)), 0 fixed, 0 unchanged;")
