"""`lspd sync` on the command line: sentinel, output, exit codes, --skill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.agents.skill import BEGIN, END, skill_text
from lspd.cli import main

from .conftest import URL


def test_no_sentinel_says_how_to_start_the_daemon(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()

    code = main(["sync", str(bare), "--agent", "codex"])

    assert code != 0
    err = capsys.readouterr().err
    assert f"no daemon for {bare.resolve()}: start it with `lspd serve --detach`" in err
    assert not (home / ".codex").exists()


def test_sync_writes_and_reports(
    home: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["sync", str(root), "--agent", "vscode", "--agent", "codex"])

    assert code == 0
    out, err = capsys.readouterr()
    assert f"vscode: created {root / '.vscode' / 'mcp.json'}" in out
    assert "codex: created" in out
    assert "stale sentinel" in err  # the sentinel's port is not a live daemon here
    assert json.loads((root / ".vscode" / "mcp.json").read_text())["servers"]["lspd"]["url"] == URL

    assert main(["sync", str(root), "--agent", "vscode"]) == 0
    assert "vscode: unchanged" in capsys.readouterr().out


def test_root_defaults_to_the_nearest_sentinel(
    home: Path, root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sub = root / "src" / "deep"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)

    assert main(["sync", "--agent", "cursor"]) == 0
    assert (root / ".cursor" / "mcp.json").exists()


def test_dry_run_prints_the_diff(
    home: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sync", str(root), "--agent", "cursor", "--dry-run"]) == 0

    out = capsys.readouterr().out
    assert "--- /dev/null" in out
    assert f'+      "url": "{URL}"' in out
    assert "cursor: would create" in out
    assert not (root / ".cursor").exists()


def test_bad_config_exits_1_naming_the_file(
    home: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (root / ".cursor").mkdir()
    bad = root / ".cursor" / "mcp.json"
    bad.write_text("{\n  // my servers\n}\n")

    code = main(["sync", str(root), "--agent", "cursor", "--agent", "vscode"])

    assert code == 1
    out, err = capsys.readouterr()
    assert f"error: cursor: cannot parse {bad} as JSON" in err
    assert "comments are not supported" in err
    assert "vscode: created" in out  # one bad file does not stop the others
    assert bad.read_text() == "{\n  // my servers\n}\n"


def test_unknown_agent(home: Path, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", str(root), "--agent", "emacs"]) == 2
    assert "unknown agent 'emacs'" in capsys.readouterr().err


def test_nothing_detected(
    home: Path, root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(home / "no-bin"))
    assert main(["sync", str(root)]) == 1
    assert "no agent detected here; name one with --agent" in capsys.readouterr().err


def test_list_agents(home: Path, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", str(root), "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("claude-code", "codex", "vscode", "cursor", "gemini", "opencode"):
        assert f"{name} (" in out
    assert f"local [default]: {home / '.claude.json'}" in out


def test_skill_is_installed_between_markers_and_replaced_in_place(
    home: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude_md = root / "CLAUDE.md"
    claude_md.write_text("# Project notes\n\nKeep this.\n")
    args = ["sync", str(root), "--agent", "claude-code", "--agent", "codex", "--skill"]

    assert main(args) == 0

    text = claude_md.read_text()
    assert text.startswith("# Project notes\n\nKeep this.\n\n" + BEGIN + "\n")
    assert text.endswith(END + "\n")
    assert skill_text().strip() in text
    agents_md = (root / "AGENTS.md").read_text()
    assert agents_md == f"{BEGIN}\n{skill_text().strip()}\n{END}\n"

    # An outdated section is replaced where it is; text after it stays.
    claude_md.write_text(f"# Project notes\n\n{BEGIN}\nold advice\n{END}\n\n## More\n")
    assert main(args) == 0
    text = claude_md.read_text()
    assert "old advice" not in text
    assert text.count(BEGIN) == 1
    assert text.endswith(f"{END}\n\n## More\n")

    before = claude_md.read_bytes()
    capsys.readouterr()
    assert main(args) == 0
    assert claude_md.read_bytes() == before
    assert "skill: unchanged" in capsys.readouterr().out


def test_skill_text_covers_the_essentials() -> None:
    text = skill_text()
    for needle in ("diagnostics", "hover", "definition", "references", "symbol", "1-based"):
        assert needle in text
