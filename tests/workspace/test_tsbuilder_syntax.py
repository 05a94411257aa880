"""A program with a syntax error: tsc reports its syntax errors alone (no semantic
diagnostic of any file), and so do the gate's answers, `check` and `preview`, on the
project's own TypeScript 5 (the builder) and on lspd's; the check after the fix is right and
still incremental (real builder, the project's own tsc asserted beside it)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.daemon.feedback import Feedback
from lspd.ops.check import check_all, workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from lspd.ops.preview import previewed
from tests.conftest import Warm, warm_root
from tests.engine.test_affected import checked_anew, watched, written
from tests.ops.test_baseline import committed
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.toolchains import TS_PINNED, gate, typescript_package

CONFIG = '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}\n'
CORE = "export const add = (a: number, b: number): number => a + b;\n"
USER = 'import { add } from "./core";\nexport const s: string = add(1, 2);\n'
BROKEN = CORE + "\nexport function broken( {\n"  # the examiner's edit of zod's util.ts
# A syntax error and a type error of the same file (the examiner's second form).
FORM = USER + "const x: number = ;\nconst y: string = 1;\n"
TYPE_ERROR = "src/user.ts(2,14): error TS2322: Type 'number' is not assignable to type 'string'."
# What a comparison says of tsc stopped at BROKEN's syntax error: user.ts's error not checked.
STOPPED = {
    "checker": "tsc",
    "at": ["src/core.ts:4"],
    "files": ["src/user.ts"],
    "not_checked": 1,
    "why": None,
}


@pytest.fixture(params=[None, TS_PINNED], ids=["5.9 (lspd's)", "5.4"])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """core.ts and user.ts (one type error) on their own TypeScript, the watcher running."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER)
    package = lspd_typescript() if request.param is None else typescript_package(request.param)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(package)
    yield from watched(root, tmp_path / "logs")


def said(warm: Warm) -> list[str]:
    """`lspd check`'s errors in tsc's own form."""
    found = warm.run(check_all(warm.ws)).everything
    return [f"{d.path}({d.line},{d.column}): error TS{d.code}: {d.message}" for d in found]


def tsc_of(root: Path, tmp_path: Path, files: dict[str, str]) -> list[str]:
    """The project's own `tsc -p .` on a copy holding `files`."""
    copy = tmp_path / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".lspd*"))
    written(copy, files)
    return gate(copy)[1].splitlines()


def test_a_syntax_error_is_the_whole_answer_as_tsc_says(project: Warm, tmp_path: Path) -> None:
    root = project.root
    assert said(project) == [TYPE_ERROR] == tsc_of(root, tmp_path, {})

    # Previewed, then written: user.ts's type error is not reported, nor core.ts's own.
    broken = ["src/core.ts(4,1): error TS1005: '}' expected."]
    assert tsc_of(root, tmp_path, {"src/core.ts": BROKEN}) == broken
    preview = project.run(previewed(project.ws, [{"path": "src/core.ts", "content": BROKEN}]))
    changes = preview.changes
    assert [(d.path, d.line, d.column, d.code) for d in changes.introduced] == [
        ("src/core.ts", 4, 1, "1005")
    ]
    # tsc stopped there and checked nothing else: user.ts's type error is not fixed (it was
    # said fixed before) but not checked, and the answer says where tsc stopped.
    assert changes.fixed == [] and changes.fixed_total == 0
    assert [s.model_dump() for s in changes.stopped] == [STOPPED]
    (root / "src/core.ts").write_text(BROKEN)
    assert said(project) == broken
    assert checked_anew(project) == ["src/core.ts", "src/user.ts"]  # their answers changed

    # The fix previewed: user.ts's type error is back, though no edit affects user.ts; not
    # introduced (it was, before): tsc did not check it on disk, where it stopped at core.ts.
    fix = project.run(previewed(project.ws, [{"path": "src/core.ts", "content": CORE}]))
    assert fix.changes.introduced == [] and fix.changes.stopped == []
    assert [s.model_dump() for s in fix.changes.baseline_stopped] == [STOPPED]
    assert [(d.path, d.line, d.code) for d in fix.changes.fixed] == [("src/core.ts", 4, "1005")]
    assert fix.changes.unchanged == 0
    # The fix: the builder checks what the edit affects, as it kept it for this check.
    (root / "src/core.ts").write_text(CORE)
    assert said(project) == [TYPE_ERROR]

    second = {"src/user.ts": FORM}
    form = ["src/user.ts(3,19): error TS1109: Expression expected."]
    assert tsc_of(root, tmp_path, second) == form
    (root / "src/user.ts").write_text(FORM)
    assert said(project) == form
    (root / "src/user.ts").write_text(USER.replace("string", "number"))
    assert (
        said(project)
        == []
        == tsc_of(root, tmp_path, {"src/user.ts": USER.replace("string", "number")})
    )


def test_one_file_s_syntax_error_at_the_end_is_where_tsc_puts_it(project: Warm) -> None:
    """tsserver's open document says the end of a file ending in a line break as its last
    line's length plus the break (3:26 here): `diagnostics` of the file says tsc's 4:1."""
    (project.root / "src/core.ts").write_text(BROKEN)
    result = project.run(diagnostics(project.ws, "src/core.ts"))
    [found] = [d for d in result.diagnostics if d.code == "1005"]
    assert (found.line, found.column, found.end_line, found.end_column) == (4, 1, 4, 1)


def test_the_hook_tells_the_syntax_error_alone(tmp_path: Path) -> None:
    """The hook's gate (`daemon/feedback.py`, the whole check against HEAD) is the builder's:
    after the edit, the syntax error alone, as tsc says."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER.replace("string", "number"))
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        (root / "src/core.ts").write_text(BROKEN)
        (root / "src/user.ts").write_text(USER)  # a type error tsc does not report now
        request = {"event": "edit", "session": "s", "baseline": "HEAD", "wait": 120.0}
        paths = ["src/core.ts", "src/user.ts"]
        answer = warm.run(Feedback(warm.ws).answer({**request, "paths": paths}))
        assert answer["complete"] is True
        told = [*answer["late"], *answer["introduced"]]
        assert [(i["path"], i["line"], i["column"], i["code"]) for i in told] == [
            ("src/core.ts", 4, 1, "1005")
        ]
        assert tsc_of(root, tmp_path, {}) == ["src/core.ts(4,1): error TS1005: '}' expected."]


def test_check_since_head_does_not_say_what_tsc_did_not_check_fixed(tmp_path: Path) -> None:
    """`check --baseline HEAD` after a syntax error: user.ts's committed type error is not
    fixed (tsc did not check it); the answer says tsc stopped at core.ts:4."""
    root = written(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/core.ts": CORE})
    (root / "src/user.ts").write_text(USER)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
    for warm in warm_root(committed(root), tmp_path / "logs", watch=True):
        warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        (root / "src/core.ts").write_text(BROKEN)
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        introduced = [(d.path, d.line, d.code) for d in since.changes.introduced]
        assert introduced == [("src/core.ts", 4, "1005")]
        assert since.changes.fixed == [] and since.changes.fixed_total == 0
        assert [s.model_dump() for s in since.changes.stopped] == [STOPPED]
        (root / "src/core.ts").write_text(CORE)  # fixed: nothing stopped, nothing new
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert since.changes is not None
        assert (since.changes.introduced, since.changes.stopped) == ([], [])
