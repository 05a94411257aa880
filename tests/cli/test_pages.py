"""The CLI's text output follows next_offset until it has printed what --limit asks for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.cli import main
from tests.conftest import copy_fixture
from tests.daemon.support import thread_daemon
from tests.ops.test_baseline import committed

METHODS = 200


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """The Python fixture with a class of 200 methods (600 symbols with their parameters)."""
    root = copy_fixture("py", tmp_path)
    body = "".join(
        f"    def method_{i:03}(self, value: int) -> int:\n        return value\n\n"
        for i in range(METHODS)
    )
    (root / "pkg" / "big.py").write_text(f"class Big:\n{body}")
    return root


def test_text_output_pages_until_the_limit_and_json_stays_one_page(
    big: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(big / "pkg" / "big.py")
    assert main(["symbols", path, "--root", str(big), "--json", "--limit", "1000"]) == 0
    first = json.loads(capsys.readouterr().out)
    # One MCP page: the answer budget stops it short and says where the rest starts.
    assert first["total"] == 1 + 2 * METHODS and first["next_offset"] < first["total"]
    assert main(["symbols", path, "--root", str(big), "--limit", "1000"]) == 0
    text = capsys.readouterr().out.splitlines()
    # Every symbol, nested once under Big, and no paging line: nothing was left out.
    assert text[0] == "pkg/big.py" and text[1] == "  class Big  :1:7"
    methods = [line.strip().split()[1] for line in text if line.startswith("    method ")]
    assert methods == [f"Big.method_{i:03}" for i in range(METHODS)]
    assert len(text) == 2 + 2 * METHODS and not any("shown" in line for line in text)


def test_text_output_stops_at_the_limit_and_says_where_the_rest_starts(
    big: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(big / "pkg" / "big.py")
    assert main(["symbols", path, "--root", str(big), "--limit", "250", "--offset", "1"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert len(text) == 1 + 250 + 1
    assert text[-1] == f"… 250 of {1 + 2 * METHODS} shown; `--offset 251` for the rest"


def test_diagnostics_limits_never_shrink_in_json_or_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 300 diagnostics, through a warm daemon: --json is one page (the budget's cut at most),
    # text follows the pages up to --limit; neither ever gives fewer for a larger limit.
    # (It gave 50, 50, 50 and 37 for --limit 50, 100, 200, 1000.)
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    (root / "pkg/many.py").write_text(
        "".join(f'n{i:03}: int = "a string where an int goes, number {i:03}"\n' for i in range(300))
    )
    path = str(root / "pkg/many.py")
    with thread_daemon(root, prewarm=False):
        pages, lines = [], []
        for limit in (1, 2, 50, 99, 100, 101, 200, 299, 300, 301, 1000):
            assert main(["diagnostics", path, "--limit", str(limit), "--json"]) == 0
            pages.append(len(json.loads(capsys.readouterr().out)["diagnostics"]))
            assert main(["diagnostics", path, "--limit", str(limit)]) == 0
            lines.append(capsys.readouterr().out.splitlines())
        assert main(["diagnostics", path, "--json", "--offset", "290"]) == 0
        rest = json.loads(capsys.readouterr().out)
    most = pages[-1]
    assert most < 300
    assert pages == [
        min(limit, most) for limit in (1, 2, 50, 99, 100, 101, 200, 299, 300, 301, 1000)
    ]
    shown = [sum(": error: " in line for line in text) for text in lines]
    assert shown == [1, 2, 50, 99, 100, 101, 200, 299, 300, 300, 300]
    assert lines[2][-1] == "… 50 of 300 shown; `--offset 50` for the rest"
    assert lines[-1][-1] == "300 error(s), 0 warning(s) (basedpyright)"
    assert [d["line"] for d in rest["diagnostics"]] == list(range(291, 301))
    assert "next_offset" not in rest


def test_a_baselines_text_output_follows_the_introduced_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`diagnostics FILE --baseline HEAD` in text pages through `changes.introduced`: it
    printed the first page's 42 and "… 59-100 of 400 shown; `--offset 100`" (the mixed
    examiner's "the last 68 of 90"), the pages followed but their lists dropped."""
    root = committed(copy_fixture("py", tmp_path))
    lines = "".join(
        f'n{i:03}: int = "a string where an int goes, {i:03} {"x" * 60}"\n' for i in range(300)
    )
    (root / "pkg/many.py").write_text(lines)
    path = str(root / "pkg/many.py")
    assert main(["diagnostics", path, "--root", str(root), "--baseline", "HEAD", "--json"]) == 1
    first = json.loads(capsys.readouterr().out)
    assert first["total"] == 300 and first["next_offset"] < 100  # one page, the budget's cut
    assert main(["diagnostics", path, "--root", str(root), "--baseline", "HEAD"]) == 1
    text = capsys.readouterr().out.splitlines()
    said = [line for line in text if line.startswith("pkg/many.py:")]
    assert [int(line.split(":")[1]) for line in said] == list(range(1, 101))
    assert text[-1] == "… 1-100 of 300 shown; `--offset 100` for the rest"


def test_a_previews_json_joins_the_introduced_pages_and_keeps_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lspd preview --json` joins every page of `changes.introduced`; what each page holds
    whole (the per-file counts, what it fixes) stays as one page has it."""
    from tests.ops.test_changes_page import CALLS, SIGNATURE, TWO_PARAMETERS, project

    root = project(tmp_path / "paging")
    text = (root / "lib.py").read_text().replace(SIGNATURE, TWO_PARAMETERS)
    (tmp_path / "lib.py").write_text(text)
    at = ["--root", str(root), "--json"]
    pair = ["--file", str(root / "lib.py"), "--content-file", str(tmp_path / "lib.py")]
    assert main(["preview", *pair, "--offset", "0", *at]) == 1
    page = json.loads(capsys.readouterr().out)
    assert page["next_offset"] < CALLS  # more than one page
    assert main(["preview", *pair, *at]) == 1
    whole = json.loads(capsys.readouterr().out)
    assert len(whole["changes"]["introduced"]) == CALLS and "next_offset" not in whole
    assert whole["files"] == page["files"] and len(whole["files"]) == 2
    assert whole["changes"]["fixed"] == page["changes"]["fixed"]
