"""`check --baseline HEAD` after the project's checker changed version between the kept
result and now (issue 40's "a toolchain changed"): HEAD's result is checked again by the
new checker (the key holds the version that answered), and the answer says so. The
project's .venv given mypy 2.4.1 in place of 1.13.0 (as `pip install mypy==2.4.1` in it
would): 2.4.1 reports `f(bytearray())` against a `bytes` parameter (its strict_bytes
default), 1.13 does not; the tree is clean, so nothing is new since HEAD. Before, the
daemon's label kept the version its dmypy first read ("mypy 1.13.0"): HEAD's result made
by 1.13 was reused, and 2.4.1's error read as new. Real mypy 1.13.0 and 2.4.1, each's own
run asserted beside it."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import check_all, workspace_diagnostics
from tests.conftest import warm_root
from tests.ops.test_baseline import committed
from tests.ops.test_mypy_held_files import mypy_113
from tests.ops.test_new_files import lspd_typescript
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_tsbuilder_syntax import CONFIG, tsc_of
from tests.workspace.toolchains import typescript_committed

BYTES = "def f(x: bytes) -> None:\n    pass\n\n\nf(bytearray())\n"
FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\n',
    "app/__init__.py": "",
    "app/m.py": BYTES,
}
ARG_TYPE = ("app/m.py", 5, "arg-type")
TS2322 = (
    "src/f.ts(1,14): error TS2322: Type '(string | number)[]' is not assignable to type 'string[]'."
)


def test_another_mypy_checks_head_again(tmp_path: Path) -> None:
    root = committed(project(tmp_path / "p", FILES, mypy_113()))
    assert cli_errors(root) == []
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
        assert first.changes is not None
        assert (first.changes.introduced, first.changes.unchanged) == ([], 0)
        (root / ".venv").unlink()
        (root / ".venv").symlink_to(mypy_env())  # mypy 2.4.1 installed in its place
        assert [(f, line, code) for f, line, _, code, _ in cli_errors(root)] == [ARG_TYPE]
        now = warm.run(workspace_diagnostics(warm.ws))
        assert [(d.path, d.line, d.code) for d in now.diagnostics] == [ARG_TYPE]
        labels = {r.toolchain for r in warm.run(check_all(warm.ws)).results}
        assert labels == {"mypy 2.4.1 (.venv/bin/python)"}  # the label read at the check
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 1)
        moved = "(mypy 1.13.0 (.venv/bin/python) -> mypy 2.4.1 (.venv/bin/python))"
        assert f"the toolchain changed since its result was made {moved}" in since.scope
        # the session's result (made by 1.13 at the first question) is made again too:
        # its texts are known (before: 2.4.1's error new since the session)
        session = warm.run(workspace_diagnostics(warm.ws, baseline="session")).changes
        assert session is not None
        assert (session.introduced, session.fixed, session.unchanged) == ([], [], 1)
        assert f"the toolchain changed since its result was made {moved}" in session.scope


# TypeScript 5.5 infers the callback's type predicate; 5.4 does not (field notes): TS2322.
FILTER = 'export const s: string[] = [1, "a"].filter((x) => typeof x === "string");\n'


def test_another_typescript_checks_head_again(tmp_path: Path) -> None:
    """node_modules/typescript 5.4.5 replaced by 5.9 (lspd's): HEAD's TS2322 of 5.4 is not
    'fixed' by the upgrade (5.9 checks HEAD again: none there either)."""
    root = typescript_committed(tmp_path / "ts", {"tsconfig.json": CONFIG, "src/f.ts": FILTER})
    assert tsc_of(root, tmp_path, {})[0] == TS2322
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        first = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert first is not None and (first.introduced, first.unchanged) == ([], 1)
        (root / "node_modules" / "typescript").unlink()
        (root / "node_modules" / "typescript").symlink_to(lspd_typescript())
        assert tsc_of(root, tmp_path, {}) == []
        assert warm.run(workspace_diagnostics(warm.ws)).diagnostics == []
        since = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD")).changes
        assert since is not None
        assert (since.introduced, since.fixed, since.unchanged) == ([], [], 0)
        assert "the toolchain changed since its result was made (typescript 5.4.5" in since.scope
