"""A file's lines as the checkers count them: at \\n, \\r\\n and \\r only (LSP's, Python's,
basedpyright's and mypy's), never at a form feed (GNU's page break), U+2028 or U+2029,
where `str.splitlines()` also ends one. One-shot `lspd check`, `check --baseline HEAD`,
`diagnostics FILE --baseline HEAD` and `preview --patch` (of the change's `git diff`) on a
change adding such lines above errors that only move, and a lone \\r making code of the
rest of a comment's line: each the checker's own CLI's answer. Before, every error below
such a line was both introduced and fixed (its snippet read from another line), and the
preview of the diff was refused ("the lines it changes ... are not there")."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tests.basedpyright_cli import diagnostics, relative, start
from tests.engine.test_configured import tsc_rows
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project
from tests.workspace.toolchains import TS7_PINNED, typescript_package

LSPD = str(Path(sys.executable).parent / "lspd")
# Above the errors: a page break, U+2028 in a comment and in a string, and a comment a
# lone \r ends (the rest of its line is code to Python and both checkers: one new error).
INSERTED = '\x0c\n# section \u2028 break\nNOTE = "p \u2028 q"\n# a\rbad: int = 2.5\n'
HEAD = (
    "def f(x: int) -> str:\n"
    "    return x\n"
    "\n"
    "\n"
    "def g() -> None:\n"
    '    s: int = "a"\n'
    "    t: str = 1\n"
    "    print(s, t)\n"
)
NOW = HEAD.replace("\n\n\ndef g", "\n\n" + INSERTED + "\n\ndef g")

Row = tuple[str, int, int, str]  # path, line, column, code


def one_shot(root: Path, *args: str) -> tuple[int, Any, str]:
    """`lspd ARGS --root ROOT --json` with no daemon: its exit status, answer and stderr."""
    done = subprocess.run(
        [LSPD, *args, "--root", str(root), "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, json.loads(done.stdout or "null"), done.stderr


def lspd(root: Path, *args: str) -> Any:
    status, answer, stderr = one_shot(root, *args)
    assert status in (0, 1), stderr
    return answer


def rows(items: list[dict[str, Any]]) -> list[Row]:
    return sorted((d["path"], d["line"], d["column"], d.get("code") or "") for d in items)


def changed(root: Path, path: str) -> str:
    """`path` written as NOW; the change's `git diff` (`git apply` takes it)."""
    file = root / path
    with file.open("w", newline="") as handle:  # the lone \r as written
        handle.write(NOW)
    diff = subprocess.run(
        ["git", "diff"], cwd=root, capture_output=True, check=True
    ).stdout.decode()
    assert "\x0c\n" in diff and "\r" in diff
    return diff


def proofs(root: Path, path: str, truth: list[Row], errors: list[Row]) -> None:
    """Every proof path against the CLI's: `errors` after the change, `truth` the errors
    it introduced (none fixed)."""
    diff = changed(root, path)
    gate = lspd(root, "check")
    assert rows([d for d in gate["diagnostics"] if d["severity"] == "error"]) == errors
    since = lspd(root, "check", "--baseline", "HEAD")["changes"]
    assert (rows(since["introduced"]), since["fixed"]) == (truth, [])
    assert since["unchanged"] == len(errors) - len(truth)
    one = lspd(root, "diagnostics", path, "--baseline", "HEAD")["changes"]
    assert (rows(one["introduced"]), one["fixed"]) == (truth, [])
    subprocess.run(["git", "checkout", "-q", path], cwd=root, check=True)  # HEAD's again
    patch = root.parent / "change.diff"
    patch.write_bytes(diff.encode())
    previewed = lspd(root, "preview", "--patch", str(patch))["changes"]
    assert (rows(previewed["introduced"]), previewed["fixed"]) == (truth, [])


def test_basedpyright_counts_lines_as_its_cli(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.basedpyright]\ntypeCheckingMode = "standard"\n')
    (root / "app.py").write_text(HEAD)
    committed(root)

    def cli() -> list[tuple[Row, str]]:
        return [
            ((relative(d, root), *start(d), d.get("rule", "")), d["message"])
            for d in diagnostics(root)
            if d["severity"] == "error"
        ]

    before = Counter((r[0], r[3], m) for r, m in cli())
    with (root / "app.py").open("w", newline="") as handle:
        handle.write(NOW)
    after = cli()
    subprocess.run(["git", "checkout", "-q", "app.py"], cwd=root, check=True)
    new = Counter((r[0], r[3], m) for r, m in after) - before
    truth = sorted(r for r, m in after if (r[0], r[3], m) in new)
    assert [(line, code) for _, line, _, code in truth] == [(8, "reportAssignmentType")]
    assert [r[1] for r, _ in after] == [2, 8, 12, 13]  # the page break is no line end
    proofs(root, "app.py", truth, sorted(r for r, _ in after))


def test_mypy_counts_lines_as_its_cli(tmp_path: Path) -> None:
    root = project(
        tmp_path / "p",
        {
            "pyproject.toml": '[tool.mypy]\nfiles = ["app"]\nstrict = true\n',
            "app/__init__.py": "",
            "app/main.py": HEAD,
        },
    )
    (root / ".gitignore").write_text(".venv\n")
    committed(root)
    before = Counter((e[0], e[3], e[4]) for e in cli_errors(root))
    with (root / "app/main.py").open("w", newline="") as handle:
        handle.write(NOW)
    after = cli_errors(root)
    subprocess.run(["git", "checkout", "-q", "app/main.py"], cwd=root, check=True)
    new = Counter((e[0], e[3], e[4]) for e in after) - before
    truth = sorted((e[0], e[1], e[2], e[3] or "") for e in after if (e[0], e[3], e[4]) in new)
    assert [(line, code) for _, line, _, code in truth] == [(8, "assignment")]
    assert [e[1] for e in after] == [2, 8, 12, 13]
    proofs(root, "app/main.py", truth, sorted((e[0], e[1], e[2], e[3] or "") for e in after))


TS_HEAD = 'const n: number = "x";\nexport function g(): void {\n  const m: number = "y";\n}\n'
# A new error on line 2, then a page break and U+2028 in a comment and a string above g.
TS_NOW = TS_HEAD.replace(
    "export function g",
    'const k: string = 1;\n\x0c\n/* a \u2028 b */\nexport const t = "p \u2028 q";\n'
    "export function g",
)


def ts_project(tmp_path: Path, version: str) -> Path:
    """A strict TypeScript project of `version`, a.ts at TS_HEAD committed."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true}, "include": ["*.ts"]}'
    )
    (root / "a.ts").write_text(TS_HEAD)
    (root / ".gitignore").write_text("node_modules\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    committed(root)
    return root


def test_typescript_7_says_what_tsc_says_is_new(tmp_path: Path) -> None:
    # tsc counts U+2028 and U+2029 as line ends (ECMAScript's), its LSP server does not:
    # lspd check says m's error at its LSP line (7, tsc -p: 9); the comparison is LSP's.
    root = ts_project(tmp_path, TS7_PINNED)
    before = tsc_rows(root)
    (root / "a.ts").write_text(TS_NOW)
    after = tsc_rows(root)
    assert after == Counter(
        {("a.ts", 1, "2322"): 1, ("a.ts", 2, "2322"): 1, ("a.ts", 9, "2322"): 1}
    )
    assert sum(before.values()) == 2  # m's error moved: one new, at line 2
    diff = subprocess.run(["git", "diff"], cwd=root, capture_output=True, check=True).stdout
    truth = [("a.ts", 2, 7, "2322")]
    gate = lspd(root, "check")
    assert len(gate["diagnostics"]) == 3
    since = lspd(root, "check", "--baseline", "HEAD")["changes"]
    assert (rows(since["introduced"]), since["fixed"], since["unchanged"]) == (truth, [], 2)
    one = lspd(root, "diagnostics", "a.ts", "--baseline", "HEAD")["changes"]
    assert (rows(one["introduced"]), one["fixed"], one["unchanged"]) == (truth, [], 2)
    subprocess.run(["git", "checkout", "-q", "a.ts"], cwd=root, check=True)
    (root.parent / "change.diff").write_bytes(diff)
    previewed = lspd(root, "preview", "--patch", str(root.parent / "change.diff"))["changes"]
    assert (rows(previewed["introduced"]), previewed["fixed"]) == (truth, [])
