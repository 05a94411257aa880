"""A gate running `stubtest` type-checks the stubs of the modules it names with mypy
(`workspace/mypy_stubtest.py`): more-itertools' Makefile runs `stubtest
more_itertools.more more_itertools.recipes` and nothing runs mypy, where lspd ran mypy on
every file and said 323 errors of tests and docs its gate never checks. The real mypy's
`mypy -m MODULE` is the truth of stubtest's mypy part."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_stubtest import as_mypy
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project

FILES = {
    "setup.cfg": "[mypy]\nstrict = true\n",
    "Makefile": "check:\n\tstubtest --allowlist allow.txt pkg.mod --concise\n",
    "pkg/__init__.py": "",
    "pkg/mod.py": "def double(x):\n    return x * 2\n",
    "pkg/mod.pyi": "def double(x: int) -> int: ...\n",
    "tests/test_mod.py": 'from pkg.mod import double\n\ncount: int = "three"\n',
}


def _found(root: Path) -> list[tuple[str | None, int, str | None]]:
    return sorted((d.path, d.line, d.code) for d in answer(root, workspace_diagnostics).diagnostics)


def test_a_stubtest_gate_is_mypy_on_the_stubs_it_names(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FILES)
    assert cli_errors(root, "-m", "pkg.mod") == []  # stubtest's mypy part: the stub
    # every file: the test's error too (the stub stands for its module), no gate's
    assert [(f, line) for f, line, *_ in cli_errors(root, ".")] == [("tests/test_mod.py", 3)]
    assert _found(root) == []
    [scope] = answer(root, workspace_diagnostics).scope
    note = "no `files`: what Makefile runs mypy on: pkg/mod.pyi"
    assert scope.note == note + "; 1 more mypy follows into from them (their imports)"
    (root / "pkg/mod.pyi").write_text('def double(x: int) -> int: ...\nname: int = "x"\n')
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "-m", "pkg.mod"))
    assert truth == [("pkg/mod.pyi", 2, "assignment")]
    assert _found(root) == truth


def test_stubtests_own_options_are_no_modules() -> None:
    words = ["--allowlist", "a.txt", "pkg.a", "--concise", "pkg.b", "--mypy-config-file", "x"]
    assert as_mypy(words) == ["-m", "pkg.a", "-m", "pkg.b"]
