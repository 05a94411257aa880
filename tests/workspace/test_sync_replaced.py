"""A file replaced on disk (a new inode: os.replace, deleted and written again, `git apply`,
`git reset --hard`) reaches a TypeScript 7 server as a file written in place does: the
whole-workspace check of a watched workspace has the errors of `tsc -p`, a replaced
tsconfig.json's options too (issue 40: the server kept the old text for good)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm, warm_root
from tests.workspace.toolchains import TS7_PINNED, gate, typescript_package

FILES = {
    "src/core.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "src/user.ts": 'import { add } from "./core";\nexport const three: number = add(1, 2);\n',
    "src/leaf.ts": "export const x: string = 'x';\nexport function f(unused: number) {}\n",
}
OPTIONS = {"strict": True, "noEmit": True, "target": "es2022", "module": "esnext"}
ERROR = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+):", re.MULTILINE)
Found = set[tuple[str, int, int, str]]


def git(root: Path, *args: str) -> None:
    who = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *who, *args], cwd=root, check=True, capture_output=True, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """A TypeScript 7 project (the pinned 7.0.2) in git, its watcher running as in the daemon."""
    root = tmp_path / "ts7"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    config(root, {})
    (root / ".gitignore").write_text("node_modules\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(TS7_PINNED))
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "start")
    yield from warm_root(root.resolve(), tmp_path / "logs", watch=True)


def config(root: Path, options: dict[str, bool]) -> str:
    text = json.dumps({"compilerOptions": {**OPTIONS, **options}, "include": ["src"]})
    (root / "tsconfig.json").write_text(text)
    return text


def check(warm: Warm) -> Found:
    checked = warm.run(check_all(warm.ws))
    return {
        (r.path, d.line, d.column, d.code or "") for r in checked.results for d in r.diagnostics
    }


def tsc(warm: Warm) -> Found:
    return {(p, int(a), int(b), c) for p, a, b, c in ERROR.findall(gate(warm.root)[1])}


def moved_over(path: Path, text: str) -> None:
    """An editor's atomic save: written beside, moved over (a new inode, one event: created)."""
    beside = path.with_name(f".{path.name}.new")
    beside.write_text(text)
    os.replace(beside, path)


def written_again(path: Path, text: str) -> None:
    """Deleted, then written (as git writes a file it changes)."""
    path.unlink()
    path.write_text(text)


@pytest.mark.parametrize("replace", [moved_over, written_again])
def test_a_replaced_file_is_seen(project: Warm, replace: Callable[[Path, str], None]) -> None:
    src = project.root / "src"
    assert check(project) == tsc(project) == set()
    replace(src / "leaf.ts", "export const x: string = 1;\n")
    assert check(project) == tsc(project) == {("src/leaf.ts", 1, 14, "2322")}
    replace(src / "core.ts", FILES["src/core.ts"].replace("b: number", "b: string"))
    assert (
        check(project)
        == tsc(project)
        == {
            ("src/leaf.ts", 1, 14, "2322"),
            ("src/core.ts", 2, 3, "2322"),
            ("src/user.ts", 2, 37, "2345"),
        }
    )
    replace(src / "leaf.ts", FILES["src/leaf.ts"])
    replace(src / "core.ts", FILES["src/core.ts"])
    assert check(project) == tsc(project) == set()


def test_git_apply_and_reset(project: Warm) -> None:
    """`git apply` of a diff, committed, then `git reset --hard HEAD~1`: each seen."""
    root = project.root
    assert check(project) == set()
    (root / "src" / "leaf.ts").write_text("export const x: string = 1;\n")
    (root / "src" / "core.ts").write_text(FILES["src/core.ts"].replace("b: number", "b: string"))
    diff = subprocess.run(["git", "diff"], cwd=root, capture_output=True, check=True).stdout
    git(root, "checkout", "-q", "--", ".")
    assert check(project) == tsc(project) == set()

    subprocess.run(["git", "apply"], cwd=root, input=diff, check=True, timeout=60)
    broken = tsc(project)
    assert {(p, c) for p, _, _, c in broken} == {
        ("src/leaf.ts", "2322"),
        ("src/core.ts", "2322"),
        ("src/user.ts", "2345"),
    }
    assert check(project) == broken
    git(root, "commit", "-qam", "broken")
    git(root, "reset", "-q", "--hard", "HEAD~1")
    assert check(project) == tsc(project) == set()


def test_a_replaced_tsconfig_is_seen(project: Warm) -> None:
    """tsconfig.json moved over (noUnusedParameters on), then restored by `git checkout`."""
    root = project.root
    assert check(project) == set()
    text = config(root, {"noUnusedParameters": True})
    git(root, "checkout", "-q", "--", "tsconfig.json")
    assert check(project) == tsc(project) == set()

    moved_over(root / "tsconfig.json", text)
    assert check(project) == tsc(project) == {("src/leaf.ts", 2, 19, "6133")}
    git(root, "checkout", "-q", "--", "tsconfig.json")  # git writes it anew
    assert check(project) == tsc(project) == set()
