"""An installed dependency's file edited in place in the project's environment (no reinstall:
site-packages' and the package's mtimes stay) and restored byte for byte: every answer is
the project's own mypy's at each step (`mypy_installed.typed_stamp`, in dmypy's and the
kept answers' keys and in the environment's stamp). Before, the answers were kept by the
project's texts alone: the edit was unseen until some other change, and once seen it stayed
after the restore (the examiner's F3 on pydantic-settings: a phantom error in `lspd check`
and `check --baseline HEAD`). Real mypy 2.4.1, a venv with a small package installed
non-editable (a wheel) into it; mypy run once (an ignore comment, strict) and dmypy
(`follow_imports = skip`: dmypy watches the sources alone, the package's stub is read)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.ops.check import workspace_diagnostics
from lspd.workspace.dmypy import Dmypy
from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, mypy_env
from tests.workspace.test_dmypy import daemon_of, held, shown

INT = "def f() -> int:\n    return 1\n"
STR = 'def f() -> str:\n    return "1"\n'  # the same size as INT's: only its mtime moves
MAIN = "from mylib import f\n\nx: int = f()\n"
# mypy run once (strict reports unused ignores, a file holds one), and dmypy (a stub package:
# dmypy follows no imports but stubs', and watches the sources alone)
ONCE = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/main.py": MAIN,
    "app/other.py": "import os  # type: ignore[import-untyped]\n",
    ".gitignore": ".venv\n",
}
DMYPY = {**ONCE, "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nfollow_imports = "skip"\n'}
del DMYPY["app/other.py"]
WRONG = [
    (
        "app/main.py",
        3,
        10,
        "assignment",
        'Incompatible types in assignment (expression has type "str", variable has type "int")',
    )
]


def installed(root: Path, stub: bool) -> Path:
    """`root/.venv`: a virtual environment of mypy's test one (its site-packages linked file
    by file) with `mylib` 1.0 installed from a wheel by pip (a typed package, or a `-stubs`
    one); `mylib`'s installed file."""
    base = mypy_env()
    venv = root / ".venv"
    python = os.path.realpath(base / "bin" / "python")
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (site,) = venv.glob("lib/python*/site-packages")
    shutil.rmtree(site)
    (kept,) = base.glob("lib/python*/site-packages")
    shutil.copytree(kept, site, copy_function=os.link)
    for tool in ("mypy", "dmypy"):  # its scripts, run by this environment's interpreter
        script = (base / "bin" / tool).read_text().split("\n", 1)[1]
        (venv / "bin" / tool).write_text(f"#!{venv / 'bin' / 'python'}\n{script}")
        (venv / "bin" / tool).chmod(0o755)
    package = "mylib-stubs" if stub else "mylib"
    module = f"{package}/__init__.py{'i' if stub else ''}"
    wheel = root.parent / "mylib-1.0-py3-none-any.whl"
    info = "mylib-1.0.dist-info"
    files = {
        module: INT,
        f"{package}/py.typed": "",
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: mylib\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in [*files, f"{info}/RECORD"]))
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index", "--no-deps"]
    subprocess.run([*pip, "--disable-pip-version-check", str(wheel)], check=True, timeout=300)
    return site / module


def in_place(path: Path, text: str) -> None:
    """`path` rewritten in place (as `cp` does): its directory's mtime stays."""
    folder = path.parent.stat().st_mtime_ns
    with path.open("r+") as edited:
        edited.write(text)
        edited.truncate()
    assert path.parent.stat().st_mtime_ns == folder


@pytest.mark.parametrize("files", [ONCE, DMYPY], ids=["once", "dmypy"])
def test_a_dependency_edited_in_place_and_restored_is_mypys_answer(
    tmp_path: Path, files: dict[str, str]
) -> None:
    root = written(tmp_path / "p", files)
    library = installed(root, stub=files is DMYPY)
    daemon = daemon_of(root, tmp_path)  # warm across the steps, as lspd's daemon
    texts = held(root)
    runner = asyncio.Runner()  # one loop: mypy's forking holder lives on it

    async def errors(asking: Dmypy) -> list[tuple[str, int, int, str | None, str]]:
        found = await asking.check([], texts)
        return sorted(shown(root, parse(found, root, asking.mirror.directory)))

    async def fresh() -> list[tuple[str, int, int, str | None, str]]:
        asking = daemon_of(root, tmp_path)  # the next process: its kept answer, if any
        try:
            return await errors(asking)
        finally:
            await asking.stop()

    clean = cli_errors(root)
    assert [e for e in clean if e[0] == "app/main.py"] == []
    try:
        assert runner.run(errors(daemon)) == sorted(clean)
        for text, truth in ((STR, WRONG), (INT, []), (STR, WRONG), (INT, [])):
            in_place(library, text)
            wanted = cli_errors(root)
            assert [e for e in wanted if e[0] == "app/main.py"] == truth
            assert (runner.run(errors(daemon)), runner.run(fresh())) == (sorted(wanted),) * 2
    finally:
        runner.run(daemon.stop())
        runner.close()


def test_check_since_head_after_a_dependency_edited_and_restored(tmp_path: Path) -> None:
    root = written(tmp_path / "p", ONCE)
    library = installed(root, stub=False)
    committed(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and first.introduced == []
        in_place(library, STR)
        now = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.code) for d in now.diagnostics if d.path == "app/main.py"] == [
            ("app/main.py", 3, "assignment")
        ]
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None and (since.introduced, since.fixed) == ([], [])
        assert "the toolchain changed since its result was made" in since.scope
        in_place(library, INT)  # restored: no phantom of the edited state's answer
        now = warm.run(workspace_diagnostics(warm.ws))
        assert [d for d in now.diagnostics if d.path == "app/main.py"] == []
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None and (since.introduced, since.fixed) == ([], [])
