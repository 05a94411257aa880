"""A table mypy's plugins read of its configuration file (pydantic's `[tool.pydantic-mypy]`)
edited under a warm dmypy: dmypy's restart compares its options and its plugins' files, not
those tables, and its plugins keep what they read at its start (a warm check said 0 errors
where mypy's own run, init_typed made true, says 1). lspd ends the daemon then
(`mypy_config_read.replugged`). mypy 2.4.1 and pydantic 2.12.5, against mypy's own run."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace import Workspace
from lspd.workspace.mypy_config_read import found_in, names_found, plugins_read
from tests.engine.test_config_parts import MODEL, PLUGGED, PYDANTIC_PINNED
from tests.workspace.mypy_env import MYPY_PINNED, cli_errors, environment, project


def test_a_plugins_table_edited_under_a_warm_daemon_is_read(tmp_path: Path) -> None:
    env = environment(
        f"mypy-{MYPY_PINNED}-pydantic-{PYDANTIC_PINNED}",
        f"mypy=={MYPY_PINNED}",
        f"pydantic=={PYDANTIC_PINNED}",
    )
    files = {"pyproject.toml": PLUGGED, "app/__init__.py": "", "app/main.py": MODEL}
    root = project(tmp_path / "p", files, env)

    async def main() -> list[list[tuple[str, int, str | None]]]:
        ws = Workspace(root, log_dir=root.parent / "logs")
        said = []
        try:
            for text in (PLUGGED, PLUGGED.replace("false", "true"), PLUGGED):
                (root / "pyproject.toml").write_text(text)
                found = await workspace_diagnostics(ws)
                said.append([(d.path, d.line, d.code) for d in found.diagnostics])
                truth = [(f, line, code) for f, line, _, code, _ in cli_errors(root)]
                assert said[-1] == truth
        finally:
            await ws.close()
        return said

    typed = [("app/main.py", 8, "arg-type")]
    assert asyncio.run(main()) == [[], typed, []]


def test_what_plugins_read() -> None:
    """pyproject's tool tables where mypy names plugins (not [project]); an ini file's text;
    nothing without plugins, or where mypy reads another file first."""
    texts = {"pyproject.toml": PLUGGED.encode()}
    read = plugins_read(texts, "", (2, 4, 1))
    assert "'pydantic-mypy': {'init_typed': False}" in read
    assert plugins_read({"pyproject.toml": PLUGGED.replace("0.1", "0.2").encode()}, "", None)
    assert read == plugins_read(
        {"pyproject.toml": PLUGGED.replace("0.1", "0.2").encode()}, "", (2,)
    )
    unplugged = PLUGGED.replace('plugins = ["pydantic.mypy"]\n', "")
    assert plugins_read({"pyproject.toml": unplugged.encode()}, "", (2,)) == ""
    ini = "[mypy]\nplugins = pydantic.mypy\n\n[pydantic-mypy]\ninit_typed = True\n"
    assert plugins_read({"sub/mypy.ini": ini.encode()}, "sub", (2,)) == ini
    shadowed = {"mypy.ini": b"[mypy]\nstrict = True\n", **texts}
    assert plugins_read(shadowed, "", (2,)) == ""


def test_the_file_mypy_finds_passes_over_one_it_cannot_parse(tmp_path: Path) -> None:
    """mypy says what is wrong with a broken pyproject.toml and reads on: setup.cfg's
    `[mypy]` is what it checks with (its strict error below). lspd read the broken file as
    the one found, so `--config-file=setup.cfg` named "another"."""
    env = environment(f"mypy-{MYPY_PINNED}", f"mypy=={MYPY_PINNED}")
    files = {"app.py": "def f(a): return a\n", "pyproject.toml": "[tool.mypy\n"}
    root = project(tmp_path / "p", {**files, "setup.cfg": "[mypy]\nstrict = true\n"}, env)
    run = [str(env / "bin" / "mypy"), "--no-incremental", "app.py"]
    said = subprocess.run(run, cwd=root, capture_output=True, text=True, check=False)
    assert "[no-untyped-def]" in said.stdout and "pyproject.toml:" in said.stderr
    assert found_in(root) == "setup.cfg"
    assert names_found(root, "./setup.cfg") and not names_found(root, "pyproject.toml")


def test_a_fifo_where_a_configuration_is_looked_for_is_not_read(tmp_path: Path) -> None:
    """Reading it would block the daemon until something writes into it."""
    os.mkfifo(tmp_path / "mypy.ini")
    (tmp_path / "setup.cfg").write_text("[mypy]\n")
    assert found_in(tmp_path) == "setup.cfg"


def test_a_tool_that_is_no_table_holds_no_mypy_section(tmp_path: Path) -> None:
    """mypy asks `"mypy" in tool` and reads on; lspd raised AttributeError."""
    (tmp_path / "pyproject.toml").write_text('tool = "x"\n')
    assert found_in(tmp_path) is None and names_found(tmp_path, "setup.cfg")
