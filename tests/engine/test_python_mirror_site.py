"""A src-layout project installed editable into its own `.venv` (the `.pth` naming `src/`
that `pip install -e .` with hatchling, or setuptools' src-layout, writes): a preview
deleting or renaming a module is answered on basedpyright's copy as basedpyright's CLI
answers the tree holding the change (`python_mirror_site`: the copy's interpreter's
`sys.path` holds the copy's `src/`). Before, the copy's server found the disk's module
through the `.pth`: 2 new (`Stub file not found for "pkg.helper"`) where the CLI says 7.
Real basedpyright, one-shot and kept warm in a daemon."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lspd.engine.python_mirror_site import copy_definition, site_of
from lspd.ops.preview import previewed
from lspd.servers.registry import definitions
from lspd.workspace.kept_copy import Wanted
from tests.conftest import answer
from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import cli, preview, rows

MISSING = "reportMissingImports"
HELPER = "def helper() -> int:\n    return 1\n"
FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "0.1"\n\n[tool.pyright]\n'
    'include = ["src"]\n',
    "src/pkg/__init__.py": "",
    "src/pkg/helper.py": HELPER,
    "src/pkg/user.py": "from pkg.helper import helper\n\n\ndef use() -> int:\n"
    "    return helper()\n",
    "src/pkg/dotted.py": "import pkg.helper\n\nx: int = pkg.helper.helper()\n",
}
CHANGES: dict[str, dict[str, str | None]] = {
    "deleted": {"src/pkg/helper.py": None},
    "renamed": {"src/pkg/helper.py": None, "src/pkg/helper2.py": HELPER},
}


def editable(root: Path, absolute: bool = False) -> Path:
    """`FILES` in `root`, its own `.venv` (no pip) with the project installed editable as
    hatchling does (`_editable_impl_pkg.pth` naming `src/`); `absolute`: its pyright
    configuration naming `src/` by its absolute path too (`extraPaths`)."""
    root = written(root, FILES)
    if absolute:
        with (root / "pyproject.toml").open("a") as config:
            config.write(f'extraPaths = ["{root / "src"}"]\n')
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "_editable_impl_pkg.pth").write_text(f"{root / 'src'}\n")
    return root


# the change, and whether the configuration names src/ by its absolute path (before, the
# copy's configuration named the disk's src/: 0 new where the CLI says 7)
CASES = [
    pytest.param(CHANGES["deleted"], False, id="deleted"),
    pytest.param(CHANGES["renamed"], False, id="renamed"),
    pytest.param(CHANGES["deleted"], True, id="deleted-absolute-extraPaths"),
]


@pytest.mark.parametrize(("change", "absolute"), CASES)
def test_a_preview_of_an_editable_installs_module_gone_is_the_clis(
    tmp_path: Path, change: dict[str, str | None], absolute: bool
) -> None:
    root = editable(tmp_path / "proj", absolute)
    python = ("--pythonpath", str(root / ".venv/bin/python"))
    assert cli(root, *python) == []
    items = [{"path": name, "content": text} for name, text in change.items()]
    once = answer(root, lambda ws: previewed(ws, items)).changes  # a one-shot's copy
    for warm in watched(root, tmp_path / "logs"):
        kept = preview(warm, change)  # the daemon's kept copy
    for name, text in change.items():
        if text is None:
            (root / name).unlink()
        else:
            (root / name).write_text(text)
    expected = cli(root, *python)
    missing = [(p, line, col) for p, line, col, rule, _ in expected if rule == MISSING]
    assert (missing, len(expected)) == ([("src/pkg/dotted.py", 1, 8), ("src/pkg/user.py", 1, 6)], 7)
    assert rows(once.introduced) == rows(kept.introduced) == expected


def test_the_copys_server_runs_with_the_sitecustomize_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its `PYTHONPATH`: the copy's `sitecustomize` folder (beside the copy, outside it),
    then lspd's own `PYTHONPATH`; the `sitecustomize` names the project and its copy."""
    definition = definitions()["basedpyright"]
    copy = tmp_path / "state/python-copy-kept"
    root = tmp_path / "proj"
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = copy_definition(definition, root, copy, Wanted()).env
    site = site_of(copy)
    assert env == {**definition.env, "PYTHONPATH": f"{site}{os.pathsep}/elsewhere"}
    assert not site.is_relative_to(copy)
    assert (site / "copy.json").read_text() == f'["{root}", "{copy}"]'
    assert (site / "sitecustomize.py").is_file()
