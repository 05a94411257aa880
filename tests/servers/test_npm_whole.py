"""A server npm did not finish installing is missing (`servers/npm_whole.py`): an install
killed after it wrote the server's script and before its lockfile left a package that was
taken as installed. Real npm, killed midway, then lspd's install on first need."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from pathlib import Path

import pytest

from lspd.servers.install import _npm_cli, install_on_need
from lspd.servers.npm_whole import LOCKFILE, package_name, unfinished
from lspd.servers.registry import definitions, node_executable
from lspd.workspace.pyright_gate import PYRIGHT_DEFAULT, lspd_pyright


def test_a_spec_names_its_package() -> None:
    assert package_name("pyright@1.1.411") == "pyright"
    assert package_name("typescript@^7") == "typescript"
    assert package_name("@scope/x@^1") == "@scope/x"
    assert package_name("@scope/x") == "@scope/x"


def test_a_package_the_lockfile_does_not_name_is_unfinished(tmp_path: Path) -> None:
    specs = ["typescript-language-server@^6", "typescript@^5"]
    assert unfinished(tmp_path, specs) == [
        tmp_path / "typescript-language-server",
        tmp_path / "typescript",
    ]
    lock = {"packages": {"node_modules/typescript": {"version": "5.9.3"}}}
    (tmp_path / LOCKFILE).write_text(json.dumps(lock))
    assert unfinished(tmp_path, specs) == [tmp_path / "typescript-language-server"]
    (tmp_path / LOCKFILE).write_text("{not json")
    assert len(unfinished(tmp_path, specs)) == 2


def test_an_install_killed_midway_is_installed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path))
    pyright = lspd_pyright(definitions()["pyright"], PYRIGHT_DEFAULT)
    root = pyright.npm_root()
    root.parent.mkdir(parents=True)
    script = root / "pyright" / "langserver.index.js"
    command = [node_executable(), _npm_cli(), "install", "--prefix", str(root.parent)]
    npm = subprocess.Popen([*command, "--no-audit", "--no-fund", f"pyright@{PYRIGHT_DEFAULT}"])
    try:
        while not script.exists():  # written long before npm ends: polled, npm gives no sign
            assert npm.poll() is None, "npm ended before writing the script"
            time.sleep(0.005)
    finally:
        npm.kill()
        npm.wait()
    assert script.exists() and not (root / LOCKFILE).exists()
    assert pyright.missing() == f"{root / 'pyright'} was left half-installed (npm did not finish)"

    asyncio.run(install_on_need(pyright))
    assert pyright.missing() is None
    ran = subprocess.run(
        [node_executable(), str(root / "pyright" / "index.js"), "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip().startswith(f"pyright {PYRIGHT_DEFAULT}")
