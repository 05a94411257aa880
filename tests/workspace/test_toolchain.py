"""The project's own toolchain answers: its TypeScript, its Python environment, its checker."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lspd import ops
from lspd.lsp.interpreter_ask import is_script
from lspd.ops import file_diagnostics
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from lspd.workspace.toolchain import Toolchain, settle, settler
from tests.workspace.toolchains import TS_PINNED, make_venv, tsc, typescript_package

FILTER = """\
const xs = [1, "a", 2].filter((x) => typeof x === "number");
export const n: number[] = xs;
"""


def _ts_project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(
        json.dumps({"name": "pinned", "devDependencies": {"typescript": TS_PINNED}})
    )
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": {"strict": True, "noEmit": True}, "include": ["src"]})
    )
    (root / "src" / "main.ts").write_text(FILTER)
    return root


async def _diagnostics(root: Path, path: str, **options: object) -> ops.models.DiagnosticsResult:
    ws = Workspace(root, log_dir=root.parent / "logs", **options)  # type: ignore[arg-type]
    try:
        return await file_diagnostics.diagnostics(ws, path)
    finally:
        await ws.close()


def test_the_projects_pinned_typescript_answers_like_its_tsc(tmp_path: Path) -> None:
    root = _ts_project(tmp_path / "pinned")
    (root / "node_modules").mkdir()
    # pnpm's layout: node_modules/typescript is a symlink into a store.
    (root / "node_modules" / "typescript").symlink_to(typescript_package())
    gate = tsc(root)
    assert "src/main.ts(2,14): error TS2322" in gate

    result = asyncio.run(_diagnostics(root, "src/main.ts"))
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(2, 14, "2322")]
    assert result.toolchain == f"typescript {TS_PINNED}, project"


def test_without_a_project_typescript_lspd_uses_its_own(tmp_path: Path) -> None:
    root = _ts_project(tmp_path / "bare")
    result = asyncio.run(_diagnostics(root, "src/main.ts"))
    assert result.errors == 0  # TypeScript >= 5.5 infers the filter's type predicate
    assert result.toolchain is not None and result.toolchain.endswith(", lspd")


def test_restricted_mode_ignores_the_projects_typescript(tmp_path: Path) -> None:
    root = _ts_project(tmp_path / "restricted")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package())
    result = asyncio.run(_diagnostics(root, "src/main.ts", restricted=True))
    assert result.errors == 0
    assert result.toolchain is not None and result.toolchain.endswith(", lspd")


USES_HUMANIZE = """\
import humanize

size: str = humanize.naturalsize(1024)
wrong: int = humanize.naturalsize(1024)
"""


def _py_project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "uses-humanize"\nversion = "0"\n')
    (root / "app.py").write_text(USES_HUMANIZE)
    return root


@pytest.fixture(scope="module")
def humanize_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An environment holding `humanize`, which lspd's own environment lacks."""
    where = tmp_path_factory.mktemp("envs") / "humanize"
    make_venv(where, "humanize==4.11.0")
    return where


def test_the_projects_venv_resolves_its_imports(tmp_path: Path, humanize_env: Path) -> None:
    with pytest.raises(ImportError):
        __import__("humanize")
    root = _py_project(tmp_path / "proj")
    (root / "venv").symlink_to(humanize_env)
    result = asyncio.run(_diagnostics(root, "app.py"))
    assert [(d.line, d.code) for d in result.diagnostics] == [(4, "reportAssignmentType")]
    assert result.environment is None
    assert result.toolchain == f"python {_version(humanize_env)} {root}/venv/bin/python, project"


def test_lspd_toml_python_may_point_outside_the_root(tmp_path: Path, humanize_env: Path) -> None:
    root = _py_project(tmp_path / "proj")
    (root / "lspd.toml").write_text(f'python = "{os.path.relpath(humanize_env, root)}"\n')
    result = asyncio.run(_diagnostics(root, "app.py"))
    assert [(d.line, d.code) for d in result.diagnostics] == [(4, "reportAssignmentType")]
    assert result.toolchain is not None and result.toolchain.endswith(", lspd.toml")


def test_unresolved_imports_say_which_interpreter_answered(tmp_path: Path) -> None:
    root = _py_project(tmp_path / "proj")
    make_venv(root / ".venv")
    result = asyncio.run(_diagnostics(root, "app.py"))
    assert "reportMissingImports" in {d.code for d in result.diagnostics}
    assert result.environment is not None
    assert f"{root}/.venv/bin/python" in result.environment
    assert "lspd.toml" in result.environment


def test_restricted_mode_does_not_send_the_user_to_lspd_toml(tmp_path: Path) -> None:
    # Restricted mode ignores lspd.toml's python (and the project's .venv): the hint says
    # so instead of suggesting it.
    root = _py_project(tmp_path / "proj")
    make_venv(root / ".venv")
    result = asyncio.run(_diagnostics(root, "app.py", restricted=True))
    assert "reportMissingImports" in {d.code for d in result.diagnostics}
    assert result.environment is not None and result.toolchain is not None
    assert result.toolchain.endswith(", PATH") and ".venv" not in result.environment
    assert result.environment.startswith(f"imports did not resolve with {result.toolchain}: ")
    assert "restricted mode" in result.environment and "set `python" not in result.environment


def test_the_projects_own_basedpyright_runs(tmp_path: Path) -> None:
    root = _py_project(tmp_path / "proj")
    make_venv(root / ".venv", "basedpyright==1.39.0")

    async def run() -> tuple[ops.models.DiagnosticsResult, str]:
        ws = Workspace(root, log_dir=root.parent / "logs")
        try:
            result = await file_diagnostics.diagnostics(ws, "app.py")
            (session,) = ws.sessions.values()
            assert session.pid is not None
            cmdline = Path(f"/proc/{session.pid}/cmdline").read_bytes().replace(b"\0", b" ")
            return result, cmdline.decode()
        finally:
            await ws.close()

    result, cmdline = asyncio.run(run())
    assert f"{root}/.venv/bin/basedpyright-langserver" in cmdline
    assert result.toolchain is not None and result.toolchain.endswith(", its own server")


def _version(env: Path) -> str:
    for line in (env / "pyvenv.cfg").read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "version":
            return value.strip()
    raise AssertionError("no version in pyvenv.cfg")


def test_a_python3_shim_on_path_is_asked_once_which_interpreter_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pyenv's, asdf's or mise's `python3` is a script choosing an interpreter per directory;
    lspd asks it once, in the project, and hands basedpyright the interpreter it named."""
    real = Path(sys.executable)
    shims, ran = tmp_path / "shims", tmp_path / "shim-ran"
    shims.mkdir()
    shim = shims / "python3"
    shim.write_text(f'#!/bin/sh\necho "$PWD" >> {ran}\nexec {real} "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    root = _py_project(tmp_path / "proj")

    async def run() -> tuple[ops.models.DiagnosticsResult, object]:
        ws = Workspace(root, log_dir=root.parent / "logs")
        try:
            result = await file_diagnostics.diagnostics(ws, "app.py")
            (session,) = ws.sessions.values()
            return result, session.definition.settings["python"]["pythonPath"]
        finally:
            await ws.close()

    result, python_path = asyncio.run(run())
    assert python_path == sys.executable
    version = ".".join(map(str, sys.version_info[:3]))
    assert result.toolchain == f"python {version} {real}, PATH"
    # Once, by lspd, in the project: basedpyright ran the interpreter itself, not the shim.
    assert ran.read_text().splitlines() == [str(root)]
    assert "reportMissingImports" in {d.code for d in result.diagnostics}  # no humanize there


def test_an_interpreter_on_path_is_not_run_to_settle_it(tmp_path: Path) -> None:
    definition = definitions()["basedpyright"]
    real = Path(sys.executable).resolve()  # a binary, not a script
    found = Toolchain("python", real, None, "PATH")
    assert not is_script(real)
    assert settle(definition, found, tmp_path) == (definition, found)


def test_a_shim_still_chooses_per_project_in_a_shared_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Like pyenv's `.python-version`, a `.which` file picks the environment for the tree
    below it: the nested project (a folder of the same basedpyright) gets its own, since
    only the root's folder is handed the interpreter lspd asked the shim for."""
    for name in ("a", "b"):
        env = tmp_path / f"env-{name}"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
        site = next((env / "lib").glob("python*/site-packages"))
        (site / f"only{name}.py").write_text("X = 1\n")
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "python3"
    shim.write_text(
        "#!/bin/sh\n"
        'd="$PWD"\n'
        'while [ "$d" != "/" ]; do\n'
        f'  [ -f "$d/.which" ] && exec "{tmp_path}/env-$(cat "$d/.which")/bin/python" "$@"\n'
        '  d=$(dirname "$d")\n'
        "done\n"
        f'exec {sys.executable} "$@"\n'
    )
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    root = tmp_path / "ws"
    (root / "b").mkdir(parents=True)
    for where, name in ((root, "a"), (root / "b", "b")):
        (where / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "0"\n')
        (where / ".which").write_text(name)
    (root / "app.py").write_text("import onlya\n")
    (root / "b" / "main.py").write_text("import onlyb\n")

    async def run() -> tuple[set[str], set[str], int]:
        ws = Workspace(root, log_dir=tmp_path / "logs")
        try:
            a = await file_diagnostics.diagnostics(ws, "app.py")
            b = await file_diagnostics.diagnostics(ws, "b/main.py")
            return (
                {d.code or "" for d in a.diagnostics},
                {d.code or "" for d in b.diagnostics},
                len(ws.sessions),
            )
        finally:
            await ws.close()

    a_codes, b_codes, sessions = asyncio.run(run())
    assert sessions == 1
    assert "reportMissingImports" not in a_codes | b_codes  # each found its own module


def test_each_start_settles_from_the_definition_as_made(tmp_path: Path) -> None:
    """A restart asks the shim again; when it cannot say any more, the server gets the
    shim (and asks it itself), not the interpreter of the run before."""
    shim = tmp_path / "python3"
    ran = tmp_path / "ran"
    shim.write_text(f'#!/bin/sh\n[ -f {ran} ] && exit 1\ntouch {ran}\nexec {sys.executable} "$@"\n')
    shim.chmod(0o755)
    base = definitions()["basedpyright"]
    made = dataclasses.replace(
        base, settings={**base.settings, "python": {"pythonPath": str(shim)}}
    )
    run = settler(made, Toolchain("python", shim, None, "PATH"), tmp_path)
    assert run is not None

    async def twice() -> list[tuple[object, str]]:
        return [
            (definition.settings["python"]["pythonPath"], label)
            for definition, label in [await run(), await run()]
        ]

    version = ".".join(map(str, sys.version_info[:3]))
    assert asyncio.run(twice()) == [
        (sys.executable, f"python {version} {sys.executable}, PATH"),
        (str(shim), f"python {shim}, PATH"),
    ]
