"""A real mypy for the tests: a virtual environment holding the pinned mypy (made once under
lspd's cache, from the package registry), and small mypy-gated projects using it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

from lspd.dirs import cache_dir
from tests.installed_once import installing

MYPY_PINNED = "2.4.1"
RICH_PINNED = "13.9.4"
# A strict project: two errors, one with notes, one in a module its caller imports.
STRICT = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
    "app/__init__.py": "",
    "app/shapes.py": (
        "def area(width: int, height: int) -> int:\n"
        "    return width * height\n"
        "\n"
        "\n"
        "def unused(x):\n"
        "    return x\n"
    ),
    "app/main.py": (
        "from app.shapes import area\n"
        "\n"
        "\n"
        "def run() -> int:\n"
        "    return area(2, 3)\n"
        "\n"
        "\n"
        'count: int = "three"\n'
        "import attr\n"
    ),
}


def environment(name: str, *packages: str, base: str = sys.executable) -> Path:
    """A virtual environment holding `packages`, made once under lspd's cache (of the
    interpreter `base`, lspd's own by default); its root."""
    env = cache_dir() / "tests" / name
    python = env / "bin" / "python"
    done = env / "lspd-installed"
    with installing(env):
        if not done.is_file():
            subprocess.run([base, "-m", "venv", "--clear", str(env)], check=True, timeout=120)
            if packages:
                pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
                subprocess.run(
                    [*pip, *packages],
                    check=True,
                    timeout=900,
                    capture_output=True,
                )
            done.write_text("\n".join(packages))
    return env


def mypy_env() -> Path:
    """An environment with the pinned mypy (and rich's dependencies, for its release)."""
    return environment(f"mypy-{MYPY_PINNED}", f"mypy=={MYPY_PINNED}", "markdown-it-py", "pygments")


def project(root: Path, files: dict[str, str], env: Path | None = None) -> Path:
    """`files` written under `root`, with `.venv` linking to `env` (the mypy one by default)."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    os.symlink(env or mypy_env(), root / ".venv")
    return root.resolve()


def mypy_ran(
    root: Path, *args: str, cwd: Path | None = None, exits: tuple[int, ...] = (0, 1)
) -> subprocess.CompletedProcess[str]:
    """The project's own `mypy -O json` (its CI: `args`, else its configuration's files),
    run in `root` (or `cwd`: a project nested in it, as its users run it), its cache outside
    it, asserted to exit with one of `exits` (2: stopped at a blocking error, an answer)."""
    done = subprocess.run(
        [str(root / ".venv" / "bin" / "mypy"), "-O", "json", "--cache-dir", os.devnull, *args],
        cwd=cwd or root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in exits, done.stderr + done.stdout
    return done


def mypy_cli(
    root: Path, *args: str, cwd: Path | None = None, exits: tuple[int, ...] = (0, 1)
) -> list[dict[str, object]]:
    """`mypy_ran`'s errors and notes, its JSON lines read."""
    done = mypy_ran(root, *args, cwd=cwd, exits=exits)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def cli_errors(
    root: Path, *args: str, cwd: Path | None = None
) -> list[tuple[str, int, int, str | None, str]]:
    """The errors of the project's own `mypy` (its CI: `args`, else its configuration's
    files; run in `cwd`, else `root`) as (file, line, 1-based column, code, message)."""
    found = mypy_cli(root, *args, cwd=cwd)
    return [
        (
            str(e["file"]),
            int(str(e["line"])),
            max(int(str(e["column"])) + 1, 1),  # -1, mypy's "no column": lspd's 1
            _code(e),
            str(e["message"]),
        )
        for e in found
        if e["severity"] == "error"
    ]


def _code(error: dict[str, object]) -> str | None:
    return None if error["code"] is None else str(error["code"])


def rich_release(destination: Path) -> Path:
    """rich's source release at the pinned version (its sdist: pyproject's [tool.mypy] and
    the `rich` package), unpacked under `destination`."""
    return source_release("rich", RICH_PINNED, cache_dir() / "tests", destination).resolve()


def source_release(
    name: str, version: str, kept: Path, destination: Path, timeout: float = 300
) -> Path:
    """`name`'s source release at `version` (its sdist, downloaded once into `kept`),
    unpacked under `destination`: its folder."""
    archive = kept / f"{name}-{version}.tar.gz"
    with installing(archive):
        if not archive.is_file():
            kept.mkdir(parents=True, exist_ok=True)
            download = [sys.executable, "-m", "pip", "download", "--no-deps"]
            download += ["--no-binary", ":all:"]
            subprocess.run(
                [*download, "-d", str(kept), f"{name}=={version}"],
                check=True,
                timeout=timeout,
                capture_output=True,
            )
    with tarfile.open(archive) as tar:
        tar.extractall(destination, filter="data")
    return destination / f"{name}-{version}"
