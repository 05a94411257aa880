"""`lspd rename` and `lspd fixes`: their arguments, and output an agent pipes to `git apply`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lspd.cli import build_parser, main
from lspd.cli.query import arguments
from lspd.surface.table import operation
from tests.conftest import copy_fixture


def test_rename_and_fixes_command_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    parse = build_parser().parse_args
    rename = operation("rename")
    assert arguments(parse(["rename", "shop/models.py:13:9", "subtotal"]), rename) == {
        "path": str(tmp_path / "shop/models.py"),
        "line": 13,
        "column": 9,
        "new_name": "subtotal",
    }
    assert arguments(parse(["rename", "--symbol", "Cart.total", "subtotal"]), rename) == {
        "symbol": "Cart.total",
        "new_name": "subtotal",
    }
    in_file = parse(["rename", "shop/models.py", "--symbol", "Cart.total", "subtotal"])
    assert arguments(in_file, rename) == {
        "path": str(tmp_path / "shop/models.py"),
        "symbol": "Cart.total",
        "new_name": "subtotal",
    }
    fixes = operation("fixes")
    assert arguments(parse(["fixes", "a.py"]), fixes) == {"path": str(tmp_path / "a.py")}
    assert arguments(parse(["fixes", "a.py:2"]), fixes) == {
        "path": str(tmp_path / "a.py"),
        "line": 2,
    }
    assert arguments(parse(["fixes", "a.py:2:16", "--source"]), fixes) == {
        "path": str(tmp_path / "a.py"),
        "line": 2,
        "column": 16,
        "source": True,
    }


def test_the_text_of_a_rename_is_a_patch_for_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("edits_py", tmp_path)
    command = ["rename", "--symbol", "make_cart", "new_cart", "--root", str(root)]
    assert main([*command, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert main(command) == 0
    text = capsys.readouterr().out
    assert text.startswith(
        "rename `make_cart` to `new_cart`: 8 edit(s) in 4 file(s) (not applied; `git apply` "
        "the diff)\n0 new since disk (0 error(s), 0 warning(s)), 0 fixed, 4 unchanged (4 changed"
    )
    assert text.endswith(answer["diff"])
    assert "new_cart" not in (root / "shop/models.py").read_text()  # never applied
    # What precedes the diff is skipped: the output applies to the workspace as it is.
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    done = subprocess.run(["git", "apply", "-"], input=text, cwd=root, text=True, check=False)
    assert done.returncode == 0
    assert "def new_cart(*prices: int) -> Cart:" in (root / "shop/models.py").read_text()


def test_fixes_of_a_line_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("edits_py", tmp_path)
    assert main(["fixes", str(root / "shop/needs_import.py:2:16"), "--root", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "shop/needs_import.py: 5 fix(es) for 3 problem(s) (basedpyright)",
        'fix 1: from pathlib import Path for shop/needs_import.py:2:16: "Path" is not defined',
    ]
    assert "+from pathlib import Path" in lines


def test_a_new_name_that_is_no_identifier_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_fixture("edits_py", tmp_path)
    command = ["rename", "--symbol", "Cart.total", "sub-total", "--root", str(root), "--json"]
    assert main(command) == 2
    error = json.loads(capsys.readouterr().out)
    assert error == {
        "error": "NEW_NAME 'sub-total' is not a python identifier: send one name (letters, "
        "digits and underscores, not starting with a digit), without dots, spaces or quotes",
        "kind": "invalid_input",
    }
