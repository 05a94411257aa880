"""A rename over many files, paged by whole files on basedpyright: each page's diff applies
on its own and all pages together are the whole rename; the check is made once and kept
between pages, made anew after a file changes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.cli import main
from lspd.ops.budget import BUDGET_CHARS, MAX_LIMIT, compact_json, item_sizes
from lspd.ops.changes_page import memory_of
from lspd.ops.edit_models import RenameResult
from lspd.ops.edit_page import CHECK_SHARE, cut_check
from lspd.ops.models import Changes, FileDiagnostic
from lspd.surface.table import call, operation
from tests.conftest import Warm, warm_root
from tests.ops.applied import applied, basedpyright_errors

USERS = 40  # modules calling the renamed function
CALLS = 3  # calls in each

CORE = '''"""The function every user module calls."""


def notify_all(message: str) -> str:
    """Tell everyone."""
    return message.upper()
'''


def user(n: int) -> str:
    """A module calling `notify_all` CALLS times, on long lines (a long diff per file)."""
    calls = "\n".join(
        f'    notify_all("user {n:02d} says the {k}th thing, which takes a long line of text '
        f'so that the diff of this file is long enough to matter")'
        for k in range(CALLS)
    )
    return f"from many.core import notify_all\n\n\ndef speak_{n:02d}() -> None:\n{calls}\n"


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """A generated package of `USERS` modules calling one function, with its watcher."""
    root = tmp_path_factory.mktemp("many") / "many_py"
    (root / "many").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "many"\nversion = "0"\n')
    (root / "many/__init__.py").write_text("")
    (root / "many/core.py").write_text(CORE)
    for n in range(USERS):
        (root / f"many/user_{n:02d}.py").write_text(user(n))
    yield from warm_root(root.resolve(), root.parent / "logs", watch=True)


def rename(warm: Warm, **arguments: object) -> RenameResult:
    given = {"path": "many/core.py", "line": 4, "column": 5, "new_name": "tell_everyone"}
    result: RenameResult = warm.run(call(operation("rename"), warm.ws, given | arguments))
    return result


def pages(warm: Warm, limit: int = MAX_LIMIT) -> list[RenameResult]:
    """Every page, following `next_offset` from 0."""
    out = [rename(warm, limit=limit)]
    while (at := out[-1].next_offset) is not None:
        out.append(rename(warm, offset=at, limit=limit))
    return out


def test_a_long_rename_is_paged_by_whole_files_within_the_budget(
    many: Warm, tmp_path: Path
) -> None:
    made = memory_of(many.ws).made
    paged = pages(many)
    assert memory_of(many.ws).made == made + 1  # one check for every page
    first = paged[0]
    assert len(compact_json(first)) <= BUDGET_CHARS  # the default answer
    assert first.truncated and first.next_offset == len(first.files)
    assert len(paged) >= 2
    expected = ["many/core.py", *(f"many/user_{n:02d}.py" for n in range(USERS))]
    assert [f.path for p in paged for f in p.files] == expected  # each file once, in order
    assert [f.edits for p in paged for f in p.files] == [1] + [1 + CALLS] * USERS
    for p in paged:
        assert (p.total, p.edits, p.old_name) == (USERS + 1, 1 + USERS * (1 + CALLS), "notify_all")
        assert p.check is not None and (p.check.introduced, p.check.fixed) == ([], [])
        assert p.check == first.check  # the one check, on every page
        # Whole files only: the diff names exactly the page's files.
        named = [line[len("+++ b/") :] for line in p.diff.splitlines() if line.startswith("+++ ")]
        assert named == [f.path for f in p.files]
    assert paged[-1].next_offset is None and not paged[-1].truncated
    assert [len(p.files) for p in paged] == [13, 13, 13, 2]  # the budget's cut
    # Each page says it is a part, beside its diff and in its check's scope (the httpx
    # rename's first page, 4 of 13 files, said `introduced: []` and left mypy 107 errors).
    for p, start in zip(paged, [0, *(q.next_offset for q in paged[:-1])], strict=True):
        rest = p.total - len(p.files)
        ahead = p.next_offset if start == 0 else 0
        assert p.partial == (
            f"`diff` holds only files {start + 1}-{start + len(p.files)} of the rename's 41: "
            f"applied alone it is half a rename ({rest} file(s) still name `notify_all`), whose "
            "errors `check` (the whole rename's) does not list. Apply it only together with "
            f"every other page (send `offset` {ahead}, then each `next_offset` until there is "
            "none), or get the whole diff as one answer: `lspd rename many/core.py:4:5 "
            "tell_everyone --json` from the root (the CLI joins the pages)"
        )
        assert p.check is not None and p.check.scope.startswith(
            "the whole rename: all 41 files, every page's diff applied; 41 changed file(s)"
        )
    # Each page applies on its own ...
    for index, p in enumerate(paged):
        copy = applied(many.root, p.diff, tmp_path / f"page{index}")
        for f in p.files:
            assert "notify_all" not in (copy / f.path).read_text()
    # ... and all pages together are the whole rename, which breaks nothing.
    whole = applied(many.root, "".join(p.diff for p in paged), tmp_path / "whole")
    assert not any("notify_all" in (whole / path).read_text() for path in expected)
    assert basedpyright_errors(whole) == basedpyright_errors(many.root) == []


def test_a_larger_limit_never_lists_fewer_files(many: Warm) -> None:
    counts = [len(rename(many, limit=limit).files) for limit in (1, 2, 5, 10, 1000)]
    assert counts[:3] == [1, 2, 5]
    assert counts == sorted(counts) and counts[-1] < USERS + 1  # the budget cuts it


def test_a_file_changed_between_pages_makes_the_check_anew(many: Warm) -> None:
    first = rename(many)
    made = memory_of(many.ws).made
    assert first.next_offset is not None
    rename(many, offset=first.next_offset)
    assert memory_of(many.ws).made == made  # cut from the kept check
    extra = many.root / "many/extra.py"
    extra.write_text("from many.core import notify_all\n\nnotify_all('x')\n")
    try:
        many.run(many.ws.watcher.catch_up())  # type: ignore[union-attr]
        again = rename(many, offset=first.next_offset)
        assert memory_of(many.ws).made == made + 1
        assert again.total == first.total + 1  # the new file is in the rename
    finally:
        extra.unlink()
        many.run(many.ws.watcher.catch_up())  # type: ignore[union-attr]


def test_an_offset_past_the_files_says_what_to_send(many: Warm) -> None:
    with pytest.raises(Exception, match="`offset` 999 is past the end: there are 41 items"):
        rename(many, offset=999)


def _diagnostic(n: int) -> FileDiagnostic:
    return FileDiagnostic(
        path=f"many/user_{n:02d}.py",
        line=n + 1,
        column=1,
        end_line=n + 1,
        end_column=2,
        severity="error",
        message="x" * 200,
        source="basedpyright",
    )


def test_a_long_check_is_cut_to_its_share_and_says_so() -> None:
    check = Changes(
        baseline="disk",
        introduced=[_diagnostic(n) for n in range(100)],
        fixed=[_diagnostic(n) for n in range(3)],
        scope="41 changed file(s)",
    )
    cut, note = cut_check(check, None)
    assert cut is not None and note is not None
    listed = len(cut.introduced)
    assert 0 < listed < 100 and cut.fixed == [] and cut.fixed_total == 3
    assert (
        sum(item_sizes(cut.introduced)) + listed
        <= CHECK_SHARE
        < sum(item_sizes(cut.introduced + check.introduced[listed : listed + 1])) + listed + 1
    )
    assert note == (
        f"`check` lists {listed} of 100 introduced and 0 of 3 fixed diagnostics (the answer's "
        "size limit); `preview` the applied diff for all"
    )
    assert cut_check(check.model_copy(update={"introduced": []}), "n") == (
        check.model_copy(update={"introduced": []}),
        "n",
    )


def test_the_cli_writes_the_whole_patch(many: Warm, tmp_path: Path) -> None:
    """`lspd rename ... > x.patch`: the text output joins every page's diff."""
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "lspd"),
            "rename",
            "many/core.py:4:5",
            "tell_everyone",
            "--root",
            str(many.root),
        ],
        cwd=many.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"rename `notify_all` to `tell_everyone`: {1 + USERS * (1 + CALLS)} edit(s) in "
        f"{USERS + 1} file(s)"
    )
    whole = applied(many.root, done.stdout, tmp_path)
    assert sum("tell_everyone" in p.read_text() for p in (whole / "many").glob("*.py")) == USERS + 1


def test_the_cli_json_is_the_whole_rename(
    many: Warm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lspd rename ... --json | jq -r .diff | git apply`: the answer is every page joined,
    so the diff is the whole rename, which leaves basedpyright without an error; a page is
    what `--limit` or `--offset` asks for."""
    monkeypatch.setenv("LSPD_STATE_DIR", str(tmp_path / "state"))
    command = [
        str(Path(sys.executable).parent / "lspd"),
        *("rename", "many/core.py:4:5", "tell_everyone", "--json", "--root", str(many.root)),
    ]
    done = subprocess.run(
        command, cwd=many.root, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    whole = json.loads(done.stdout)
    paged = pages(many)
    expected = ["many/core.py", *(f"many/user_{n:02d}.py" for n in range(USERS))]
    assert [f["path"] for f in whole["files"]] == expected
    assert whole["diff"] == "".join(p.diff for p in paged)
    assert {"truncated", "next_offset", "partial"} & set(whole) == set()
    assert (whole["total"], whole["edits"]) == (USERS + 1, 1 + USERS * (1 + CALLS))
    assert whole["check"] == paged[0].model_dump(mode="json", exclude_defaults=True)["check"]
    copy = applied(many.root, whole["diff"], tmp_path)
    assert not any("notify_all" in (copy / path).read_text() for path in expected)
    assert basedpyright_errors(copy) == []
    # A page asked for is the MCP answer: its `partial` says what it is.
    monkeypatch.chdir(many.root)
    assert main([*command[1:], "--limit", "1000"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert page == json.loads(compact_json(paged[0]))
    assert page["partial"].startswith("`diff` holds only files 1-13 of the rename's 41")
