"""A whole check where one language's server cannot run: its files are named in `skipped`,
with why and how to install it, and every other file's result stands (before, the check
failed whole on the first such file and said nothing of the others)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.check_models import not_answered
from tests.conftest import answer
from tests.ops.test_baseline import committed

UNKNOWN = "error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64'."


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "mixed"
    (root / "crate" / "src").mkdir(parents=True)
    (root / "app.py").write_text('count: int = "three"\n')
    (root / "crate" / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (root / "crate" / "src" / "main.rs").write_text("fn main() {}\n")
    return root.resolve()


def _path_without_rust_analyzer() -> str:
    folders = os.environ["PATH"].split(os.pathsep)
    return os.pathsep.join(f for f in folders if not (Path(f) / "rust-analyzer").exists())


def test_a_server_not_installed_leaves_its_files_skipped_and_the_others_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path)
    monkeypatch.setenv("PATH", _path_without_rust_analyzer())
    checked = answer(root, lambda ws: check_all(ws, None))
    assert [(d.path, d.line, d.code) for d in checked.everything] == [
        ("app.py", 1, "reportAssignmentType")
    ]
    (skipped,) = not_answered(checked.skipped)
    assert skipped.path == "crate/src/main.rs"
    assert skipped.reason == (
        "not checked: language server rust-analyzer is not available (`rust-analyzer` was not "
        "found); install it with: rustup component add rust-analyzer"
    )


def test_a_server_that_exits_before_initialize_is_skipped_with_what_it_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # rustup's proxy for a component not installed: on PATH, it exits at once saying why (a
    # stand-in, as a machine with rustup may have the component)
    root = _project(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    proxy = bin_dir / "rust-analyzer"
    proxy.write_text(f'#!/bin/sh\necho "{UNKNOWN}" >&2\necho "stack backtrace:" >&2\nexit 1\n')
    proxy.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{_path_without_rust_analyzer()}")
    checked = answer(root, lambda ws: check_all(ws, None))
    assert [(d.path, d.line) for d in checked.everything] == [("app.py", 1)]
    (skipped,) = not_answered(checked.skipped)
    assert skipped.path == "crate/src/main.rs"
    log = root.parent / "logs" / "projects" / "crate" / "rust-analyzer.log"
    assert skipped.reason == (
        "not checked: language server rust-analyzer could not start: it exited with code 1 "
        f"before answering `initialize` ({UNKNOWN}); is it installed? install it with: rustup "
        f"component add rust-analyzer; its log is {log}"
    )
    # asked again alone, it ended the same way: warned of once (the CLI showed it twice)
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warned] == [skipped.reason.removeprefix("not checked: ")]


FAKE_SERVER = Path(__file__).parent.parent / "fake_lsp_server.py"


def test_a_file_its_server_refuses_is_skipped_with_why_and_the_others_stand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a server refusing one file's diagnostics every time it is asked (ty cancelled FastAPI's
    # routing.py so while other files changed): before, the whole check failed with its error
    root = _project(tmp_path)
    (root / "crate" / "src" / "lib.rs").write_text("// refuse\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "rust-analyzer"
    stand_in.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_SERVER}" --mode refuse-diagnostics\n'
    )
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{_path_without_rust_analyzer()}")
    checked = answer(root, lambda ws: check_all(ws, None))
    assert [(d.path, d.line) for d in checked.everything] == [("app.py", 1)]
    assert {r.path for r in checked.results} == {"app.py", "crate/src/main.rs"}
    (skipped,) = not_answered(checked.skipped)
    assert (skipped.path, skipped.reason) == (
        "crate/src/lib.rs",
        "not answered: rust-analyzer refused textDocument/diagnostic: server cancelled the request",
    )


def test_a_baseline_compares_the_files_a_server_that_cannot_run_leaves_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # watchfiles (mypy-gated, a PyO3 crate): where rust-analyzer cannot run, HEAD's result was
    # never kept ("the check left 1 file(s) not answered"), so `check --baseline HEAD` and the
    # hook's proof of every Python edit failed. Its file is "not checked" on both sides.
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PATH", _path_without_rust_analyzer())
    root = committed(_project(tmp_path))
    (root / "app.py").write_text('count: int = "three"\nname: str = 1\n')
    result = answer(root, lambda ws: workspace_diagnostics(ws, baseline="HEAD"))
    assert result.changes is not None
    assert [(d.path, d.line) for d in result.changes.introduced] == [("app.py", 2)]
