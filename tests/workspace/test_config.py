"""lspd.toml: checked when a workspace opens, and applied to the servers it starts."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from lspd import sentinel
from lspd.cli import main
from lspd.errors import ConfigError
from lspd.ops import file_diagnostics, navigation
from lspd.servers.registry import definitions
from lspd.workspace import Workspace
from lspd.workspace.config import Config
from tests.conftest import answer, copy_fixture
from tests.daemon.support import env_for, health, thread_daemon, wait_dead

LOOSE = "def double(value):\n    return value * 2\n"  # clean, unless strict checking is on


def workspace_with(tmp_path: Path, config: str) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "lspd.toml").write_text(config)
    (root / "loose.py").write_text(LOOSE)
    return root


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            "idle_timout = 60\n",
            "lspd.toml: idle_timout: unknown key; allowed here: idle_timeout, memory_mb, ignore, "
            "python, typescript, python_checker, max_file_bytes, max_file_lines, busy_after, "
            "restart_after, languages, servers",
        ),
        (
            'idle_timeout = "ten"\n',
            "lspd.toml: idle_timeout: expected a number of seconds, 0 or more "
            "(0 = never stop idle servers), got 'ten'",
        ),
        (
            "idle_timeout = -1\n",
            "lspd.toml: idle_timeout: expected a number of seconds, 0 or more "
            "(0 = never stop idle servers), got -1",
        ),
        (
            'ignore = "build"\n',
            "lspd.toml: ignore: expected a list of globs, e.g. "
            '["generated/**", "*.min.js"], got \'build\'',
        ),
        (
            '[languages.python]\nserver = "pyrite"\n',
            "lspd.toml: languages.python.server: 'pyrite' is not a server for python; "
            "choose one of basedpyright, pyright, ty, pyrefly",
        ),
        (
            '[languages.python]\nservr = "ty"\n',
            "lspd.toml: languages.python.servr: unknown key; allowed here: server",
        ),
        (
            '[languages.cobol]\nserver = "cobol-ls"\n',
            "lspd.toml: languages.cobol: no server is defined for 'cobol'; languages are ",
        ),
        (
            '[servers.pyrite]\nargs = ["--fast"]\n',
            "lspd.toml: servers.pyrite: no server is named 'pyrite'; servers are basedpyright, ",
        ),
        (
            '[servers.basedpyright]\nargs = "--verbose"\n',
            "lspd.toml: servers.basedpyright.args: expected a list of strings, "
            "e.g. [\"--verbose\"], got '--verbose'",
        ),
        ("[servers.basedpyright\n", "lspd.toml: not valid TOML: "),
        (
            "[languages.python]\n",
            "lspd.toml: languages.python.server: missing; it must be a server name (a string)",
        ),
        (
            'ignore = ["build", 3]\n',
            'lspd.toml: ignore[1]: expected a glob string, e.g. "generated/**", got 3',
        ),
        (
            "[servers.basedpyright]\nargs = [true]\n",
            "lspd.toml: servers.basedpyright.args[0]: expected a string, got True",
        ),
        (
            "memory_mb = 0\n",
            "lspd.toml: memory_mb: expected a number of megabytes above 0 "
            "(the language servers' memory ceiling), got 0",
        ),
        (
            "idle_timeout = nan\n",
            "lspd.toml: idle_timeout: expected a number of seconds, 0 or more "
            "(0 = never stop idle servers), got nan",
        ),
        (
            "idle_timeout = true\n",
            "lspd.toml: idle_timeout: expected a number of seconds, 0 or more "
            "(0 = never stop idle servers), got True",
        ),
        (
            "languages = 1\n",
            "lspd.toml: languages: expected a table of languages, e.g. [languages.python] "
            'server = "basedpyright", got 1',
        ),
        (
            "servers = { clangd = 1 }\n",
            "lspd.toml: servers.clangd: expected a table with `args`, `settings` and "
            "`second_server`, got 1",
        ),
        (
            "[servers.basedpyright]\nsecond_server = 1\n",
            "lspd.toml: servers.basedpyright.second_server: expected true or false (a second "
            "server for a whole check of 100 files or more), got 1",
        ),
        (
            "[servers.typescript-language-server]\nsecond_server = true\n",
            "lspd.toml: servers.typescript-language-server.second_server: true is for a server "
            "checking files on one thread (basedpyright, pyright, typescript-native), not "
            "typescript-language-server: remove the key",
        ),
        (  # not "loads its project in each server": ty checks on several threads
            "[servers.ty]\nsecond_server = true\n",
            "lspd.toml: servers.ty.second_server: true is for a server checking files on one "
            "thread (basedpyright, pyright, typescript-native), not ty: remove the key",
        ),
    ],
)
def test_a_bad_config_is_refused_with_the_key_and_what_is_allowed(
    tmp_path: Path, config: str, message: str
) -> None:
    root = workspace_with(tmp_path, config)
    with pytest.raises(ConfigError) as refused:
        Workspace(root)
    assert any(line.startswith(message) for line in str(refused.value).splitlines())


def test_a_good_config_is_read_with_numbers_as_floats(tmp_path: Path) -> None:
    root = workspace_with(
        tmp_path,
        'idle_timeout = 60\nmemory_mb = 1.5\nignore = ["gen"]\n'
        '[languages.python]\nserver = "ty"\n[servers.ty]\nargs = ["-v"]\n',
    )
    config = Workspace(root).config
    assert (config.idle_timeout, config.memory_mb, config.ignore) == (60.0, 1.5, ["gen"])
    assert type(config.idle_timeout) is float
    assert config.chosen == {"python": "ty"}
    assert config.servers["ty"].args == ["-v"] and config.servers["ty"].settings == {}
    assert (config.python, config.typescript) == (None, "project")


def test_a_file_language_points_to_the_key_that_covers_it(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, '[languages.javascript]\nserver = "typescript-native"\n')
    with pytest.raises(ConfigError) as refused:
        Workspace(root)
    assert str(refused.value).endswith("(javascript files belong to [languages.typescript])")


def test_every_mistake_is_named_at_once(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, 'idle_timeout = "soon"\ncolour = "blue"\n')
    with pytest.raises(ConfigError) as refused:
        Workspace(root)
    lines = str(refused.value).splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["idle_timeout", "colour"]


def test_a_bad_config_stops_lspd_serve_at_start(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, '[languages.python]\nserver = "pyrite"\n')
    done = subprocess.run(
        [sys.executable, "-m", "lspd", "serve", str(root)],
        env=env_for(tmp_path / "state"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "lspd.toml: languages.python.server: 'pyrite' is not a server for python" in (
        done.stderr
    )
    assert sentinel.read_port(root) is None


def test_a_bad_config_stops_a_cli_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = workspace_with(tmp_path, "[servers.basedpyright]\nflags = []\n")
    code = main(["diagnostics", str(root / "loose.py"), "--root", str(root)])
    assert code == 2
    assert capsys.readouterr().err.strip() == (
        "lspd: lspd.toml: servers.basedpyright.flags: unknown key; "
        "allowed here: args, settings, second_server"
    )


def test_settings_reach_the_server(tmp_path: Path) -> None:
    root = workspace_with(
        tmp_path,
        "[servers.basedpyright.settings.basedpyright.analysis]\ntypeCheckingMode = 'strict'\n",
    )
    assert Workspace(root).definitions["basedpyright"].settings == {
        "basedpyright": {
            "analysis": {
                "autoSearchPaths": True,
                "diagnosticMode": "openFilesOnly",
                "typeCheckingMode": "strict",
            }
        }
    }
    result = answer(root, lambda ws: file_diagnostics.diagnostics(ws, "loose.py"))
    # An error in strict mode; basedpyright's default ("recommended") makes it a warning.
    assert ("reportMissingParameterType", "error") in {
        (d.code, d.severity) for d in result.diagnostics
    }


def test_a_src_layout_still_resolves_when_a_setting_is_added(tmp_path: Path) -> None:
    # basedpyright reads an `analysis` table without autoSearchPaths as false, which drops
    # `src/` from import resolution (attrs' `from attrs import ...` then found another attrs).
    root = workspace_with(
        tmp_path,
        "[servers.basedpyright.settings.basedpyright.analysis]\ntypeCheckingMode = 'standard'\n",
    )
    (root / "src" / "mylib").mkdir(parents=True)
    (root / "src" / "mylib" / "__init__.py").write_text("def version() -> str:\n    return '1'\n")
    (root / "use.py").write_text("from mylib import version\n\nn: int = version()\n")
    result = answer(root, lambda ws: file_diagnostics.diagnostics(ws, "use.py"))
    assert [(d.line, d.code) for d in result.diagnostics] == [(3, "reportAssignmentType")]


def test_without_the_setting_the_same_file_is_clean(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, "")
    assert answer(root, lambda ws: file_diagnostics.diagnostics(ws, "loose.py")).errors == 0


def test_extra_arguments_are_passed_to_the_server(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, '[servers.clangd]\nargs = ["--pretty"]\n')
    (root / "main.c").write_text("int twice(int x) { return 2 * x; }\n")

    async def question(ws: Workspace) -> tuple[list[bytes], str]:
        session = ws.session_for(root / "main.c")
        await session.start()
        argv = Path(f"/proc/{session.pid}/cmdline").read_bytes().split(b"\0")
        return argv, (await navigation.hover(ws, "main.c", 1, 5)).contents

    argv, hover = answer(root, question)
    assert argv[-2:] == [b"--pretty", b""]
    assert "twice" in hover


def test_the_server_chosen_for_a_language_answers_its_files(tmp_path: Path) -> None:
    root = workspace_with(tmp_path, '[languages.python]\nserver = "ty"\n')
    assert Workspace(root).session_for(root / "loose.py").name == "ty"
    result = answer(root, lambda ws: file_diagnostics.diagnostics(ws, "loose.py"))
    assert result.server == "ty"


def test_the_idle_timeout_comes_from_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)
    (root / "lspd.toml").write_text("idle_timeout = 0.5\n")
    with thread_daemon(root, prewarm=False) as daemon:
        assert daemon.daemon.idle_timeout == 0.5
        port = daemon.daemon.port or 0
        assert main(["hover", str(root / "pkg/app.py:5:5"), "--root", str(root)]) == 0
        [server] = health(port)["servers"]
        deadline = time.monotonic() + 15
        while health(port)["servers"][0]["state"] != "stopped":
            assert time.monotonic() < deadline, "the idle server was not stopped"
            time.sleep(0.1)
        assert wait_dead(server["pid"])


def test_the_command_line_overrides_the_config_idle_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = workspace_with(tmp_path, "idle_timeout = 0.5\n")
    with thread_daemon(root, prewarm=False, idle_timeout=0) as daemon:
        assert daemon.daemon.idle_timeout == 0


def test_the_memory_ceiling_is_each_go_servers_gomemlimit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    servers = definitions()
    bounded = Config(memory_mb=2500.5)
    assert bounded.apply(servers["gopls"]).env == {"GOPROXY": "off", "GOMEMLIMIT": "2500MiB"}
    assert bounded.apply(servers["typescript-native"]).env == {"GOMEMLIMIT": "2500MiB"}
    assert bounded.apply(servers["basedpyright"]).env == servers["basedpyright"].env
    assert Config().apply(servers["gopls"]).env == {"GOPROXY": "off"}
    monkeypatch.setenv("GOMEMLIMIT", "1GiB")  # the user's own: the server inherits it
    assert bounded.apply(servers["gopls"]).env == {"GOPROXY": "off"}
