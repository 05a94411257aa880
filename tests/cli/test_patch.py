"""Real `git diff` output applied in memory: what `lspd preview --patch` previews."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from lspd.cli import main
from lspd.cli.patch import apply, changes, parse
from lspd.errors import InvalidInput
from tests.conftest import copy_fixture

GREETING_OLD = "def make_greeter(name: str) -> Greeter:\n    return Greeter(name)"
GREETING_NEW = "def make_greeter(name: str, loud: bool) -> Greeter:\n    return Greeter(name)"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout


def _repository(tmp_path: Path) -> Path:
    root = copy_fixture("py", tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "fixture")
    return root


def _edit(root: Path) -> dict[str, str | None]:
    """Edit the work tree as an agent would; the files as they are then (None: deleted)."""
    greeting = root / "pkg/greeting.py"
    greeting.write_text(greeting.read_text().replace(GREETING_OLD, GREETING_NEW))
    (root / "pkg/fresh.py").write_text("from pkg.greeting import make_greeter\nn: int = ''\n")
    (root / "pkg/extra.py").unlink()
    _git(root, "mv", "pkg/app.py", "pkg/main_app.py")
    moved = root / "pkg/main_app.py"
    moved.write_text(moved.read_text() + "\nlast = 1")  # and no newline at the end
    _git(root, "add", "-N", "pkg/fresh.py")
    return {
        str(root / "pkg/greeting.py"): greeting.read_text(),
        str(root / "pkg/fresh.py"): (root / "pkg/fresh.py").read_text(),
        str(root / "pkg/extra.py"): None,
        str(root / "pkg/app.py"): None,
        str(root / "pkg/main_app.py"): moved.read_text(),
    }


def _undo(root: Path) -> None:
    _git(root, "reset", "-q", "--hard")
    _git(root, "clean", "-qfd")


def test_a_git_diff_becomes_each_file_as_it_would_be(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    expected = _edit(root)
    diff = _git(root, "diff", "-M", "HEAD")
    assert "rename from pkg/app.py" in diff and "new file mode" in diff
    assert "deleted file mode" in diff and "\\ No newline at end of file" in diff
    _undo(root)  # the diff now applies to the disk, as it would before writing
    found = {c["path"]: c["content"] for c in changes(diff, root)}
    assert found == expected


def test_a_diff_made_against_an_earlier_text_is_found_nearby(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    greeting = root / "pkg/greeting.py"
    before = greeting.read_text()
    greeting.write_text(before.replace(GREETING_OLD, GREETING_NEW))
    diff = _git(root, "diff")
    # Three lines added above the hunk since: it applies three lines further down.
    shifted = '"""Three more lines."""\n\n\n' + before
    [patch] = parse(diff)
    assert apply(shifted, patch.hunks, "pkg/greeting.py") == (
        '"""Three more lines."""\n\n\n' + before.replace(GREETING_OLD, GREETING_NEW)
    )
    # Its lines gone: refused, naming the file, never previewing something else.
    with pytest.raises(InvalidInput, match=r"does not apply to pkg/greeting.py: .* line \d+"):
        apply(before.replace("make_greeter", "build"), patch.hunks, "pkg/greeting.py")


def test_a_removed_line_that_looks_like_a_header_is_a_removed_line() -> None:
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a = 1\n--- b = 2\n+b = 3\n c = 4\n"
    [patch] = parse(diff)
    assert apply("a = 1\n-- b = 2\nc = 4\n", patch.hunks, "x.py") == "a = 1\nb = 3\nc = 4\n"


def test_what_is_not_a_diff_says_what_to_send() -> None:
    with pytest.raises(InvalidInput, match="holds no file: send a unified diff"):
        parse("")
    with pytest.raises(InvalidInput, match="binary file"):
        parse("diff --git a/p.png b/p.png\nBinary files a/p.png and b/p.png differ\n")
    with pytest.raises(InvalidInput, match="ends early"):
        parse("--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a = 1\n")


def test_preview_takes_a_patch_pairs_or_json_and_answers_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # On a real server, in-process: the three forms of one change give one answer, and the
    # exit code says whether it introduces errors (it does: fresh.py's assignment, and
    # make_greeter's missing argument in main_app.py).
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    root = _repository(tmp_path)
    expected = _edit(root)
    diff = _git(root, "diff", "-M", "HEAD")
    (tmp_path / "change.diff").write_text(diff)
    for path, content in expected.items():
        if content is not None:
            (tmp_path / Path(path).name).write_text(content)
    _undo(root)
    monkeypatch.chdir(root / "pkg")  # a patch's paths start at the repository's top
    at = ["--root", str(root)]
    answers = []
    monkeypatch.setattr("sys.stdin", io.StringIO(diff))
    assert main(["preview", "--patch", "-", "--json", *at]) == 1
    answers.append(json.loads(capsys.readouterr().out))
    monkeypatch.chdir(tmp_path)  # outside it: `--root`'s repository's top
    assert main(["preview", "--patch", str(tmp_path / "change.diff"), "--json", *at]) == 1
    answers.append(json.loads(capsys.readouterr().out))
    monkeypatch.chdir(root / "pkg")
    json_changes = [{"path": p, "content": c} for p, c in expected.items()]
    (tmp_path / "changes.json").write_text(json.dumps(json_changes))
    assert main(["preview", "--changes", str(tmp_path / "changes.json"), "--json", *at]) == 1
    answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1] == answers[2]
    introduced = {(d["path"], d["code"]) for d in answers[0]["changes"]["introduced"]}
    assert ("pkg/fresh.py", "reportAssignmentType") in introduced
    assert ("pkg/main_app.py", "reportCallIssue") in introduced
    assert answers[0]["errors"] == sum(
        d["severity"] == "error" for d in answers[0]["changes"]["introduced"]
    )
    # Pairs for the files that stay (deletions need the patch or JSON).
    pairs = ["--file", "greeting.py", "--content-file", str(tmp_path / "greeting.py")]
    pairs += ["--file", "fresh.py", "--content-file", str(tmp_path / "fresh.py")]
    assert main(["preview", *pairs, "--json", *at]) == 1
    paired = json.loads(capsys.readouterr().out)
    assert {(d["path"], d["code"]) for d in paired["changes"]["introduced"]} >= {
        ("pkg/fresh.py", "reportAssignmentType"),
        ("pkg/app.py", "reportCallIssue"),
    }
    assert not (root / "pkg/fresh.py").exists() and (root / "pkg/extra.py").exists()
    assert main(["preview", "--file", "greeting.py"]) == 2
    assert capsys.readouterr().err == (
        "lspd: each --file PATH takes the --content-file F after it; got 1 --file and 0 "
        "--content-file\n"
    )


def test_a_last_line_gaining_its_newline_mid_hunk() -> None:
    # git puts the marker right after the old side's last line, before the new lines.
    diff = (
        "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,3 @@\n a = 1\n-b = 2\n"
        "\\ No newline at end of file\n+b = 2\n+c = 3\n"
    )
    [patch] = parse(diff)
    assert apply("a = 1\nb = 2", patch.hunks, "x.py") == "a = 1\nb = 2\nc = 3\n"


def test_a_files_lines_in_a_diff_end_where_git_ends_them(tmp_path: Path) -> None:
    # A form feed, U+2028 and a lone \r inside a line, CRLF lines: what `git apply` writes.
    # str.splitlines() ended a line at each (the preview refused the diff: not there).
    root = tmp_path / "r"
    root.mkdir()
    head = "a = 1\r\nb = 2\r\n\x0c\n# x \u2028 y\nc = 3  # \r d\nz = 0\n"
    (root / "m.py").write_bytes(head.encode())
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    now = head.replace("b = 2\r\n", "b = 22\r\n\x0c\n").replace("z = 0", "z = '\u2028'  # \r q")
    (root / "m.py").write_bytes(now.encode())
    diff = subprocess.run(["git", "-C", str(root), "diff"], capture_output=True, check=True)
    _git(root, "checkout", "-q", "m.py")
    assert changes(diff.stdout.decode(), root) == [{"path": str(root / "m.py"), "content": now}]
    subprocess.run(["git", "-C", str(root), "apply"], input=diff.stdout, check=True)
    assert (root / "m.py").read_bytes().decode() == now  # git's own reading of it
