"""`lspd servers` and `lspd servers install`, on the servers the test command installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.cli import main
from tests.daemon.support import thread_daemon
from tests.workspace.toolchains import make_venv

INSTALLED_BY_THE_TEST_COMMAND = [
    "basedpyright",
    "ty",
    "pyrefly",
    "typescript-language-server",
    "typescript-native",
    "gopls",
    "clangd",
]


def servers_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, dict]:
    assert main(["servers", "--json", *args]) == 0
    return {s["server"]: s for s in json.loads(capsys.readouterr().out)["servers"]}


def test_every_installed_server_is_found_with_its_version(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    servers = servers_json(capsys, "--root", str(tmp_path))
    for name in INSTALLED_BY_THE_TEST_COMMAND:
        assert servers[name]["found"], servers[name]["missing"]
        assert servers[name]["version"], f"{name} has no version"
    assert servers["gopls"]["install"].endswith("apt-get install -y gopls golang-go")
    assert servers["typescript-native"]["install"] == "lspd servers install typescript-native"


def test_rust_analyzer_is_defined_but_not_installed_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rust = servers_json(capsys, "--root", str(tmp_path))["rust-analyzer"]
    assert not rust["found"] and rust["missing"] and rust["version"] is None
    assert rust["install"] == "rustup component add rust-analyzer"


def test_defaults_are_selected_unless_lspd_toml_chooses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def selected(servers: dict[str, dict]) -> dict[str, str]:
        return {s["language"]: name for name, s in servers.items() if s["selected"]}

    defaults = selected(servers_json(capsys, "--root", str(tmp_path)))
    assert defaults["python"] == "basedpyright"
    assert defaults["typescript"] == "typescript-language-server"
    (tmp_path / "lspd.toml").write_text(
        '[languages.python]\nserver = "pyrefly"\n\n[languages.typescript]\n'
        'server = "typescript-native"\n'
    )
    chosen = selected(servers_json(capsys, "--root", str(tmp_path)))
    assert chosen == {**defaults, "python": "pyrefly", "typescript": "typescript-native"}


def test_text_form_marks_the_selected_server(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["servers", "--root", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["python", "*", "basedpyright", "found"]
    # alternatives: no language, no mark (pyright: the one a project's own copy runs)
    assert lines[1].split()[0] == "pyright"
    assert lines[2].split()[:2] == ["ty", "found"]


def test_install_leaves_a_found_server_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # By language (Go), by LSP language id (cpp: clangd) and by server name.
    assert main(["servers", "install", "go", "cpp", "ty", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gopls ") and "installing" not in out
    assert [line.split()[0] for line in out.splitlines()] == ["gopls", "clangd", "ty"]


def test_typescript_7_installs_into_its_own_npm_prefix(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # typescript-language-server needs typescript 5 beside it; TypeScript 7 lives apart.
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["servers", "install", "typescript-native", "--root", str(tmp_path)]) == 0
    assert "typescript-native 7." in capsys.readouterr().out
    assert (tmp_path / "cache/npm-typescript-native/node_modules/typescript/bin/tsc").exists()
    assert not (tmp_path / "cache/npm").exists()
    servers = servers_json(capsys, "--root", str(tmp_path))
    assert servers["typescript-native"]["found"]
    assert not servers["typescript-language-server"]["found"]


def test_unknown_language_names_the_choices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["servers", "install", "cobol", "--root", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "no language or server named 'cobol'" in error and "languages: c, go, python" in error


def test_servers_shows_the_toolchain_each_language_runs_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    python = make_venv(tmp_path / ".venv")
    (tmp_path / "app.py").write_text("x = 1\n")
    servers = servers_json(capsys, "--root", str(tmp_path))
    assert servers["basedpyright"]["toolchain"].endswith(f" {python}, project")
    assert servers["basedpyright"]["toolchain"].startswith("python 3.")
    assert servers["ty"]["toolchain"] is None  # only the server answering the language
    assert main(["servers", "--root", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "basedpyright" in x)
    assert line.endswith(f"; runs {servers['basedpyright']['toolchain']}")


def test_servers_leaves_no_rustup_home_behind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rust-analyzer here is rustup's proxy: asked its version with no rustup home, it made
    # ~/.rustup only to say it has no toolchain.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("RUSTUP_HOME", raising=False)
    rust = servers_json(capsys, "--root", str(tmp_path))["rust-analyzer"]
    assert rust["missing"] == f"rustup has no toolchain here ({home}/.rustup does not exist)"
    assert sorted(p.name for p in home.iterdir()) == []


def test_servers_says_what_a_restricted_daemon_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project's .venv is what an unrestricted daemon runs; one started --restricted
    # runs python3 from PATH, and `lspd servers` says so, as `lspd status` does.
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "project"
    python = make_venv(root / ".venv")
    (root / "app.py").write_text("x = 1\n")
    assert servers_json(capsys, "--root", str(root))["basedpyright"]["toolchain"].endswith(
        f" {python}, project"
    )
    with thread_daemon(root, prewarm=False, restricted=True):
        toolchain = servers_json(capsys, "--root", str(root))["basedpyright"]["toolchain"]
    assert toolchain.endswith(", PATH") and ".venv" not in toolchain


def test_install_says_installing_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["servers", "install", "ty", "--reinstall", "--root", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ty ") and out.endswith(" is installed\n") and out.count("\n") == 1
    said = [line for line in (out + err).splitlines() if "installing" in line]
    assert len(said) == 1 and said[0].startswith("lspd: installing ty: ")
