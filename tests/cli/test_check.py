"""`lspd check`: the whole-workspace gate, agreeing with the project's own checker CLI."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lspd.daemon.client import check_progress
from lspd.daemon.finding import find_daemon
from lspd.engine.kept_memory import memory_of as kept_memory
from lspd.ops.changes_page import memory_of
from tests.basedpyright_cli import diagnostics, relative, start
from tests.conftest import copy_fixture
from tests.daemon.support import cli_through_daemon, thread_daemon
from tests.ops.test_changes_page import CALLS, FIXED, change_signature
from tests.ops.test_changes_page import project as paging_project
from tests.ops.test_checked import BESIDE, LEFT_OUT
from tests.workspace.mypy_env import STRICT
from tests.workspace.mypy_env import project as mypy_project

LSPD = str(Path(sys.executable).parent / "lspd")


def lspd_check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LSPD, "check", "--root", str(root), *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def gate_errors(
    root: Path, severities: tuple[str, ...] = ("error",)
) -> set[tuple[str, int, int, str]]:
    """The project's own checker: basedpyright's CLI as the project runs it (no paths: its
    configuration's), its errors (or other `severities`) as (path, line, col, rule)."""
    return {
        (relative(d, root), *start(d), d.get("rule", ""))
        for d in diagnostics(root)
        if d["severity"] in severities
    }


def summary(line: str) -> str:
    """The summary line with its seconds left out (`S s`)."""
    return re.sub(r", \d+\.\d s;", ", S s;", line)


def errors_of(
    result: dict[str, Any], severities: tuple[str, ...] = ("error",)
) -> set[tuple[str, int, int, str]]:
    return {
        (d["path"], d["line"], d["column"], d.get("code", ""))
        for d in result["diagnostics"]
        if d["severity"] in severities
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = copy_fixture("py", tmp_path)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "fixture"\nversion = "0"\n\n'
        '[tool.basedpyright]\ntypeCheckingMode = "standard"\n'
    )
    (root / "pkg" / "more_broken.py").write_text(
        "def f(x: int) -> str:\n    return x\n\n\nf('a')\n"
    )
    return root


def test_check_in_process_matches_the_projects_checker(project: Path) -> None:
    gate = gate_errors(project)
    assert len(gate) == 3
    done = lspd_check(project, "--json")
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert errors_of(result) == gate
    assert result["files_checked"] == result["files_matched"] == 7
    assert result["total"] == len(result["diagnostics"]) and "next_offset" not in result

    text = lspd_check(project)
    assert text.returncode == 1
    lines = text.stdout.splitlines()
    assert any(line.startswith("pkg/more_broken.py:2:12: error: ") for line in lines)
    assert summary(lines[-1]) == (
        "lspd check: 7 files, 3 errors, 0 warnings, S s; configuration: pyproject.toml "
        "[tool.basedpyright]"
    )


def test_an_unconfigured_project_gets_the_checkers_own_default(tmp_path: Path) -> None:
    # No [tool.basedpyright]: lspd sets no mode of its own, so basedpyright's default
    # ("recommended") answers, as in its CLI: the warnings agree too.
    root = copy_fixture("py", tmp_path)
    both = ("error", "warning")
    gate = gate_errors(root, both)
    assert ("pkg/greeting.py", 24, 9, "reportImplicitOverride") in gate  # not in "standard"
    done = lspd_check(root, "--json")
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert errors_of(result, both) == gate
    assert result["scope"] == [
        {"language": "python", "project": ".", "files": 6, "note": "no pyrightconfig.json, "
         "[tool.basedpyright] or [tool.pyright]: every Python file"}
    ]  # fmt: skip


def test_check_of_clean_paths_exits_0(project: Path) -> None:
    done = lspd_check(project, "pkg/app.py", "pkg/greeting.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done.stdout.splitlines()[-1]) == (
        "lspd check: 2 files, 0 errors, 0 warnings, S s; the given paths: pkg/app.py "
        "pkg/greeting.py"
    )


def test_check_through_the_daemon_pages_everything(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    many = "\n".join(f"v{i}: int = '{i}'" for i in range(1500)) + "\n"
    (project / "pkg" / "many.py").write_text(many)
    with thread_daemon(project, prewarm=False):
        done = lspd_check(project, "--json")
        found = find_daemon(project)
        assert found is not None and check_progress(found) == {}  # no check runs now
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert result["errors"] == 1503 == len(errors_of(result))
    assert {("pkg/many.py", i + 1) for i in range(1500)} <= {
        (d["path"], d["line"]) for d in result["diagnostics"]
    }


def test_a_check_whose_files_went_unanswered_is_incomplete_not_clean(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No server answers in a millisecond: every file is named as not answered, and a check
    with no errors to show exits 2 and says so, never 0 ("clean")."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))

    def checked(*args: str) -> subprocess.CompletedProcess[str]:
        """A daemon of its own for each: the first's answers, come late, are kept, and a
        second check through it was answered whole from them (a loaded CI run)."""
        with thread_daemon(project, prewarm=False) as running:
            assert running.daemon.ws is not None
            # asked again alone, a file has 30 times this: a warm basedpyright answered in 30 ms
            running.daemon.ws.diagnostics_timeout = 0.0001
            return lspd_check(project, *args, "pkg/app.py", "pkg/greeting.py")

    done = checked()
    as_json = checked("--json")
    assert done.returncode == 2 == as_json.returncode, done.stdout + done.stderr
    assert done.stdout.splitlines()[:2] == [
        "skipped pkg/app.py: " + json.loads(as_json.stdout)["skipped"][0]["reason"],
        "skipped pkg/greeting.py: " + json.loads(as_json.stdout)["skipped"][1]["reason"],
    ]
    assert json.loads(as_json.stdout)["skipped"][0]["reason"].startswith("not answered")
    assert done.stderr.splitlines()[-1] == (
        "lspd: check incomplete: 2 files not checked (listed as skipped, each with why); no "
        "errors in the others"
    )


# What `lspd check` through a running daemon must not import: agents' hooks and a leaf edit's
# check start in the CLI, and each of these costs milliseconds of that start (http.client with
# the email package it parses headers with: ~20 ms; daemon/loopback.py speaks HTTP instead).
NOT_THROUGH_THE_DAEMON = (
    "asyncio",
    "logging",
    "secrets",
    "pydantic",
    "lspd.workspace",
    "http.client",
    "email",
)


def test_check_through_the_daemon_imports_nothing_of_the_in_process_check(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    argv = ["check", "--json", "--root", str(project)]
    answer, last, stderr = cli_through_daemon(project, argv, NOT_THROUGH_THE_DAEMON)
    assert last == "1 []", stderr
    assert json.loads(answer[0])["errors"] == 3


def test_paths_outside_the_current_directory_are_taken_from_the_root(
    project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "own.py").write_text("x: int = ''\n")

    def check(target: str) -> subprocess.CompletedProcess[str]:
        argv = [LSPD, "check", "--root", str(project), target]
        return subprocess.run(argv, cwd=elsewhere, capture_output=True, text=True, timeout=300)

    done = check("pkg/broken.py")  # not under the current directory: the root's
    assert done.returncode == 1, done.stderr
    assert summary(done.stdout.splitlines()[-1]) == (
        "lspd check: 1 file, 1 error, 0 warnings, S s; the given paths: pkg/broken.py"
    )
    outside = check("own.py")
    assert outside.returncode == 2
    assert outside.stderr.startswith(f"lspd: own.py is outside the workspace {project}")


def test_a_failure_of_lspd_exits_2(tmp_path: Path) -> None:
    (tmp_path / "lspd.toml").write_text("idle_timout = 1\n")
    done = lspd_check(tmp_path)
    assert done.returncode == 2
    assert "lspd.toml: idle_timout: unknown key" in done.stderr


def test_check_with_a_baseline_prints_only_what_is_new(project: Path) -> None:
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(project), *command], check=True)
    assert lspd_check(project, "--baseline", "HEAD").stdout.startswith("0 new since HEAD")
    greeting = project / "pkg" / "greeting.py"
    greeting.write_text(
        greeting.read_text().replace("(name: str) -> Greeter:", "(name: str, n: int) -> Greeter:")
    )
    done = lspd_check(project, "--baseline", "HEAD")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[0] == 'pkg/app.py:5:15: error: Argument missing for parameter "n" [reportCallIssue]'
    )
    # every diagnostic in both states (the fixture's 3), as `preview` counts them
    assert lines[1].startswith("1 new since HEAD (1 error(s)), 0 fixed, 3 unchanged; ")


def test_a_baseline_judges_the_change_where_the_gate_does(project: Path) -> None:
    """A break in a file no gate checks (tests/, left out by `include`) is not "new" for the
    gate; `--all` and an explicit path still find it."""
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'include = ["pkg"]\n')
    (project / "tests").mkdir()
    (project / "tests" / "test_x.py").write_text("from pkg.greeting import make_greeter\n")
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(project), *command], check=True)
    (project / "tests" / "test_x.py").write_text(
        "from pkg.greeting import make_greeter\nx: int = ''\n"
    )
    gated = lspd_check(project, "--baseline", "HEAD")
    assert gated.returncode == 0, gated.stdout + gated.stderr
    assert gated.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, 3 unchanged; ")
    for asked in (["--all"], ["tests/test_x.py"]):
        found = lspd_check(project, "--baseline", "HEAD", *asked)
        assert found.returncode == 1, found.stdout + found.stderr
        assert found.stdout.splitlines()[0].startswith("tests/test_x.py:2:10: error: Type ")


def test_check_checks_what_the_gate_checks_and_all_checks_everything(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'include = ["pkg"]\n')
    (project / "tests").mkdir()
    (project / "tests" / "test_x.py").write_text("x: int = ''\n")
    gate = gate_errors(project)
    assert {path for path, *_ in gate} == {"pkg/broken.py", "pkg/more_broken.py"}
    done = lspd_check(project, "--json")
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert errors_of(result) == gate
    assert result["scope"] == [
        {"language": "python", "project": ".", "config": "pyproject.toml [tool.basedpyright]",
         "files": 7}
    ]  # fmt: skip
    assert result["outside_gate"] == 1
    text = lspd_check(project)
    assert summary(text.stdout.splitlines()[-1]) == (
        "lspd check: 7 files, 3 errors, 0 warnings, S s; configuration: pyproject.toml "
        "[tool.basedpyright]; 1 source file no gate checks left out (--all checks them)"
    )
    every = lspd_check(project, "--all")
    assert every.returncode == 1
    assert "tests/test_x.py:1:10: error: " in every.stdout
    assert summary(every.stdout.splitlines()[-1]) == (
        "lspd check: 8 files, 4 errors, 0 warnings, S s; every source file (--all)"
    )
    tool = subprocess.run(  # the MCP tool's `all`, as the derived command sends it
        [LSPD, "workspace-diagnostics", "--all", "--json", "--root", str(project)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    answer = json.loads(tool.stdout)
    assert (answer["files_checked"], answer["errors"], "scope" in answer) == (8, 4, False)
    given = lspd_check(project, "tests/test_x.py")  # explicit paths: exactly those
    assert summary(given.stdout.splitlines()[-1]) == (
        "lspd check: 1 file, 1 error, 0 warnings, S s; the given paths: tests/test_x.py"
    )


def test_all_says_the_files_mypy_leaves_out_in_the_text_too(tmp_path: Path) -> None:
    """`--all` of a project whose mypy checks `files = ["app"]`, scripts/ beside: its text
    names each file mypy did not check. Before: '5 files', and not a word of them."""
    root = mypy_project(tmp_path / "p", {**STRICT, **BESIDE})
    every = lspd_check(root, "--all")
    assert every.returncode == 1, every.stderr
    lines = every.stdout.splitlines()
    assert lines[-4:-2] == [
        f"skipped scripts/other.py: {LEFT_OUT}",
        f"skipped scripts/tool.py: {LEFT_OUT}",
    ]
    # STRICT's `import attr`, which the environment lacks: mypy's import-not-found is hinted
    assert lines[-2].startswith("hint: imports did not resolve with mypy ")
    assert (
        summary(lines[-1])
        == "lspd check: 3 files, 3 errors, 0 warnings, S s; every source file (--all)"
    )


def test_errors_only_limit_and_offset_page_like_the_mcp_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = copy_fixture("py", tmp_path)  # basedpyright's default mode: warnings too
    with thread_daemon(root, prewarm=False):
        whole = json.loads(lspd_check(root, "--json").stdout)
        listed = whole["diagnostics"]
        errors = [d for d in listed if d["severity"] == "error"]
        assert whole["warnings"] > 0 and len(errors) == whole["errors"] == 1
        every = json.loads(lspd_check(root, "--json", "--all").stdout)  # ?all=1 to the daemon
        assert "scope" in whole and "scope" not in every and every["files_checked"] == 6
        assert len(listed) == 3

        only = json.loads(lspd_check(root, "--json", "--errors-only").stdout)
        assert only["diagnostics"] == errors and only["total"] == len(errors)
        assert only["warnings"] == 0 and all(f["warnings"] == 0 for f in only["files"])
        text = lspd_check(root, "--errors-only")
        assert text.returncode == 1
        lines = text.stdout.splitlines()
        assert sum(": error: " in line for line in lines) == len(errors)
        assert ": warning: " not in text.stdout
        assert ", 1 error (warnings left out), " in lines[-1]

        page = json.loads(lspd_check(root, "--json", "--limit", "1", "--offset", "1").stdout)
        assert page["diagnostics"] == listed[1:2] and page["total"] == len(listed)
        assert (page["offset"], page["next_offset"], page["truncated"]) == (1, 2, True)
        shown = lspd_check(root, "--limit", "2")
        assert shown.returncode == 1  # the whole check's errors, whatever the page shows
        lines = shown.stdout.splitlines()
        assert sum(": error: " in line or ": warning: " in line for line in lines) == 2
        assert lines[-1].endswith(f"; shown 1-2 of {len(listed)} (next: --offset 2)")
        past = lspd_check(root, "--offset", str(len(listed) + 5))
        assert past.returncode == 2
        assert past.stderr == (
            f"lspd: --offset {len(listed) + 5} is past the last diagnostic ({len(listed)})\n"
        )


def test_typescript_check_follows_the_tsconfig_like_tsc(tmp_path: Path) -> None:
    # ky's shape: tsconfig includes `source`; `test/` is outside it, and `tsc -p .` says 0.
    root = copy_fixture("ts", tmp_path)
    config = (root / "tsconfig.json").read_text()  # main.ts and what it imports: shapes.ts
    (root / "tsconfig.json").write_text(
        config.replace('"include": ["src"]', '"files": ["src/main.ts"]')
    )
    (root / "test").mkdir()
    (root / "test" / "main.test.ts").write_text("const n: number = 'one';\n")
    done = lspd_check(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done.stdout.splitlines()[-1]) == (
        "lspd check: 2 files, 0 errors, 0 warnings, S s; configuration: tsconfig.json; "
        "3 source files no gate checks left out (--all checks them)"
    )
    every = lspd_check(root, "--all")
    assert every.returncode == 1
    assert "test/main.test.ts:1:7: error: Type 'string' is not assignable" in every.stdout


def test_a_nested_package_not_installed_is_named_in_the_summary(tmp_path: Path) -> None:
    """zustand's examples/starter: its own package.json, never installed, an error its
    tsconfig's program would say; the root's gate is clean, and so is the check."""
    root = _clean_root(tmp_path)
    tsconfig = '{"compilerOptions": {"strict": true}}\n'
    _uninstalled(root / "examples/starter", tsconfig, "src/main.ts", "const n: number = 'one';\n")
    done = lspd_check(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done.stdout.splitlines()[-1]) == (
        "lspd check: 3 files, 0 errors, 0 warnings, S s; configuration: tsconfig.json, "
        "examples/starter not checked: examples/starter/package.json's dependencies are not "
        "installed (no examples/starter/node_modules, and no workspace above hoists them "
        "into its own); install them there to check it; 1 source file no gate checks left "
        "out (--all checks them)"
    )


def test_more_than_two_projects_not_checked_are_named_alone(tmp_path: Path) -> None:
    """jotai: 7 examples and its website not installed, each note a sentence: the summary
    names them, the JSON says why."""
    root = _clean_root(tmp_path)
    for name in ("a", "b", "c", "d"):
        _uninstalled(root / "examples" / name, "{}\n", "main.ts", "export const n = 1;\n")
    done = lspd_check(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert summary(done.stdout.splitlines()[-1]) == (
        "lspd check: 3 files, 0 errors, 0 warnings, S s; configuration: tsconfig.json, "
        "4 not checked (examples/a, examples/b, examples/c and 1 more: --json says why); "
        "4 source files no gate checks left out (--all checks them)"
    )


def _clean_root(tmp_path: Path) -> Path:
    """The TypeScript fixture, its gate clean, an npm package of its own."""
    root = copy_fixture("ts", tmp_path)
    (root / "src" / "broken.ts").unlink()
    (root / "package.json").write_text('{"name": "root", "private": true}\n')
    return root


def _uninstalled(package: Path, tsconfig: str, source: str, text: str) -> None:
    """A nested npm package declaring a dependency, never installed: its tsconfig, a source."""
    (package / source).parent.mkdir(parents=True)
    (package / "package.json").write_text('{"dependencies": {"react": "^18.3.1"}}\n')
    (package / "tsconfig.json").write_text(tsconfig)
    (package / source).write_text(text)


def test_a_configuration_that_cannot_be_read_fails_with_its_name(tmp_path: Path) -> None:
    root = copy_fixture("py", tmp_path)
    (root / "pyrightconfig.json").write_text('{"include": ["pkg"],, }\n')
    done = lspd_check(root)
    assert done.returncode == 2
    *progress, said = done.stderr.splitlines()  # progress only when it took 2 s (a busy machine)
    assert said.startswith(
        "lspd: pyrightconfig.json:1:23: not valid JSON (Expecting property name enclosed in "
        "double quotes): fix it"
    )
    assert all(line.startswith("lspd: checking") for line in progress) and not done.stdout


def test_with_a_baseline_text_and_json_agree_on_what_is_new(project: Path) -> None:
    # The exit code and the list are what the change introduced, in both forms; what was
    # there before (pkg/broken.py's error) is counted as unchanged, never listed or counted.
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-qm", "base"]):
        subprocess.run(["git", "-C", str(project), *command], check=True)
    broken = project / "pkg" / "broken.py"
    broken.write_text(broken.read_text() + "\n")  # changed, its old error still there
    text = lspd_check(project, "--baseline", "HEAD")
    data = lspd_check(project, "--baseline", "HEAD", "--json")
    assert text.returncode == data.returncode == 0, text.stderr + data.stderr
    result = json.loads(data.stdout)  # workspace_diagnostics' JSON, as its --help says
    changes = result["changes"]
    assert changes["introduced"] == [] and changes["fixed"] == [] and changes["unchanged"] >= 1
    # Its counts are those of what was introduced (no pre-existing count leads the answer).
    assert (result["errors"], result["warnings"], result["total"]) == (0, 0, 0)
    assert result.get("files", []) == [] and not result.get("truncated")
    assert text.stdout.startswith("0 new since HEAD (0 error(s)), 0 fixed, ")
    greeting = project / "pkg" / "greeting.py"
    greeting.write_text(
        greeting.read_text().replace("(name: str) -> Greeter:", "(name: str, n: int) -> Greeter:")
    )
    text = lspd_check(project, "--baseline", "HEAD")
    data = lspd_check(project, "--baseline", "HEAD", "--json")
    assert text.returncode == data.returncode == 1
    result = json.loads(data.stdout)
    [new] = result["changes"]["introduced"]
    assert (new["path"], new["line"], new["code"]) == ("pkg/app.py", 5, "reportCallIssue")
    assert (result["errors"], result["total"]) == (1, 1)
    assert "truncated" not in result  # left out at its default, as in the MCP JSON
    assert result["files"] == [{"path": "pkg/app.py", "errors": 1, "warnings": 0}]


def test_preview_reads_the_changes_from_stdin(project: Path) -> None:
    changes = [{"path": "pkg/app.py", "content": "from pkg.greeting import make_greeter\n"
                "x: int = make_greeter('a')\n"}]  # fmt: skip
    done = subprocess.run(
        [LSPD, "preview", "--changes", "-", "--root", str(project), "--json"],
        cwd=project / "pkg",  # the paths are taken from the current directory
        input=json.dumps([{**changes[0], "path": "app.py"}]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # it introduces an error
    result = json.loads(done.stdout)
    assert result["errors"] == 1
    assert [(d["path"], d["line"], d["code"]) for d in result["changes"]["introduced"]] == [
        ("pkg/app.py", 2, "reportAssignmentType")
    ]
    assert "x: int" not in (project / "pkg" / "app.py").read_text()


def test_preview_json_holds_every_page_as_check_with_a_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # valibot: a signature change's 126 errors came back as 67 and a `next_offset` from
    # `preview --json`, where `check --baseline HEAD --json` listed all 126.
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = paging_project(tmp_path / "paging")
    text = (root / "lib.py").read_text().replace("(x: int)", "(x: int, y: int)")
    changes = tmp_path / "changes.json"
    changes.write_text(json.dumps([{"path": "lib.py", "content": text}]))
    command = [LSPD, "preview", "--changes", str(changes), "--root", str(root), "--json"]
    expected = [("users.py", 3 + i) for i in range(CALLS)]

    def introduced(done: subprocess.CompletedProcess[str]) -> list[tuple[str, int]]:
        assert done.returncode == 1, done.stdout[-500:] + done.stderr
        result = json.loads(done.stdout)
        assert "next_offset" not in result and result["changes"]["fixed_total"] == FIXED
        return [(d["path"], d["line"]) for d in result["changes"]["introduced"]]

    run = functools.partial(subprocess.run, cwd=root, capture_output=True, text=True)
    assert introduced(run(command)) == expected
    with thread_daemon(root, prewarm=False) as served:
        assert introduced(run(command)) == expected
        assert served.daemon.ws is not None
        assert memory_of(served.daemon.ws).made == 1  # every page cut from one preview
    page = run([*command, "--offset", "0"])
    assert json.loads(page.stdout)["next_offset"] > 0  # a page asked: that page


def test_with_a_baseline_every_introduced_diagnostic_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # More than one answer holds: the CLI asks page after page, all from one comparison.
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = paging_project(tmp_path / "paging")
    change_signature(root)
    expected = {f"users.py:{3 + i}:1:" for i in range(CALLS)}
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    done = lspd_check(root, "--baseline", "HEAD")  # no daemon: in-process
    assert done.returncode == 1, done.stderr
    *lines, headline = done.stdout.splitlines()
    assert {line.split(" ")[0] for line in lines} == expected and len(lines) == CALLS
    assert headline.startswith(f"{CALLS} new since HEAD ({CALLS} error(s)), {FIXED} fixed, ")
    # In-process too, the check against HEAD's result, made here (the tree is dirty: the
    # engine's preview of HEAD's texts) and saved in the state directory.
    assert f"the kept result of {head[:12]} (checked)" in headline
    again = lspd_check(root, "--baseline", "HEAD")  # the next one-shot reads it back
    assert again.returncode == 1 and f"of {head[:12]} (read back)" in again.stdout
    assert again.stdout.splitlines()[:-1] == lines
    with thread_daemon(root, prewarm=False) as served:
        data = lspd_check(root, "--baseline", "HEAD", "--json")
        text = lspd_check(root, "--baseline", "HEAD")
        assert served.daemon.ws is not None
        made = memory_of(served.daemon.ws).made
        assert kept_memory(served.daemon.ws).made == 0  # HEAD's result read back, not made
    assert (data.returncode, text.returncode) == (1, 1), data.stderr + text.stderr
    # The same introduced lines and counts: the daemon reads the result the command saved.
    *served_lines, served_headline = text.stdout.splitlines()
    assert served_lines == lines
    assert served_headline == headline.replace("(checked)", "(read back)")
    changes = json.loads(data.stdout)["changes"]
    assert [f"{d['path']}:{d['line']}:{d['column']}:" for d in changes["introduced"]] == [
        line.split(" ")[0] for line in lines
    ]
    assert changes["fixed_total"] == FIXED
    assert made == 1  # the pages of both commands were cut from one comparison


def test_a_checker_that_stopped_is_said_in_the_text_too(tmp_path: Path) -> None:
    # tsc reports only the syntax errors when a file has one: without the stop said, the
    # text read as if src/broken.ts's errors were the project's only ones (the JSON said it).
    root = copy_fixture("ts", tmp_path)
    (root / "src" / "cut.ts").write_text("export function cut(a: number {\n  return a;\n}\n")
    done = lspd_check(root)
    assert done.returncode == 1, done.stdout + done.stderr
    said = lspd_check(root, "--json")
    stopped = json.loads(said.stdout)["stopped"]
    assert [s.split(" (")[0] for s in stopped] == [
        "tsc stopped at src/cut.ts:1, src/cut.ts:2, src/cut.ts:4"
    ]
    assert [line for line in done.stdout.splitlines() if "stopped at" in line] == stopped
