"""A folder marked by setup.py or setup.cfg alone (no pyproject.toml, no pyrightconfig.json)
holds no configuration basedpyright reads: it searches above, as for a pyproject.toml
without a pyright table (test_pyright_home), so it is served from the configuration's
directory. It was a folder of its own: the root's files were answered from it (mcp 2.3.0's
shape, src/other a package with a setup.py), on a real basedpyright against its CLI run at
the root."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.workspace.pyright_home import configuration_home
from tests.workspace.test_pyright_home import answered_as_the_cli, project

MARKERS = {"setup.py": "from setuptools import setup\n\nsetup()\n", "setup.cfg": "[metadata]\n"}


@pytest.mark.parametrize("marker", MARKERS)
def test_a_nested_package_with_a_setup_file_leaves_the_root_s_answers(
    tmp_path: Path, marker: str
) -> None:
    root = project(tmp_path / "proj")
    other = root / "src" / "other"
    (other / "pyproject.toml").unlink()
    (other / marker).write_text(MARKERS[marker])
    # found through the root's extraPaths alone: a folder on its defaults does not
    (root / "examples" / "helper.py").write_text("VALUE = 1\n")
    (other / "other_pkg" / "mod.py").write_text("import helper\n\nx: int = helper.VALUE\n")
    answered_as_the_cli(root)


def test_a_setup_file_s_folder_reads_the_configuration_above(tmp_path: Path) -> None:
    top = tmp_path / "top"
    nested = top / "a"
    nested.mkdir(parents=True)
    (nested / "setup.py").write_text(MARKERS["setup.py"])
    assert configuration_home(nested, top) is None  # none above: its defaults there
    (top / "pyproject.toml").write_text("[tool.basedpyright]\n")
    assert configuration_home(nested, top) == top
    (nested / "pyrightconfig.json").write_text("{}")  # its own: no home above
    assert configuration_home(nested, top) is None
