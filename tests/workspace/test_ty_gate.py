"""A project whose gate runs ty alone is judged by ty (`workspace/ty_gate.py`): pipx
configures `[tool.ty]` and its tox runs `ty check`; lspd's basedpyright said 179 errors and
2,428 warnings of its clean tree where ty says the gate's 4 warnings. Real ty (lspd's, the
tests' environment holding none) against the same ty's CLI."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from lspd.ops.check import check_all, workspace_diagnostics
from lspd.servers.registry import definitions
from lspd.workspace import ty_gate
from lspd.workspace.mypy_config import choose
from lspd.workspace.ty_gate import TY_DEFAULT, gate_ty, pinned_ty
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import diagnostic_rows, pyright_env
from tests.workspace.ty_cli import ty_rows

TOX = "[testenv:type]\ncommands = ty check\n"
PYPROJECT = '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n'
UNCONFIGURED = PYPROJECT.replace("[tool.ty]", "[tool.ruff]")  # ty's defaults where ty runs
FILES = {
    "pyproject.toml": PYPROJECT,
    "tox.ini": TOX,
    ".gitignore": ".venv\n",
    "app/__init__.py": "",
    # basedpyright's "recommended" flags the untyped `echo` and `os.foo` its own way
    "app/main.py": (
        "import os\n\n\ndef echo(x):\n    return x\n\n\n"
        'width: int = "wide"\nprint(echo(1))\nos.foo\n'
    ),
    # a package below with no checker configuration: the gate's at the top (ty's)
    "tools/setup.py": "",
    "tools/t.py": 'count: int = "x"\n',
}


@pytest.mark.parametrize(
    ("files", "gated"),
    [
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX}, True),
        ({"ty.toml": "", "Makefile": "types:\n\tuv run ty check src\n"}, True),
        ({"pyproject.toml": PYPROJECT + "[tool.ty.terminal]\n", "tox.ini": TOX}, True),
        # mypy runs too (typer's lint.sh: mypy, then ty): ty is the server beside it
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX + "    mypy src\n"}, True),
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX + "    pyright src\n"}, False),
        ({"pyproject.toml": PYPROJECT, "tox.ini": TOX.replace("ty check", "pytest")}, False),
        # gimmegit: its justfile runs `uv run ty check`, its pyproject.toml has no [tool.ty]
        ({"pyproject.toml": UNCONFIGURED, "justfile": "lint:\n  uv run ty check\n"}, True),
        ({"pyproject.toml": UNCONFIGURED, "tox.ini": TOX}, True),
        ({"pyproject.toml": UNCONFIGURED, "tox.ini": TOX + "    pyright src\n"}, False),
        ({"pyproject.toml": UNCONFIGURED, "tox.ini": TOX.replace("ty check", "pytest")}, False),
    ],
    ids=[
        "tox",
        "ty-toml",
        "subtable",
        "mypy-too",
        "pyright-too",
        "not-run",
        "not-configured",
        "not-configured-tox",
        "not-configured-pyright-too",
        "neither",
    ],
)
def test_what_gates_on_ty(tmp_path: Path, files: dict[str, str], gated: bool) -> None:
    root = written(tmp_path, {**files, ".git/HEAD": ""})
    servers = definitions()
    chosen = gate_ty(servers["basedpyright"], root, servers)
    assert (chosen is not None and chosen.name == "ty") == gated


@pytest.mark.parametrize("pyproject", [PYPROJECT, UNCONFIGURED], ids=["ty", "ty-defaults"])
def test_a_package_below_is_the_gates_unless_it_configures_its_own(
    tmp_path: Path, pyproject: str
) -> None:
    """A package below configuring no checker is the gate's at the top, also where the top
    configures no ty: what runs ty at the top (its tox.ini) is no gate of the package."""
    own = {"own/pyrightconfig.json": "{}", "tools/pyproject.toml": UNCONFIGURED}
    root = written(tmp_path, {**FILES, "pyproject.toml": pyproject, ".git/HEAD": "", **own})
    servers = definitions()
    assert gate_ty(servers["basedpyright"], root / "tools", servers) is not None
    assert ty_gate._governing(root / "tools") == root
    assert gate_ty(servers["basedpyright"], root / "own", servers) is None


def test_ty_answers_as_the_gates_ty(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(environment("no-mypy"))
    expected = ty_rows(root)
    assert expected == [
        ("app/main.py", 8, 14, "invalid-assignment", "error"),
        ("app/main.py", 10, 1, "missing-attribute", "error"),
        ("tools/t.py", 1, 14, "invalid-assignment", "error"),
    ]
    for warm in warm_root(root, tmp_path / "logs"):
        checked = warm.run(workspace_diagnostics(warm.ws))
        rows = diagnostic_rows(checked)
        assert rows == expected
        servers = {r.server for r in warm.run(check_all(warm.ws)).results}
        assert servers == {"ty"}


def test_a_pyright_the_environment_holds_is_no_gate_where_the_gate_runs_ty(
    tmp_path: Path,
) -> None:
    """structlog's tox installs pyright in an environment beside `ty check`: lspd ran that
    pyright on every file (351 errors, said as ty's, where the gate is clean)."""
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(pyright_env())
    for warm in warm_root(root, tmp_path / "logs"):
        assert {r.server for r in warm.run(check_all(warm.ws)).results} == {"ty"}
        assert diagnostic_rows(warm.run(workspace_diagnostics(warm.ws))) == ty_rows(root)


def test_a_project_without_an_environment_is_judged_by_its_gate(tmp_path: Path) -> None:
    """No environment of the project's: its interpreter is `python3` on PATH, whose folder
    is no choice of the project's, but its gate still runs ty (before: lspd's basedpyright
    judged it under ty's scope)."""
    root = written(tmp_path / "p", FILES)
    assert {r.server for r in answer(root, check_all).results} == {"ty"}
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == ty_rows(root)


def test_a_one_shot_check_names_ty(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(environment("no-mypy"))
    checked = answer(root, check_all)
    labels = {r.toolchain for r in checked.results if r.toolchain}
    said = f"ty {version('ty')} (lspd's: the gate runs ty)"  # an upgrade re-keys HEAD's result
    assert {label.split(", ")[-1] for label in labels} == {said}


PINNED = "0.0.59"  # pipx's uv.lock pins it: "All checks passed!" where 1.0.0 warns 4 times
DEPRECATED = (
    "from collections.abc import Iterator\nfrom contextlib import contextmanager\n\n\n"
    "@contextmanager\ndef opened() -> Iterator[int]:\n    yield 1\n"
)


def test_the_version_the_project_pins_is_installed_and_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pipx's uv.lock pins ty 0.0.59 and its tox environment installs that: lspd's ty 1.0.0
    said 4 `deprecated` warnings of its clean tree. The pinned version is installed into
    lspd's cache (a folder an install stopped midway left is not taken) and answers."""
    lock = f'version = 1\n\n[[package]]\nname = "ty"\nversion = "{PINNED}"\n'
    root = written(tmp_path / "p", {**FILES, "uv.lock": lock, "app/ctx.py": DEPRECATED})
    (root / ".venv").symlink_to(environment("no-mypy"))
    cache = tmp_path / "cache"
    monkeypatch.setenv("LSPD_CACHE_DIR", str(cache))
    written(cache, {f"pip-ty-{PINNED}/target.partial/bin/ty": "#!/bin/sh\nexit 1\n"})
    checked = answer(root, check_all)
    installed = cache / f"pip-ty-{PINNED}" / "target" / "bin" / "ty"
    expected = ty_rows(root, ty=installed)
    assert "deprecated" in {row[3] for row in ty_rows(root)}  # lspd's own ty (1.0.0)
    assert "deprecated" not in {row[3] for row in expected}
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == expected
    labels = {r.toolchain for r in checked.results if r.toolchain}
    assert {label.split(", ")[-1] for label in labels} == {
        f"ty {PINNED} (lspd's: the gate runs ty)"
    }
    assert not (cache / f"pip-ty-{PINNED}" / "target.partial").exists()


def test_without_a_ty_of_lspd_its_default_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lspd installed without its test extra holds no ty: where the project pins none, ty
    `TY_DEFAULT` is installed into lspd's cache and answers (before: ty missing, with a
    command to install it). lspd's own environment stands in for one without ty."""
    root = written(tmp_path / "p", FILES)
    (root / ".venv").symlink_to(environment("no-mypy"))
    cache = tmp_path / "cache"
    monkeypatch.setenv("LSPD_CACHE_DIR", str(cache))
    monkeypatch.setattr(ty_gate, "_own_version", lambda: None)
    checked = answer(root, check_all)
    installed = cache / f"pip-ty-{TY_DEFAULT}" / "target" / "bin" / "ty"
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == ty_rows(root, ty=installed)
    labels = {r.toolchain for r in checked.results if r.toolchain}
    assert {label.split(", ")[-1] for label in labels} == {
        f"ty {TY_DEFAULT} (lspd's: the gate runs ty)"
    }


@pytest.mark.parametrize(
    ("files", "pinned"),
    [
        ({"uv.lock": '[[package]]\nname = "ty"\nversion = "0.0.63"\n'}, "0.0.63"),
        ({"requirements-dev.txt": "ruff\nty==0.0.17  # the gate's\n"}, "0.0.17"),
        ({"pyproject.toml": PYPROJECT + '[dependency-groups]\ntype = ["ty==1.0.0"]\n'}, "1.0.0"),
        ({"requirements.txt": "pretty==1.0\nty>=0.0.1\n"}, None),
    ],
    ids=["uv-lock", "requirements", "pyproject", "unpinned"],
)
def test_the_pinned_version(tmp_path: Path, files: dict[str, str], pinned: str | None) -> None:
    assert pinned_ty(written(tmp_path, files)) == pinned


def test_a_mypy_configuration_nothing_runs_is_left_to_ty(tmp_path: Path) -> None:
    """`[tool.mypy]` kept from before a move to ty, the gate running ty alone: ty judges,
    with its files. Where something runs mypy too (typer's lint.sh), both judge
    (tests/workspace/test_ty_config.py)."""
    left_over = PYPROJECT + "\n[tool.mypy]\nstrict = true\n"
    root = written(tmp_path / "p", {**FILES, "pyproject.toml": left_over})
    (root / ".venv").symlink_to(environment("no-mypy"))
    expected = ty_rows(root)
    assert [row[3] for row in expected] == [
        "invalid-assignment",
        "missing-attribute",
        "invalid-assignment",
    ]
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == expected
    assert {r.server for r in answer(root, check_all).results} == {"ty"}
    choice = choose(root)
    assert (choice.checkers, choice.reason) == (
        ("basedpyright",),
        "pyproject.toml [tool.mypy] left over: the gate runs ty",
    )
    written(root, {"tox.ini": TOX + "    mypy app\n"})
    assert choose(root).checkers == ("mypy", "basedpyright")


def test_a_pinned_version_that_cannot_be_installed_says_why_in_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A uv.lock pinning a ty no index has: its files are skipped with pip's error lines
    (not its list of the 150 versions there are) and the command that installs it where
    lspd takes it (not into the folder lspd moves from, which lspd never reads)."""
    lock = 'version = 1\n\n[[package]]\nname = "ty"\nversion = "0.0.999"\n'
    root = written(tmp_path / "p", {**FILES, "uv.lock": lock})
    (root / ".venv").symlink_to(environment("no-mypy"))
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))
    checked = answer(root, check_all)
    assert checked.results == [] and len(checked.skipped) == 4
    reason = checked.skipped[0].reason
    why, by_hand = reason.split("\n")
    assert why == (
        "not checked: installing ty failed (exit 1): ERROR: Could not find a version that "
        "satisfies the requirement ty==0.0.999 / ERROR: No matching distribution found for "
        "ty==0.0.999"
    )
    target = tmp_path / "cache" / "pip-ty-0.0.999" / "target"
    assert by_hand.startswith("run it yourself: ")
    assert by_hand.endswith(f" -m pip install -q --target {target} ty==0.0.999")
