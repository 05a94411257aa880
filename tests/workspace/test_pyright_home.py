"""A folder whose pyproject.toml has no pyright table is served from the directory of the
configuration basedpyright reads for it (above), as its CLI run there checks the files:
mcp 2.3.0's shape (src/mcp and src/mcp-types/mcp_types in the root's include, an editable
install's .pth putting src and src/mcp-types on the path, py.typed), on a real basedpyright
against its CLI."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

from lspd.ops.check import check_all
from lspd.workspace.pyright_home import configuration_home
from tests.basedpyright_cli import diagnostics, relative, start
from tests.conftest import answer

Said = set[tuple[str, int, int, str, str]]

ROOT_CONFIG = """[project]
name = "pkg"
version = "0"

[tool.pyright]
include = ["src/pkg", "src/other/other_pkg"]
venvPath = "."
venv = ".venv"
extraPaths = ["examples"]
"""


def project(root: Path) -> Path:
    """The tree, with its .venv holding the editable install's .pth."""
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "other" / "other_pkg").mkdir(parents=True)
    (root / "examples").mkdir()  # extraPaths named: no `src` added by autoSearchPaths
    (root / "pyproject.toml").write_text(ROOT_CONFIG)
    (root / "src" / "other" / "pyproject.toml").write_text('[project]\nname = "other"\n')
    for package in (root / "src" / "pkg", root / "src" / "other" / "other_pkg"):
        (package / "__init__.py").write_text("")
        (package / "py.typed").write_text("")
    (root / "src" / "pkg" / "base.py").write_text("class Resource:\n    pass\n")
    (root / "src" / "pkg" / "types.py").write_text(
        "from pkg.base import Resource\n\n\nclass FunctionResource(Resource):\n    pass\n"
    )
    (root / "src" / "pkg" / "templates.py").write_text(
        "from pkg.types import FunctionResource, Resource\n\n"
        "x: list[type[Resource]] = [FunctionResource]\n"
    )
    (root / "src" / "other" / "other_pkg" / "mod.py").write_text("x: int = 1\n")
    venv = root / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    version = sysconfig.get_python_version()
    site = venv / "lib" / f"python{version}" / "site-packages"
    (site / "_pkg.pth").write_text(f"{root / 'src'}\n{root / 'src' / 'other'}\n")
    return root


def cli(root: Path) -> Said:
    """basedpyright's CLI (lspd's) run at the configuration's directory."""
    return {(relative(d, root), *start(d), d["severity"], d["rule"]) for d in diagnostics(root)}


def answered_as_the_cli(root: Path) -> None:
    """lspd's check of the tree says what the CLI run at the root says (templates.py's
    reportPrivateImportUsage alone), src/other's file asked."""
    truth = cli(root)
    assert truth == {("src/pkg/templates.py", 1, 41, "warning", "reportPrivateImportUsage")}
    result = answer(root, check_all)
    said = {(d.path, d.line, d.column, d.severity, d.code) for d in result.everything}
    assert said == truth
    assert "src/other/other_pkg/mod.py" in {str(p.relative_to(root)) for p in result.asked}


def test_a_nested_package_without_a_pyright_table_leaves_the_root_s_answers(
    tmp_path: Path,
) -> None:
    """The check asks src/other/other_pkg's files: their folder, src/other, was given
    basedpyright, which took the root's configuration there rooted at src/other and
    answered every file of it from that folder: templates.py's private import from a
    py.typed package was reportPrivateLocalImportUsage (off in strict: mcp's error gone)
    where the CLI says reportPrivateImportUsage."""
    root = project(tmp_path / "proj")
    answered_as_the_cli(root)


def test_the_configuration_basedpyright_reads_above_a_folder(tmp_path: Path) -> None:
    """As basedpyright 1.40's search: a pyproject.toml without a table is passed over, a
    pyrightconfig.json above comes before a pyproject.toml with a table nearer."""
    top = tmp_path / "top"
    nested = top / "a" / "b"
    nested.mkdir(parents=True)
    (nested / "pyproject.toml").write_text('[project]\nname = "b"\n')
    assert configuration_home(nested, top) is None  # none above: its defaults there
    (top / "pyproject.toml").write_text("[tool.basedpyright]\n")
    assert configuration_home(nested, top) == top
    (top / "a" / "pyproject.toml").write_text("[tool.ruff]\n")
    assert configuration_home(nested, top) == top
    (top / "a" / "pyproject.toml").write_text("[tool.pyright]\n")
    assert configuration_home(nested, top) == top / "a"
    (top / "pyrightconfig.json").write_text("{}")
    assert configuration_home(nested, top) == top
    (nested / "pyproject.toml").write_text("[tool.pyright]\n")  # its own: no home above
    assert configuration_home(nested, top) is None
    (nested / "pyproject.toml").write_text("[tool.pyright]\n[tool.basedpyright]\n")
    assert configuration_home(nested, top) is None  # its own, at fault: said as its own
    (nested / "pyproject.toml").write_text("[project\n")  # no TOML: a fixture, no configuration
    assert configuration_home(nested, top) == top
    (nested / "pyproject.toml").unlink()
    assert configuration_home(nested, top) == top  # none of its own (a setup.py marked it)
