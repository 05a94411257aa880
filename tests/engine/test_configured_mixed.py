"""`check --baseline HEAD` in a gate two checkers share (TypeScript and basedpyright), a
checker's configuration edited since HEAD and no HEAD result kept under HEAD's configuration
(a fresh state directory): each checker's part of HEAD's state is made on its own
(`engine/configured_parts.py`), the edited one's under HEAD's configuration on a copy (tsc
-p, a basedpyright rooted at a copy), the other's with HEAD's texts held, then merged.
Before, refused (NotKept: "lspd checks a commit's configuration on a copy only where one
checker judges every file of the gate"), with no comparison on either side. The answer is
what each checker's own runs at HEAD and now differ by, as multisets: real TypeScript
(`tsc -p`), real basedpyright (its CLI)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lspd.cli.render import stopped_line
from lspd.ops.progressive_kept import stop_said
from tests.conftest import answer
from tests.engine.test_affected import written
from tests.engine.test_configured import (
    B_NOW,
    PY_FILES,
    STRICT,
    TS_HEAD,
    TS_NOW,
    USER_NOW,
    pyright_rows,
    since_head,
    ts_files,
    tsc_rows,
)
from tests.engine.test_mypy_configured import MORE
from tests.ops.test_baseline import committed
from tests.ops.test_file_since_baseline_configured import since_head as one_file
from tests.ops.test_mypy_held_files import FILES
from tests.ops.test_since_kept_config import REACH, UNREACHABLE
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.toolchains import TS_PINNED, typescript_committed, typescript_package

Row = tuple[str, int, str, str]  # path, line, code, severity


def truth(root: Path) -> Counter[Row]:
    """Every error of both checkers' own runs (basedpyright's warnings too)."""
    tsc = Counter({(p, line, code, "error"): n for (p, line, code), n in tsc_rows(root).items()})
    return tsc + pyright_rows(root)


def compared(root: Path) -> tuple[Counter[Row], Counter[Row], int, str]:
    """One-shot `check --baseline HEAD`: introduced, fixed, unchanged, the note."""
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    new = Counter((d.path, d.line, d.code or "", d.severity) for d in since.introduced)
    fixed = Counter((d.path, d.line, d.code or "", d.severity) for d in since.fixed)
    return new, fixed, since.unchanged, since.scope


def mixed(tmp_path: Path) -> Path:
    """TypeScript (`TS_FILES` under `TS_HEAD`) and Python (`PY_FILES`) in one gate, committed."""
    return typescript_committed(tmp_path / "p", {**ts_files(TS_HEAD), **PY_FILES}, TS_PINNED)


EDITS = {
    "tsconfig": {"tsconfig.json": json.dumps(TS_NOW)},
    "pyrightconfig": {"pyrightconfig.json": STRICT},
    "both": {"tsconfig.json": json.dumps(TS_NOW), "pyrightconfig.json": STRICT},
}


@pytest.mark.parametrize("edited", sorted(EDITS))
def test_each_checker_s_part_under_head_s_configuration(tmp_path: Path, edited: str) -> None:
    """The configuration of one checker or both edited, source edits on both sides."""
    root = mixed(tmp_path)
    before = truth(root)
    written(root, {**EDITS[edited], "src/user.ts": USER_NOW, "pkg/b.py": B_NOW})
    after = truth(root)
    new, fixed, unchanged, scope = compared(root)
    assert new == after - before
    assert fixed == before - after
    assert unchanged == sum((before & after).values())
    assert "compared under the one then" in scope


def test_a_deleted_file_of_the_untouched_checker_comes_back(tmp_path: Path) -> None:
    """pkg/b.py deleted as tsconfig.json is edited: its error fixed, TypeScript's compared
    under HEAD's tsconfig."""
    root = mixed(tmp_path)
    before = truth(root)
    written(root, {"tsconfig.json": json.dumps(TS_NOW)})
    (root / "pkg" / "b.py").unlink()
    after = truth(root)
    new, fixed, unchanged, _ = compared(root)
    assert fixed == before - after
    assert ("pkg/b.py", 1, "reportAssignmentType", "error") in fixed
    assert new == after - before
    assert unchanged == sum((before & after).values())


def include_edited(tmp_path: Path) -> tuple[Path, Counter[Row], Counter[Row]]:
    """The mixed gate with a pyright `include` edited (HEAD's Python files are not the
    disk's) beside a tsconfig edit and source edits on both sides: the root, both checkers'
    own errors at HEAD and now."""
    root = mixed(tmp_path)
    before = truth(root)
    include = '{"include": ["pkg"], "typeCheckingMode": "strict"}\n'
    written(root, {"tsconfig.json": json.dumps(TS_NOW), "pyrightconfig.json": include})
    written(root, {"src/user.ts": USER_NOW, "pkg/b.py": B_NOW})
    return root, before, truth(root)


def test_a_part_that_cannot_be_made_is_said_not_compared(tmp_path: Path) -> None:
    """A pyright `include` edited (HEAD's Python files are not the disk's) beside a tsconfig
    edit and source edits on both sides: TypeScript's part compared under HEAD's tsconfig
    (tsc's own difference), the Python part said not compared at HEAD, why, and how many of
    its errors are not known new; an error on a line HEAD's text cannot have (b.py's new
    one) introduced all the same. Before, the whole question was refused (NotKept), and the
    stop gate let the TypeScript part's new errors through. With the configuration back at
    HEAD's, the Python part is compared again: the result with a part not made was not kept."""
    root, before, after = include_edited(tmp_path)
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    new = Counter((d.path, d.line, d.code or "", d.severity) for d in since.introduced)
    fixed = Counter((d.path, d.line, d.code or "", d.severity) for d in since.fixed)
    typescript = {r: n for r, n in (after - before).items() if r[0].endswith(".ts")}
    assert typescript
    assert new == Counter(typescript) + Counter(
        {("pkg/b.py", 2, "reportAssignmentType", "error"): 1}
    )
    assert fixed == Counter({r: n for r, n in (before - after).items() if r[0].endswith(".ts")})
    [stop] = since.baseline_stopped
    assert (stop.checker, stop.at) == ("the Python files", [])
    why = "pyrightconfig.json, the Python files' configuration, chooses other files at the commit"
    assert stop.why is not None and stop.why.startswith(why)
    python_now = sum(n for r, n in after.items() if r[0].endswith(".py"))
    assert stop.not_checked == python_now - 1  # all but b.py's new one: not known new
    assert stop.files == ["pkg/a.py", "pkg/b.py"]
    assert stopped_line(json.loads(stop.model_dump_json()), "baseline") == (
        f"at the baseline, the Python files were not compared ({stop.why}): "
        f"{python_now - 1} diagnostic(s) of pkg/a.py, pkg/b.py not known new"
    )
    assert stop_said(stop, []) == f"the Python files were not compared ({stop.why})"
    written(root, {"pyrightconfig.json": PY_FILES["pyrightconfig.json"]})
    after = truth(root)
    new, fixed, _, _ = compared(root)
    assert new == after - before
    assert fixed == before - after


MYPY_EDITS = {
    "pyproject": {"pyproject.toml": UNREACHABLE},
    "tsconfig": {"tsconfig.json": json.dumps(TS_NOW)},
}


@pytest.mark.parametrize("edited", sorted(MYPY_EDITS))
def test_typescript_and_mypy(tmp_path: Path, edited: str) -> None:
    """mypy judging the Python files, tsc the TypeScript ones: mypy's part in its copy
    under HEAD's pyproject.toml, or with HEAD's texts held beside tsc's under HEAD's
    tsconfig. Real mypy 2.4.1."""
    files = {**FILES, "app/reach.py": REACH, **ts_files(TS_HEAD), ".gitignore": "node_modules\n"}
    root = project(tmp_path / "p", files, mypy_env())
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS_PINNED))
    committed(root)

    def errors() -> Counter[tuple[str, int, str]]:
        mypy = Counter((e[0], e[1], e[3] or "") for e in cli_errors(root, "app", "tests"))
        return mypy + Counter({(p, line, code): n for (p, line, code), n in tsc_rows(root).items()})

    before = errors()
    main = root / "app/main.py"
    written(
        root,
        {**MYPY_EDITS[edited], "src/user.ts": USER_NOW, "app/main.py": main.read_text() + MORE},
    )
    after = errors()
    since = answer(root, since_head).changes  # type: ignore[attr-defined]
    assert Counter((d.path, d.line, d.code or "") for d in since.introduced) == after - before
    assert Counter((d.path, d.line, d.code or "") for d in since.fixed) == before - after
    assert since.unchanged == sum((before & after).values())
    assert after - before


def test_a_files_baseline_is_its_own_checker_s(tmp_path: Path) -> None:
    """`diagnostics FILE --baseline HEAD`, no HEAD result kept, tsconfig.json edited: a
    TypeScript file by tsc -p on a copy under HEAD's tsconfig, a Python file with HEAD's
    texts held (its checker's configuration is HEAD's). Before, both refused."""
    root = mixed(tmp_path)
    before = truth(root)
    written(root, {"tsconfig.json": json.dumps(TS_NOW), "pkg/b.py": B_NOW})
    after = truth(root)
    for path in ("src/core.ts", "pkg/b.py"):
        found = answer(root, one_file(path)).changes  # type: ignore[attr-defined]
        new = Counter((d.path, d.line, d.code or "", d.severity) for d in found.introduced)
        assert new == Counter({r: n for r, n in (after - before).items() if r[0] == path})
        assert new
        assert found.fixed == []
        assert found.unchanged == sum(n for r, n in (before & after).items() if r[0] == path)


def test_a_files_part_not_made_is_said_not_compared(tmp_path: Path) -> None:
    """`diagnostics FILE --baseline HEAD` where the file's part cannot be made (a pyright
    `include` edited beside a tsconfig edit, no HEAD result kept): the file's errors not
    known new, as `check --baseline` says its part, save one on a line HEAD's text cannot
    have; a TypeScript file compared under HEAD's tsconfig all the same. Before, exit 2
    (NotKept) where the whole check said the part not compared."""
    root, before, after = include_edited(tmp_path)
    found = answer(root, one_file("pkg/b.py")).changes  # type: ignore[attr-defined]
    assert [(d.path, d.line, d.code) for d in found.introduced] == [
        ("pkg/b.py", 2, "reportAssignmentType")
    ]
    assert (found.fixed, found.unchanged) == ([], 0)
    [stop] = found.baseline_stopped
    why = "pyrightconfig.json, the Python files' configuration, chooses other files at the commit"
    assert (stop.checker, stop.files, stop.not_checked) == ("the Python files", ["pkg/b.py"], 1)
    assert stop.why is not None and stop.why.startswith(why)
    user = answer(root, one_file("src/user.ts")).changes  # type: ignore[attr-defined]
    new = Counter((d.path, d.line, d.code or "", d.severity) for d in user.introduced)
    assert new == Counter({r: n for r, n in (after - before).items() if r[0] == "src/user.ts"})
    assert new
    assert user.baseline_stopped == []
