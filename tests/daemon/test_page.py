"""The live status page at `/`, in a real headless Chromium (apt's, driven by Playwright; no
browser is downloaded): what it shows of a real daemon, and what it refuses."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from lspd import sentinel
from lspd.daemon.client import call_tool
from tests.daemon.support import CHROMIUM_ARGS, thread_daemon, wait_for_servers

GENERATED = 300  # files of the project a whole check runs on
# Where to save the screenshot taken during the check too (docs/status-page.png is made so).
SCREENSHOT = os.environ.get("LSPD_PAGE_SCREENSHOT")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """apt's chromium (scripts/test installs it)."""
    executable = shutil.which("chromium")
    assert executable is not None, "no chromium on PATH: apt-get install -y chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Watched:
    """A page, and every console error, page error and request to another host on it."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.page: Page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.problems: list[str] = []
        self.urls: list[str] = []
        origin = urlsplit(base).netloc
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("request", lambda request: self._request(request.url, origin))
        self.page.goto(base + "/")

    def _console(self, message: object) -> None:
        kind, text = getattr(message, "type", ""), getattr(message, "text", "")
        if kind in ("error", "warning"):
            self.problems.append(f"console {kind}: {text}")

    def _request(self, url: str, origin: str) -> None:
        self.urls.append(url)
        if urlsplit(url).netloc != origin:
            self.problems.append(f"request to another host: {url}")

    def text(self, selector: str) -> str:
        return self.page.locator(selector).first.inner_text(timeout=10_000)

    def wait_for(self, check: Callable[[], bool], timeout: float, what: str) -> float:
        """Seconds until `check` holds (the page shows each change of a server's state)."""
        began = time.monotonic()
        while not check():
            assert time.monotonic() - began < timeout, f"the page did not show {what}"
            self.page.wait_for_timeout(50)
        return time.monotonic() - began

    def clean(self) -> None:
        assert self.problems == []
        self.page.close()


def _generate(root: Path, count: int) -> None:
    """A Python project of `count` modules, each importing the one before; one error; its
    gate (pyright's `include`) leaves out one script."""
    package = root / "gen"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "gen"\nversion = "0"\n\n[tool.pyright]\ninclude = ["gen"]\n'
    )
    (root / "scripts").mkdir()
    (root / "scripts" / "outside.py").write_text("print('not in the gate')\n")
    (package / "__init__.py").write_text("")
    for i in range(count):
        before = f"from gen.mod_{i - 1:03d} import f{i - 1}\n" if i else ""
        call = f"f{i - 1}(x) + " if i else ""
        body = (
            f"{before}\n\ndef f{i}(x: int) -> int:\n    return {call}{i}\n\n\n"
            f"class C{i}:\n    value: int = f{i}(1)\n\n    def twice(self) -> int:\n"
            f"        return self.value * 2\n"
        )
        if i == count - 1:
            body += '\n\nwrong: int = "not an int"\n'
        (package / f"mod_{i:03d}.py").write_text(body)


def _lspd(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lspd", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


_RUNNING_COUNTS = """() => {
    const row = document.querySelector('.check[data-kind="check"]');
    const done = row && row.querySelector('.done'), total = row && row.querySelector('.total');
    return done && total ? [Number(done.innerText), Number(total.innerText)] : null;
}"""


def test_page_names_the_servers_and_follows_a_whole_check(browser: Browser, tmp_path: Path) -> None:
    root = tmp_path / "big"
    _generate(root, GENERATED)
    with thread_daemon(root) as daemon:
        wait_for_servers(daemon.daemon.port or 0)
        seen = Watched(browser, daemon.base)
        row = seen.text("#servers tbody tr[data-server]")
        assert re.match(r"basedpyright\s+python · \d+\.\d+\.\d+\s", row), row  # and its version
        assert seen.text("#workspace") == str(root)
        for argv in (["hover", "gen/mod_001.py:4:5"], ["symbols", "gen/mod_002.py"]):
            assert _lspd(*argv, "--json", cwd=root).wait(60) == 0
        calls = seen.page.locator("#calls tbody tr")
        seen.wait_for(lambda: calls.count() == 2, 3, "the two tool calls")
        assert "hover" in calls.nth(1).inner_text()
        assert "mod_001.py line=4 column=5" in calls.nth(1).inner_text()
        for tool in ("hover", "document_symbols"):
            assert seen.text(f'#latency tr[data-tool="{tool}"] td:nth-child(2)') == "1"

        check = _lspd("check", cwd=root)
        done_counts: list[int] = []
        shot = 0
        while check.poll() is None:
            # Both counts read at once: the running row goes away when the check ends.
            counts = seen.page.evaluate(_RUNNING_COUNTS)
            if counts is not None:
                done, total = counts
                assert total == GENERATED + 1  # and gen/__init__.py
                if not done_counts or done != done_counts[-1]:
                    done_counts.append(done)
                if (not shot and 0 < done < total) or (shot == 1 and total // 3 < done < total):
                    seen.page.screenshot(path=str(tmp_path / "status-page.png"), full_page=True)
                    if SCREENSHOT:
                        shutil.copy(tmp_path / "status-page.png", SCREENSHOT)
                    shot += 1  # a first moment, then one a third of the way
            seen.page.wait_for_timeout(100)
        assert check.wait() == 1, check.stderr.read() if check.stderr else ""
        assert len(done_counts) >= 2 and done_counts == sorted(done_counts), done_counts
        assert shot, f"no moment with a check half done: {done_counts}"

        seen.wait_for(lambda: seen.page.locator("tr.finished").count() == 1, 5, "the result")
        assert seen.text("tr.finished td.errors") == "1"
        assert f"{GENERATED + 1} / {GENERATED + 1}" in seen.text("tr.finished")
        assert seen.text("#checks") == "no check running"
        assert seen.text("#warnings") == (
            "1 source file(s) outside the gate: the last check left them out "
            "(`lspd check --all` checks them)"
        )
        seen.clean()


def test_a_killed_server_shows_crashed_then_restarting(browser: Browser, root: Path) -> None:
    with thread_daemon(root) as daemon:
        [server] = wait_for_servers(daemon.daemon.port or 0, states=("ready",))
        seen = Watched(browser, daemon.base)
        state = 'tr[data-server="basedpyright"] .state'
        seen.wait_for(lambda: seen.text(state) == "ready", 5, "the server ready")
        # Every state the page shows, however briefly, in the order shown.
        seen.page.evaluate(
            """() => { window.seenStates = [];
            new MutationObserver(() => {
              const cell = document.querySelector('tr[data-server="basedpyright"] .state');
              const last = window.seenStates[window.seenStates.length - 1];
              if (cell && cell.textContent !== last) window.seenStates.push(cell.textContent);
            }).observe(document.getElementById('servers'), {childList: true, subtree: true}); }"""
        )
        os.kill(server["pid"], signal.SIGKILL)
        seen.wait_for(lambda: seen.text(state) == "crashed", 5, "the server crashed")
        reason = seen.text('tr[data-server="basedpyright"] .err')
        assert reason.startswith("language server basedpyright crashed: "), reason
        assert reason in seen.text('tr[data-server="basedpyright"] pre.stderr')  # its log's tail
        # The page's part from here: the request that restarts the server is sent at once
        # (the CLI's own POST, from a thread: a CLI process's start on a loaded machine took
        # more than the 5 s alone), and its new state shown within 5 s of "crashed".
        crashed = time.monotonic()
        with ThreadPoolExecutor(1) as pool:
            asked = pool.submit(call_tool, root, "diagnostics", {"path": "pkg/app.py"})

            def restarting() -> bool:
                states: list[str] = seen.page.evaluate("window.seenStates")
                return "restarting" in states[states.index("crashed") :]

            seen.wait_for(restarting, 5 - (time.monotonic() - crashed), "the server restarting")
            assert asked.result(60) is not None
        seen.wait_for(lambda: seen.text(state) == "ready", 30, "the server ready again")
        assert seen.text('tr[data-server="basedpyright"] td:nth-child(9)') == "1"  # restarts
        seen.clean()


def test_a_hook_edit_shows_in_its_session_history(browser: Browser, root: Path) -> None:
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(root), *command], check=True)
    with thread_daemon(root) as daemon:
        wait_for_servers(daemon.daemon.port or 0)
        seen = Watched(browser, daemon.base)
        edited = root / "pkg" / "extra.py"
        edited.write_text(edited.read_text() + '\n\nbroken_now: int = "text"\n')
        payload = {
            "session_id": "agent-session-7",
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "tool_input": {"file_path": str(edited)},
            "cwd": str(root),
        }
        hook = subprocess.run(
            [sys.executable, "-m", "lspd", "hook", "claude-code", "--budget", "30"],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=root,
            timeout=60,
        )
        message = 'Type "Literal[\'text\']" is not assignable to declared type "int"'
        reason = json.loads(hook.stdout)["reason"]
        assert f"pkg/extra.py:8:19: {message} [reportAssignmentType]" in reason
        session = '[data-session="agent-session-7"]'
        events = seen.page.locator(f"{session} .event")
        seen.wait_for(lambda: events.count() == 1, 3, "the session's edit")
        history = seen.text(session)
        assert "1 file(s) edited" in history and "edit pkg/extra.py" in history
        told = seen.text(f"{session} .told")  # the message whole: its first line here
        assert told.startswith(f"pkg/extra.py:8:19 error {message}"), told
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        commit = seen.page.locator("#kept .commit")  # HEAD's result, kept by then
        seen.wait_for(lambda: commit.count() == 1, 30, "the baseline kept")
        assert commit.inner_text() == head[:12]
        seen.clean()


@pytest.mark.parametrize("path", ["/", "/status/live"])
def test_a_foreign_host_is_refused(root: Path, path: str) -> None:
    with thread_daemon(root, prewarm=False) as daemon:
        port = daemon.daemon.port
        foreign = httpx.get(f"{daemon.base}{path}", headers={"Host": f"evil.example:{port}"})
        assert foreign.status_code == 421
        origin = httpx.get(f"{daemon.base}{path}", headers={"Origin": "http://evil.example"})
        assert origin.status_code == 403
        answer = httpx.get(f"{daemon.base}{path}")
        assert answer.status_code == 200
        if path == "/":  # only its own script and styles run, by their hashes
            policy = answer.headers["content-security-policy"]
            script = re.search(r"<script>(.*?)</script>", answer.text, re.S)
            assert script is not None and "unsafe-inline" not in policy
            digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest())
            assert f"script-src 'sha256-{digest.decode()}';" in policy
            assert policy.startswith("default-src 'self';")


def test_with_a_token_the_page_shows_nothing_until_given_it(browser: Browser, root: Path) -> None:
    with thread_daemon(root, prewarm=False, token=True) as daemon:
        token = sentinel.read_token(root)
        assert token
        assert httpx.get(f"{daemon.base}/status/live").status_code == 401
        seen = Watched(browser, daemon.base)
        seen.page.wait_for_selector("#token.open", timeout=10_000)
        assert seen.text("#workspace") == "" and seen.text("#link") == "waiting for the token"
        seen.page.fill("#token-input", "not the token")
        seen.page.press("#token-input", "Enter")
        seen.page.wait_for_selector("#token.open", timeout=10_000)
        assert seen.text("#token-error") == "that token was refused"
        assert seen.text("#workspace") == ""
        seen.page.fill("#token-input", token)
        seen.page.press("#token-input", "Enter")
        seen.wait_for(lambda: seen.text("#workspace") == str(root), 5, "the workspace")
        assert all(token not in url for url in seen.urls)
        # The refused poll is the one console error a browser logs (a 401 answer): expected.
        seen.problems = [p for p in seen.problems if "401" not in p]
        seen.clean()
