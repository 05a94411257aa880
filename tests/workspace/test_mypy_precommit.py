"""A mypy project whose configuration names no `files` and whose pre-commit runs mypy is
gated on the files its hooks pass mypy (`workspace/mypy_precommit.py`): black 24.10's
layout, whose `mypy .` stops at a script its first hook excludes and a second checks under
`--python-version=3.12` (here a type parameter list, mypy 2.4.1's syntax error under 3.10).
The gate's errors are the pinned mypy's run on the files
pre-commit passes it; an edit of the pre-commit configuration chooses again."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.mypy_precommit import precommit_mypy
from lspd.workspace.mypy_scope import EVERY, mypy_scopes
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project

ERROR = 'count: int = "three"\n'
PRECOMMIT = """\
exclude: ^(profiling/|tests/data/)
repos:
  - repo: https://github.com/pycqa/flake8
    rev: 7.1.0
    hooks:
      - id: flake8
        exclude: ^app/
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.11.2
    hooks:
      - id: mypy
        exclude: ^(docs/conf.py|scripts/gen.py)$
        args: []
        additional_dependencies: &mypy_deps
          - types-PyYAML
      - id: mypy
        name: mypy (Python 3.10)
        files: scripts/gen.py
        args: ["--python-version=3.12"]
        additional_dependencies: *mypy_deps
"""
FILES = {
    "pyproject.toml": '[tool.mypy]\nstrict = true\npython_version = "3.10"\n',
    ".pre-commit-config.yaml": PRECOMMIT,
    "app/__init__.py": "",
    "app/main.py": ERROR,
    "tests/test_main.py": ERROR,
    "docs/conf.py": ERROR,
    "scripts/gen.py": "def same[T](x: T) -> T:\n    return x\n",
    "profiling/run.py": ERROR,
    "tests/data/case.py": ERROR,
}
PASSED = ["app/__init__.py", "app/main.py", "tests/test_main.py"]  # what pre-commit passes


def _found(root: Path) -> list[tuple[str | None, int, str | None]]:
    return sorted((d.path, d.line, d.code) for d in answer(root, workspace_diagnostics).diagnostics)


def test_the_gate_is_what_the_pre_commit_mypy_hooks_pass_mypy(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FILES)
    said = sorted((f, code) for f, *_, code, _ in cli_errors(root, "."))
    assert said == [
        ("app/main.py", "assignment"),
        ("docs/conf.py", "assignment"),
        ("profiling/run.py", "assignment"),
        ("scripts/gen.py", "syntax"),
        ("tests/data/case.py", "assignment"),
        ("tests/test_main.py", "assignment"),
    ]
    assert cli_errors(root, "--python-version=3.12", "scripts/gen.py") == []  # its own hook
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *PASSED))
    assert truth == [("app/main.py", 1, "assignment"), ("tests/test_main.py", 1, "assignment")]
    assert _found(root) == truth  # scripts/gen.py: its own hook's run, 3.12's, says none
    checked = answer(root, workspace_diagnostics)
    [scope] = checked.scope
    note = "no `files`: those .pre-commit-config.yaml's mypy hook passes mypy"
    note += "; mypy run again with --python-version=3.12, as the gate runs it"
    assert (scope.files, scope.note) == (4, note)

    # the hook now leaves tests/ out too: chosen again
    (root / ".pre-commit-config.yaml").write_text(PRECOMMIT.replace("^(docs/", "^(tests/.*|docs/"))
    assert _found(root) == [("app/main.py", 1, "assignment")]


def test_a_hook_with_options_lspd_does_not_know_chooses_nothing_one_passing_no_names_its_paths(
    tmp_path: Path,
) -> None:
    root = project(tmp_path / "p", {"app.py": ERROR, "b.py": "", "mypy.ini": "[mypy]\n"})
    config = root / ".pre-commit-config.yaml"
    other = "--config-file=other.ini"
    hooks = [f"    - id: mypy\n      args: [--strict, {other}]\n"]
    hooks += ["    - id: dmypy\n      entry: dmypy run\n      language: system\n"]
    hooks += [f"    - id: mypy\n      pass_filenames: false\n      args: [{other}, app.py]\n"]
    for hook in hooks:
        config.write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
        assert precommit_mypy(root) is None
    config.write_text("repos: [\n")  # not YAML: as without one
    assert precommit_mypy(root) is None
    local = "    - id: types\n      entry: python -m mypy\n      language: system\n"
    config.write_text(f"repos:\n- repo: local\n  hooks:\n{local}      files: ^app\\.py$\n")
    found = precommit_mypy(root)
    assert found is not None and found.takes(root / "app.py") and not found.takes(root / "b.py")
    # a local hook running mypy on its own paths (poetry's): those are the gate
    entry = "      entry: poetry run mypy app.py\n      pass_filenames: false\n"
    config.write_text(f"repos:\n- repo: local\n  hooks:\n    - id: mypy\n{entry}")
    [scope] = mypy_scopes([root], [root / "app.py", root / "b.py"], "project", False)
    assert scope.files == (root / "app.py",)
    assert scope.note == "no `files`: what .pre-commit-config.yaml's mypy hook runs mypy on: app.py"
    assert _found(root) == [("app.py", 1, "assignment")]


def test_a_script_checking_what_the_hooks_leave_out_with_their_options_is_the_gate_too(
    tmp_path: Path,
) -> None:
    """marshmallow's: its hook (mirrors-mypy's default args) excludes tests/mypy_test_cases/,
    which tox's `mypy-test` checks with `mypy --show-error-codes --warn-unused-ignores`. Its
    configuration sets both options, so one run stands for both: an error there failed its
    CI where lspd listed the file as no gate's."""
    hook = "  - id: mypy\n    exclude: ^tests/mypy_test_cases/.*$\n"
    mirrors = "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n  rev: v1.11.2\n"
    tox = "[testenv:mypy-test]\ndeps = mypy\ncommands = mypy --show-error-codes {options}"
    tox += " tests/mypy_test_cases/\n"
    config = "[tool.mypy]\nignore_missing_imports = true\nwarn_unused_ignores = true\n"
    files = {
        "pyproject.toml": config,
        ".pre-commit-config.yaml": f"{mirrors}  hooks:\n{hook}",
        "tox.ini": tox.format(options="--warn-unused-ignores"),
        "src/app.py": "def twice(x: int) -> int:\n    return x * 2\n",
        "tests/mypy_test_cases/test_app.py": "x = 1  # type: ignore\n",
        "tests/other.py": ERROR,
    }
    root = project(tmp_path / "p", files)
    cases = ("tests/mypy_test_cases/",)
    truth = [
        (f, line, code) for f, line, _, code, _ in cli_errors(root, "--warn-unused-ignores", *cases)
    ]
    assert truth == [("tests/mypy_test_cases/test_app.py", 1, "unused-ignore")]
    hooked = [
        (f, line, code) for f, line, _, code, _ in cli_errors(root, "src/app.py", "tests/other.py")
    ]
    assert _found(root) == sorted(hooked + truth)
    [scope] = answer(root, workspace_diagnostics).scope
    note = "no `files`: those .pre-commit-config.yaml's mypy hook passes mypy (with "
    note += "--ignore-missing-imports), and the 1 more tox.ini runs mypy on"
    assert (scope.files, scope.note) == (3, note)
    # An option of its own (its configuration sets none of it): another run, not lspd's.
    (root / "tox.ini").write_text(tox.format(options="--strict"))
    assert _found(root) == sorted(hooked)


def test_a_module_followed_into_under_another_name_than_its_files_is_checked_once(
    tmp_path: Path,
) -> None:
    """pluggy's: its hook passes src/ and testing/ (no `__init__.py`); a test importing
    `scripts.release` makes mypy check scripts/release.py as `scripts.release`. lspd gave
    that file mypy as a source too, where it is `release`: "Source file found twice under
    different module names", the check refused and the preview said its error twice."""
    hook = "  - id: mypy\n    files: ^(src/|testing/)\n    args: []\n"
    mirrors = "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n  rev: v1.15.0\n"
    files = {
        "pyproject.toml": '[tool.mypy]\nmypy_path = "src"\n',
        ".pre-commit-config.yaml": f"{mirrors}  hooks:\n{hook}",
        "src/pkg/__init__.py": "def f() -> int:\n    return 1\n",
        "testing/test_a.py": "import scripts.tool\nfrom pkg import f\n\nx: int = f()\n",
        "scripts/tool.py": 'def g() -> int:\n    return "not an int"\n',
    }
    root = project(tmp_path / "p", files)
    passed = ("src/pkg/__init__.py", "testing/test_a.py")
    truth = [(f, line, code) for f, line, _, code, _ in cli_errors(root, *passed)]
    assert truth == [("scripts/tool.py", 2, "return-value")]
    assert _found(root) == truth


def test_a_local_hook_running_mypy_through_a_runner_is_mypy_s(tmp_path: Path) -> None:
    """polyfactory's `entry: uv run --all-groups mypy` (the runner's options before mypy):
    its `files` were lost (mypy's fourth word), so mypy judged files the hook leaves out."""
    root = project(tmp_path / "p", {"app.py": ERROR, "b.py": "", "mypy.ini": "[mypy]\n"})
    for entry in ("uv run --all-groups mypy", "uv run mypy --strict", "python -m mypy"):
        hook = f"    - id: types\n      entry: {entry}\n      files: ^app\\.py$\n"
        (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
        found = precommit_mypy(root)
        assert found is not None, entry
        assert found.takes(root / "app.py") and not found.takes(root / "b.py")
    hook = "    - id: types\n      entry: uv run echo mypy\n"  # mypy is not its command
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    assert precommit_mypy(root) is None


def test_with_files_the_gate_is_them_and_what_the_hooks_pass_mypy(tmp_path: Path) -> None:
    """packaging's: `files = src, tests, noxfile.py`, and a mirrors-mypy hook passing every
    Python file but docs/ (its run ignores `files`). An error in benchmarks/ failed its CI
    where lspd said 0; a hook giving mypy options of its own is not one run with `files`."""
    files = {
        "pyproject.toml": '[tool.mypy]\nfiles = ["src"]\n',
        "src/app.py": ERROR,
        "bench/run.py": ERROR,
        "docs/conf.py": ERROR,
        ".pre-commit-config.yaml": HOOK.format(args="[]"),
    }
    root = project(tmp_path / "p", files)
    passed = ("bench/run.py", "src/app.py")
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *passed))
    assert truth == [("bench/run.py", 1, "assignment"), ("src/app.py", 1, "assignment")]
    assert _found(root) == truth
    [scope] = answer(root, workspace_diagnostics).scope
    note = "files = src, and the 1 more .pre-commit-config.yaml's mypy hook passes mypy"
    assert (scope.files, scope.note) == (2, note)
    (root / ".pre-commit-config.yaml").write_text(HOOK.format(args="[--strict]"))
    assert _found(root) == [("src/app.py", 1, "assignment")]  # `files` alone, as before
    # mirrors-mypy's default args ignore missing imports: no one run with `files` either
    default = HOOK.replace(", args: {args}", "").format()
    (root / ".pre-commit-config.yaml").write_text(default)
    assert _found(root) == [("src/app.py", 1, "assignment")]
    # unless the configuration ignores them itself: then one run stands for both
    ignoring = '[tool.mypy]\nfiles = ["src"]\nignore_missing_imports = true\n'
    (root / "pyproject.toml").write_text(ignoring)
    assert _found(root) == truth
    (root / "pyproject.toml").write_text(files["pyproject.toml"])
    # two examples' `main.py` name one module: "Duplicate module named"; they are left out
    for name in ("bench/a/main.py", "bench/b/main.py"):
        (root / name).parent.mkdir(parents=True)
        (root / name).write_text(ERROR)
    (root / ".pre-commit-config.yaml").write_text(HOOK.format(args="[]"))
    assert _found(root) == truth


HOOK = "repos:\n- repo: local\n  hooks:\n    - {{id: mypy, args: {args}, exclude: ^docs/}}\n"


@pytest.mark.parametrize(
    "args",
    ["[--config-file=pyproject.toml]", "[--config-file, ./pyproject.toml, --strict]"],
)
def test_a_hook_naming_the_configuration_mypy_finds_anyway_is_taken(
    tmp_path: Path, args: str
) -> None:
    """Many hooks say `args: [--config-file=pyproject.toml]`, the file mypy reads by itself
    where the hook runs: the hook chose nothing before, and mypy was pointed at every file."""
    files = {"app.py": ERROR, "b.py": "", "pyproject.toml": "[tool.mypy]\n"}
    root = project(tmp_path / "p", files)
    hook = f"    - id: mypy\n      args: {args}\n      files: ^app\\.py$\n"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    found = precommit_mypy(root)
    assert found is not None and found.takes(root / "app.py") and not found.takes(root / "b.py")
    assert found.options == (("--strict",) if "--strict" in args else ())


def test_a_hook_naming_a_file_mypy_would_not_read_by_itself_is_not_taken(
    tmp_path: Path,
) -> None:
    """`--config-file=setup.cfg` where setup.cfg has no `[mypy]` and pyproject.toml has a
    `[tool.mypy]`: the hook runs mypy with its defaults, not the configuration lspd reads.
    It was taken by the file's name. Once the `[mypy]` is setup.cfg's alone, it is the
    file mypy reads by itself: taken (read again: the configurations are read beside it)."""
    files = {"app.py": ERROR, "pyproject.toml": "[tool.mypy]\nstrict = true\n"}
    root = project(tmp_path / "p", files)
    (root / "setup.cfg").write_text("[flake8]\nmax-line-length = 100\n")
    hook = "    - id: mypy\n      args: [--config-file=setup.cfg]\n      files: ^app\\.py$\n"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    assert precommit_mypy(root) is None
    (root / "setup.cfg").write_text("[mypy]\nstrict = true\n")
    assert precommit_mypy(root) is None  # pyproject.toml's [tool.mypy] is read first
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    found = precommit_mypy(root)
    assert found is not None and found.takes(root / "app.py")


def test_a_mypy_hook_of_the_manual_stage_alone_chooses_where_nothing_else_runs_mypy(
    tmp_path: Path,
) -> None:
    """It runs on no commit and in no `pre-commit run --all-files`, but where nothing else
    of the repository runs mypy it is how the project runs it (apscheduler's one mypy):
    its files are the gate's; not where a script runs mypy, until the CI runs that stage
    (`precommit_hooks`)."""
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    hook = "    - id: mypy\n      files: ^app\\.py$\n      stages: [manual]\n"
    (tmp_path / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    found = precommit_mypy(tmp_path)
    assert found is not None and found.takes(tmp_path / "app.py")
    assert found.label == ".pre-commit-config.yaml's mypy hook of the manual stage"
    (tmp_path / "tox.ini").write_text("[testenv]\ncommands = mypy b.py\n")
    assert precommit_mypy(tmp_path) is None  # read again: tox.ini's mypy is the gate
    (tmp_path / "tox.ini").write_text("[testenv]\ncommands = pre-commit run --hook-stage manual\n")
    found = precommit_mypy(tmp_path)  # read again: tox.ini was read beside it
    assert found is not None and found.takes(tmp_path / "app.py")
    assert not found.takes(tmp_path / "b.py")
    # the scope is made again when they change: each is among what it read
    walked = [tmp_path / "app.py", tmp_path / "b.py"]
    [scope] = mypy_scopes([tmp_path], walked, "project", False)
    read = dict(scope.read)
    for name in ("tox.ini", ".github/workflows", ".pre-commit-config.yaml", "Makefile"):
        assert tmp_path / name in read


def test_a_manual_stage_hook_s_exclude_leaves_its_file_out_of_the_gate(tmp_path: Path) -> None:
    """apscheduler's shape: mirrors-mypy's hook, `stages: [manual]`, `exclude:
    docs/conf.py`, its only mypy run; docs/conf.py's `exclude_patterns = []` was lspd's
    error (`var-annotated`) where its gate, mypy on the tracked files less that one, says
    none."""
    hook = "    - id: mypy\n      exclude: docs/conf.py\n      stages: [manual]\n"
    files = {
        "pyproject.toml": "[tool.mypy]\nignore_missing_imports = true\n",
        ".pre-commit-config.yaml": f"repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n"
        f"  rev: v1.19.1\n  hooks:\n{hook}",
        "pkg/__init__.py": ERROR.replace('"three"', "3"),
        "pkg/mod.py": ERROR,
        "docs/conf.py": "exclude_patterns = []\n",
    }
    root = project(tmp_path / "p", files)
    assert sorted((f, code) for f, *_, code, _ in cli_errors(root, ".")) == [
        ("docs/conf.py", "var-annotated"),
        ("pkg/mod.py", "assignment"),
    ]
    truth = cli_errors(root, "--ignore-missing-imports", "pkg/__init__.py", "pkg/mod.py")
    assert [(f, line, code) for f, line, _, code, _ in truth] == [("pkg/mod.py", 1, "assignment")]
    assert _found(root) == [("pkg/mod.py", 1, "assignment")]
    [scope] = answer(root, workspace_diagnostics).scope
    note = "no `files`: those .pre-commit-config.yaml's mypy hook of the manual stage passes mypy"
    assert (scope.files, scope.note) == (2, note + " (with --ignore-missing-imports)")


def test_hooks_taking_none_of_a_project_s_files_are_another_project_s(tmp_path: Path) -> None:
    hook = "- repo: local\n  hooks:\n  - id: mypy\n    entry: mypy\n    files: ^tools/\n"
    (tmp_path / ".git").mkdir()
    (tmp_path / ".pre-commit-config.yaml").write_text(f"repos:\n{hook}")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "mypy.ini").write_text("[mypy]\n")
    walked = [tmp_path / "app" / "a.py", tmp_path / "app" / "b.py"]
    [scope] = mypy_scopes([tmp_path / "app"], walked, "project", False)
    assert (scope.files, scope.note) == (tuple(walked), EVERY)


def test_the_options_every_hook_gives_are_given_mypy(tmp_path: Path) -> None:
    """A lone hook's `args: [--strict]` was left out, its files judged without it: an untyped
    def said clean where the hook fails it. Hooks giving different options are one run's
    only where they give none (`_alike`)."""
    untyped = "def double(x):\n    return x * 2\n"
    root = project(tmp_path / "p", {"app.py": untyped, "b.py": "", "mypy.ini": "[mypy]\n"})
    hook = "    - id: mypy\n      args: [--strict, --ignore-missing-imports]\n"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "--strict", "."))
    assert truth == [("app.py", 1, "no-untyped-def")]
    assert _found(root) == truth
    [scope] = answer(root, workspace_diagnostics).scope
    note = "no `files`: those .pre-commit-config.yaml's mypy hook passes mypy (with --strict"
    assert scope.note == f"{note} --ignore-missing-imports)"
    second = "    - id: mypy\n      files: ^b\\.py$\n"  # without --strict: app.py not taken
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: local\n  hooks:\n{hook}{second}"
    )
    found = precommit_mypy(root)
    assert found is not None and found.options == ("--ignore-missing-imports",)  # its default
    assert [found.takes(root / name) for name in ("app.py", "b.py")] == [False, True]


def test_a_hook_running_mypy_as_configured_gives_it_its_options(tmp_path: Path) -> None:
    """yarl's: `files` in its .mypy.ini, and a hook passing no file names and naming no
    path, with `--python-version=3.11` and reports: mypy checks `files` under those
    options. The hook was not taken (its reports were no option lspd knew), so its
    `distutils` import was an error of the 3.12 running mypy where its CI said none; nor
    was arrow's, keeping its cache fine-grained."""
    untyped = "def double(x):\n    return x * 2\n"
    files = {"mypy.ini": "[mypy]\nfiles = app\n", "app/__init__.py": untyped, "b.py": untyped}
    root = project(tmp_path / "p", files)
    (root / ".tox/h").mkdir(parents=True)  # a report's folder, written: no path mypy checks
    args = "[--strict, --txt-report=.tox/r, --html-report, .tox/h, --cache-fine-grained]"
    hook = f"    - id: mypy\n      pass_filenames: false\n      args: {args}\n"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, "--strict"))
    assert truth == [("app/__init__.py", 1, "no-untyped-def")]
    assert _found(root) == truth
    [scope] = answer(root, workspace_diagnostics).scope
    assert (scope.files, scope.note) == (1, "files = app (with --strict)")
    bare = hook.replace("--strict, ", "")
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{bare}")
    assert _found(root) == []  # as configured, no option


def test_hooks_of_different_options_each_run_as_configured_are_each_a_run(
    tmp_path: Path,
) -> None:
    """multidict's two hooks, `--python-version=3.13` then `=3.11`, each passing no file
    names: none was taken, mypy ran on the interpreter's version (neither hook's run; a
    3.13-only error unsaid); then the first alone, its 3.11-only error unsaid. Each is one of
    the gate's runs, its own dmypy: the errors of both are said. A third hook of the same
    options adds no run; one dropped leaves one."""
    branches = (
        "import sys\n\nif sys.version_info >= (3, 13):\n    x: int = 'a'\nelse:\n    y: int = 'b'\n"
    )
    root = project(tmp_path / "p", {"mypy.ini": "[mypy]\nfiles = app\n", "app/v.py": branches})
    hooks = "".join(
        f"    - id: mypy\n      pass_filenames: false\n      args: [--python-version={v}]\n"
        for v in ("3.13", "3.11", "3.13")
    )
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hooks}")
    first = sorted((f, n, code) for f, n, _, code, _ in cli_errors(root, "--python-version=3.13"))
    second = sorted((f, n, code) for f, n, _, code, _ in cli_errors(root, "--python-version=3.11"))
    assert (first, second) == ([("app/v.py", 4, "assignment")], [("app/v.py", 6, "assignment")])
    assert _found(root) == [*first, *second]
    [scope] = answer(root, workspace_diagnostics).scope
    again = "; mypy run again with --python-version=3.11, as the gate runs it"
    assert scope.note == "files = app (with --python-version=3.13)" + again
    one = "".join(hooks.splitlines(keepends=True)[:3])
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{one}")
    assert _found(root) == first


def test_a_hook_passing_file_names_gives_mypy_no_exclude(tmp_path: Path) -> None:
    """`--exclude` leaves out what mypy's walk of a folder finds, never a file named: a hook
    passing file names is taken, its files all checked (`exclude` is the hook's job)."""
    root = project(tmp_path / "p", {"app.py": ERROR, "mypy.ini": "[mypy]\n"})
    hook = "    - id: mypy\n      args: [--exclude, ^app, --exclude=x, --strict]\n"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n- repo: local\n  hooks:\n{hook}")
    found = precommit_mypy(root)
    assert found is not None and found.options == ("--strict",)
    assert _found(root) == [("app.py", 1, "assignment")]


@pytest.mark.parametrize(("args", "ignored"), [("", True), ("      args: []\n", False)])
def test_a_hook_ignoring_missing_imports_gives_mypy_the_option(
    tmp_path: Path, args: str, ignored: bool
) -> None:
    """typeguard's mirrors-mypy hook writes no `args` (its defaults: ignore missing imports)
    and passes no file names: `typeshed.stdlib.types`, imported under TYPE_CHECKING, is no
    error of its gate, where lspd said one. A hook writing `args: []` ignores none."""
    missing = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import nowhere\n"
    files = {"mypy.ini": "[mypy]\nfiles = app\n", "app/__init__.py": missing}
    root = project(tmp_path / "p", files)
    hook = "  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.20.0\n    hooks:\n"
    hook += f"    - id: mypy\n      pass_filenames: false\n{args}"
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n{hook}")
    flags = ["--ignore-missing-imports"] if ignored else []
    truth = sorted((f, line, code) for f, line, _, code, _ in cli_errors(root, *flags))
    assert truth == ([] if ignored else [("app/__init__.py", 4, "import-not-found")])
    assert _found(root) == truth
