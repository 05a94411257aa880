"""A src-layout project installed editable into its own environment (the `.pth` file an
editable install writes, naming the project's `src/`): mypy in lspd's copy reads the
copy's `src/`, not the disk's, however it reaches it (`mypy_site`). On a real mypy, against
the project's own `mypy` run on the disk holding the same texts."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from lspd.engine.mypy_check import MypyRun, run_mypy
from lspd.engine.mypy_project import project_of
from lspd.workspace import Workspace
from lspd.workspace.mypy_server import ran
from lspd.workspace.mypy_site import placed
from tests.conftest import answer
from tests.ops.test_mypy_held_files import mypy_113
from tests.workspace.mypy_env import mypy_env

CORE = (
    "from app.errors import Missing\n"
    "\n"
    "\n"
    "class Box:\n"
    "    def __init__(self, size: int) -> None:\n"
    "        self.size = size\n"
    "\n"
    "\n"
    "def find(size: int) -> Box:\n"
    "    if size < 0:\n"
    "        raise Missing()\n"
    "    return Box(size)\n"
)
LAYOUT = {
    "src/app/__init__.py": "",
    "src/app/py.typed": "",
    "src/app/errors.py": "class Missing(Exception):\n    pass\n",
    "src/app/core.py": CORE,
    "tests/typing/use.py": "from app.core import Box, find\n\nbox: Box = find(1)\nother = Box(2)\n",
}
# the constructor given a second required parameter: `Box(2)` breaks in tests/typing
REQUIRED = CORE.replace("size: int) -> None", "size: int, name: str) -> None").replace(
    "Box(size)", 'Box(size, "")'
)
Error = tuple[str, int, str | None]


def editable(root: Path, files: dict[str, str], config: str, env: Path) -> Path:
    """`files` and the mypy `config` under `root`, its own `.venv` (no pip) reaching the
    pinned mypy of `env` through a `.pth`, the project installed editable into it as hatchling
    does (`_editable_impl_app.pth` naming `src/`)."""
    for name, text in {**files, "pyproject.toml": config}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site = venv / "lib" / version / "site-packages"
    shared = Path(sysconfig.get_path("purelib", vars={"base": str(env)}))
    (site / "mypy.pth").write_text(f"{shared}\n")
    (site / "_editable_impl_app.pth").write_text(f"{root.resolve() / 'src'}\n")
    return root.resolve()


def truth(root: Path, interpreter: Path | None = None) -> set[Error]:
    """The project's own `mypy` on the disk, cold (run by `interpreter`: its `.venv`'s)."""
    python = interpreter or root / ".venv/bin/python"
    done = subprocess.run(
        [str(python), "-m", "mypy", "-O", "json", "--cache-dir", os.devnull],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {(e["file"], e["line"], e["code"]) for e in found if e["severity"] == "error"}


def ours(run: MypyRun, root: Path) -> set[Error]:
    return {
        (e.path.relative_to(root).as_posix(), e.line, e.code)
        for errors in run.errors.values()
        for e in errors
    }


async def _asked(ws: Workspace, texts: dict[Path, str | None] | None = None) -> MypyRun:
    judged = project_of(ws, ws.root / "tests/typing/use.py")
    assert judged is not None
    return await run_mypy(ws, judged, texts)


MYPYS = {"mypy-2.4": mypy_env, "mypy-1.13": mypy_113}
CONFIGS = {
    "src-and-tests": (
        '[tool.mypy]\nstrict = true\nmypy_path = "src"\nfiles = ["src/app", "tests/typing"]\n'
    ),
    "tests-alone": '[tool.mypy]\nstrict = true\nfiles = ["tests/typing"]\n',
}


@pytest.mark.parametrize("mypy", MYPYS.values(), ids=MYPYS.keys())
@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_a_module_held_deleted_is_not_found_on_the_disk(
    tmp_path: Path, config: str, mypy: Callable[[], Path]
) -> None:
    """The copy holding src/app/errors.py deleted: mypy's import-not-found, as mypy says
    with the file deleted on the disk (it found the disk's through the `.pth`: 0)."""
    root = editable(tmp_path / "proj", LAYOUT, config, mypy())
    errors = root / "src/app/errors.py"

    async def ask(ws: Workspace) -> tuple[set[Error], set[Error]]:
        before = ours(await _asked(ws), root)
        return before, ours(await _asked(ws, {errors: None}), root)

    before, held = answer(root, ask)
    assert before == truth(root) == set()
    errors.unlink()
    expected = truth(root)
    assert held == expected
    # tests-alone: src/ is reached through the `.pth` alone, an installed package's
    # errors silenced
    silenced = "mypy_path" not in config
    assert expected == (set() if silenced else {("src/app/core.py", 1, "import-not-found")})


@pytest.mark.parametrize("mypy", MYPYS.values(), ids=MYPYS.keys())
@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_an_edit_of_the_package_reached_through_the_pth_is_read(
    tmp_path: Path, config: str, mypy: Callable[[], Path]
) -> None:
    """The copy holding src/app/core.py's constructor given a required parameter (the
    examiner's F1: `files = ["tests/typing"]`, src/ reached through the editable `.pth`
    alone): tests/typing/use.py's call-arg, as mypy says with the edit on the disk, held
    first on a warm daemon, then written on the disk."""
    root = editable(tmp_path / "proj", LAYOUT, config, mypy())
    core = root / "src/app/core.py"

    async def ask(ws: Workspace) -> list[set[Error]]:
        said = [ours(await _asked(ws), root), ours(await _asked(ws, {core: REQUIRED}), root)]
        said.append(ours(await _asked(ws), root))  # the disk's again
        core.write_text(REQUIRED)
        return [*said, ours(await _asked(ws), root)]

    before, held, again, written = answer(root, ask)
    assert before == again == set()
    expected = truth(root)
    assert expected == {("tests/typing/use.py", 4, "call-arg")}
    assert held == written == expected


@pytest.mark.parametrize("own", [False, True], ids=["alone", "the-environment's-own"])
def test_a_mypy_run_through_the_sitecustomize_prints_nothing_of_its_own(
    tmp_path: Path, own: bool
) -> None:
    """mypy run as lspd runs it in a copy of the project (`mypy_server.ran`, the
    `sitecustomize` first on its PYTHONPATH) reads the copy's src/ through the editable
    `.pth` (its constructor given a required parameter: use.py's call-arg, as mypy says
    with that text on the disk) with an empty stderr; the environment's own
    `sitecustomize`, where it has one, is still run. Before, without one: `Error in
    sitecustomize; set PYTHONVERBOSE for traceback:` / `KeyError: 'sitecustomize'` on
    every run's stderr."""
    config = CONFIGS["tests-alone"]
    root = editable(tmp_path / "proj", LAYOUT, config, mypy_env())
    copy = tmp_path / "state/copy"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".venv"))
    (copy / "src/app/core.py").write_text(REQUIRED)
    users = tmp_path / "state/users"
    placed(users, root, copy)
    (site,) = (root / ".venv").glob("lib/python*/site-packages")
    marker = tmp_path / "own-ran"
    if own:
        (site / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    argv = ["-O", "json", "--cache-dir", os.devnull]
    interpreter = root / ".venv/bin/python"
    status, out, err = asyncio.run(ran(interpreter, "mypy", argv, copy, users=users))
    assert (status, err) == (1, "")
    said = {(e["file"], e["line"], e["code"]) for e in map(json.loads, out.splitlines())}
    assert said == {("tests/typing/use.py", 4, "call-arg")}
    assert marker.is_file() == own
    (root / "src/app/core.py").write_text(REQUIRED)
    assert truth(root) == said
