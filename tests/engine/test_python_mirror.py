"""A held state in which a Python file exists that the disk lacks, or lacks one the disk has,
is asked of a basedpyright rooted at a copy holding it (`engine/python_mirror.py`): its
imports resolve as the checker's will once the change is written (real basedpyright, its CLI
the judge on a tree holding the change)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.dirs import state_dir
from lspd.engine.python_mirror import copied_config, mirrored, wanted
from lspd.ops import check as check_ops
from lspd.ops.models import Changes, FileDiagnostic
from lspd.ops.preview import previewed
from lspd.workspace import Workspace
from lspd.workspace.files import read_text
from tests.basedpyright_cli import BASEDPYRIGHT, message, relative, report, start
from tests.conftest import Warm, answer
from tests.engine.test_affected import watched, written
from tests.ops.test_baseline import committed, warm

FILES = {
    "pyrightconfig.json": "{}\n",
    "pkg/__init__.py": "",
    "pkg/helper.py": "def helper() -> int:\n    return 1\n",
    "pkg/user.py": "from pkg.helper import helper\n\nx: int = helper()\n",
    "pkg/dotted.py": "import pkg.helper\n\ny: int = pkg.helper.helper()\n",
}
MISSING = 'Import "pkg.helper" could not be resolved'
Row = tuple[str | None, int, int, str | None, str]


def rows(found: list[FileDiagnostic]) -> list[Row]:
    return sorted((d.path, d.line, d.column, d.code, d.message) for d in found)


def cli(root: Path, *args: str) -> list[Row]:
    """basedpyright's CLI on `root` as it is (`args` added): every diagnostic, 1-based."""
    found = report(root, *args)["generalDiagnostics"]
    return sorted((relative(d, root), *start(d), d.get("rule"), message(d)) for d in found)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Warm]:
    """The files on basedpyright, watched as in the daemon."""
    yield from watched(written(tmp_path / "py", FILES), tmp_path / "logs")


def preview(warm: Warm, change: dict[str, str | None]) -> Changes:
    items = [{"path": name, "content": text} for name, text in change.items()]
    return warm.run(previewed(warm.ws, items)).changes


def test_a_deletions_preview_says_what_the_checker_says_once_it_is_gone(
    project: Warm, tmp_path: Path
) -> None:
    root = project.root
    assert project.run(check_ops.check_all(project.ws)).everything == []
    changes = preview(project, {"pkg/helper.py": None})
    # The checker on a tree without the file (before: `"helper" is unknown import symbol`,
    # at another column: the file held empty still resolved).
    gone = written(tmp_path / "gone", {k: v for k, v in FILES.items() if k != "pkg/helper.py"})
    assert rows(changes.introduced) == cli(gone)
    assert ("pkg/user.py", 1, 6, "reportMissingImports", MISSING) in cli(gone)
    assert changes.fixed == [] and changes.changed == ["pkg/helper.py"]
    # nothing written; of the copies, only the one the daemon keeps warm (`kept_copy`)
    assert read_text(root / "pkg/helper.py") == FILES["pkg/helper.py"]
    assert list(state_dir(root).glob("python-copy-*")) == [state_dir(root) / "python-copy-kept"]


def test_a_new_files_preview_resolves_its_importers(project: Warm, tmp_path: Path) -> None:
    """A new module and a file importing it: the importer's use of it is judged (before,
    the import did not resolve, and the wrong argument went unsaid)."""
    user = "from pkg.extra import twice\n\nfrom pkg.helper import helper\n\nz: int = twice('s')\n"
    change = {"pkg/extra.py": "def twice(x: int) -> int:\n    return 2 * x\n", "pkg/user.py": user}
    changes = preview(project, change)
    after = written(tmp_path / "after", {**FILES, **change})
    assert rows(changes.introduced) == cli(after)
    assert [(d.path, d.line, d.code) for d in changes.introduced if d.severity == "error"] == [
        ("pkg/user.py", 5, "reportArgumentType")
    ]
    assert not (project.root / "pkg/extra.py").exists()


def test_heads_result_made_after_a_deletion_resolves_the_deleted_file(tmp_path: Path) -> None:
    """A daemon started after the file was deleted makes HEAD's result with HEAD's text of
    it held: before, no import resolved it there either, so `check --baseline HEAD` called
    the importers' new errors old (0 introduced)."""
    root = committed(written(tmp_path / "py", FILES))
    (root / "pkg/helper.py").unlink()
    for repo in warm(root):
        result = repo.run(check_ops.workspace_diagnostics(repo.ws, limit=100, baseline="HEAD"))
        assert result.changes is not None
        assert rows(result.changes.introduced) == cli(root)
        assert [d.path for d in result.changes.introduced if d.severity == "error"] == [
            "pkg/dotted.py",
            "pkg/user.py",
        ]
        assert list(state_dir(root).glob("python-copy-*")) == []


def test_only_the_importers_of_a_file_present_otherwise_are_asked_of_a_copy(
    tmp_path: Path,
) -> None:
    """A new module nothing imports is asked of the project's own server (a copy's cold
    start for nothing); the files importing a module present here and not on the disk, or
    back, directly or through each other, are asked of a copy."""
    root = written(tmp_path / "py", FILES)
    ws = Workspace(root, log_dir=tmp_path / "logs")
    new, user, dotted = root / "pkg/extra.py", root / "pkg/user.py", root / "pkg/dotted.py"
    helper = root / "pkg/helper.py"
    assert mirrored(ws, [new], {new: "x = 1\n"}) == []
    importing = {new: "x = 1\n", user: "from pkg.extra import x\n"}
    assert mirrored(ws, [new, user], importing) == [user]
    assert mirrored(ws, [dotted, user], {helper: None}) == [dotted, user]
    assert mirrored(ws, [dotted, user], {helper: "def helper() -> str: ...\n"}) == []
    chained = {new: "from pkg.user import x\n", user: "from pkg.helper import helper\n"}
    assert mirrored(ws, [new, user], {**chained, helper: None}) == [new, user]
    assert all(s.state == "stopped" for s in ws.sessions.values())  # made, never started
    asyncio.run(ws.close())


SHARED = "def shared() -> int:\n    return 1\n"
USES_SHARED = (
    "from sharedlib import shared\nfrom pkg.helper import helper\n\nx: int = helper() + shared()\n"
)
OUTSIDE = {  # a configuration naming a directory beside the project, as each kind does
    "pyrightconfig.json": '{\n  // beside it\n  "extraPaths": ["../shared"],\n}\n',
    "pyproject.toml": (
        "[tool.basedpyright]\n"
        "executionEnvironments = [{ root = \".\", extraPaths = ['../shared'] }]\n"
    ),
}


@pytest.mark.parametrize("kind", OUTSIDE)
def test_a_configurations_paths_beside_the_project_lead_there_from_the_copy(
    tmp_path: Path, kind: str
) -> None:
    """`extraPaths = ["../shared"]`: the copy's configuration names the directory beside the
    project, not beside the copy. Before, read from the copy it led to nothing, and the
    preview of a deletion said `Import "sharedlib" could not be resolved` (and the unknown
    types that follow) in the importer, which the checker never says."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared/sharedlib.py").write_text(SHARED)
    files = {**{k: v for k, v in FILES.items() if k != "pyrightconfig.json"}, kind: OUTSIDE[kind]}
    files["pkg/user.py"] = USES_SHARED
    for held in watched(written(tmp_path / "py", files), tmp_path / "logs"):
        assert held.run(check_ops.check_all(held.ws)).everything == []
        changes = preview(held, {"pkg/helper.py": None})
        gone = written(tmp_path / "gone", {k: v for k, v in files.items() if k != "pkg/helper.py"})
        assert rows(changes.introduced) == cli(gone)
        assert [(d.path, d.line, d.code) for d in changes.introduced if d.severity == "error"] == [
            ("pkg/dotted.py", 1, "reportMissingImports"),
            ("pkg/user.py", 2, "reportMissingImports"),
        ]
        kept = state_dir(held.root) / "python-copy-kept"  # the daemon's, warm (`kept_copy`)
        assert list(state_dir(held.root).glob("python-copy-*")) == [kept]


def test_the_copys_configuration_names_what_the_projects_does(tmp_path: Path) -> None:
    """Each path leaving the project on its way is written absolute (or relative again
    where it comes back in: the copy has another name), an absolute one into the project
    relative (the copy's); the others stay as written."""
    root = tmp_path / "py"
    (root / "sub").mkdir(parents=True)
    (root / "pyrightconfig.json").write_text(
        '{"venvPath": "..", "stubPath": "../stubs", "extraPaths": ["src", "../py/lib", "/opt/x",'
        f' "{root}/sub/lib"], "executionEnvironments":'
        ' [{"root": "../other", "extraPaths": ["../shared"]}]}\n'
    )
    (root / "sub/pyproject.toml").write_text(
        "[tool.pyright]\nextraPaths = ['../../shared', '../lib']\nextends = \"../../base.json\"\n"
    )
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\nreadme = '../README.md'\n")
    assert json.loads(copied_config(root, root / "pyrightconfig.json")) == {
        "venvPath": str(tmp_path),
        "stubPath": str(tmp_path / "stubs"),
        "extraPaths": ["src", "lib", "/opt/x", "sub/lib"],
        "executionEnvironments": [
            {"root": str(tmp_path / "other"), "extraPaths": [str(tmp_path / "shared")]}
        ],
    }
    assert copied_config(root, root / "sub/pyproject.toml").decode() == (
        f"[tool.pyright]\nextraPaths = ['{tmp_path}/shared', '../lib']\n"
        f'extends = "{tmp_path}/base.json"\n'
    )
    assert copied_config(root, root / "pyproject.toml") == (root / "pyproject.toml").read_bytes()


# Where basedpyright keeps its baseline -> the configuration naming it: its default, or a
# `baselineFile` of the project's own.
BASELINES = {
    ".basedpyright/baseline.json": FILES["pyrightconfig.json"],
    "config/typing-baseline.json": '{"baselineFile": "config/typing-baseline.json"}\n',
}


@pytest.mark.parametrize("kept", BASELINES)
def test_the_copy_keeps_the_projects_basedpyright_baseline(tmp_path: Path, kept: str) -> None:
    """A project silencing an old error with basedpyright's baseline file: the copy holds it
    too, so a preview of a deletion does not call the silenced error of an importer new.
    Before, the copy lacked `.basedpyright/baseline.json` (and a `baselineFile` elsewhere,
    until the configuration's named files were copied) and the importer's baselined
    `reportAssignmentType` was introduced."""
    files = {**FILES, "pyrightconfig.json": BASELINES[kept]}
    files["pkg/user.py"] = FILES["pkg/user.py"] + 'y: int = "s"\n'
    root = written(tmp_path / "py", files)
    subprocess.run([BASEDPYRIGHT, "--writebaseline"], cwd=root, capture_output=True, timeout=300)
    baseline = (root / kept).read_text()
    assert "reportAssignmentType" in baseline
    for held in watched(root, tmp_path / "logs"):
        assert held.run(check_ops.check_all(held.ws)).everything == []
        changes = preview(held, {"pkg/helper.py": None})
        gone = {k: v for k, v in files.items() if k != "pkg/helper.py"}
        gone[kept] = baseline
        assert rows(changes.introduced) == cli(written(tmp_path / "gone", gone))
        assert "reportAssignmentType" not in {d.code for d in changes.introduced}


ENVIRONMENT = {
    "app/__init__.py": "",
    "app/main.py": "from dep import f\n\nx: int = f()\n",
}
SITE = {"dep/__init__.py": "def f() -> int:\n    return 1\n", "dep/py.typed": ""}
# a module added to the installed package, and the project's use of it
ADDED = {
    "dep/extra.py": 'def g() -> str:\n    return ""\n',
    "app/main.py": "from dep import f\nfrom dep.extra import g\n\nx: int = f()\ny: int = g()\n",
}


def _environment(root: Path) -> Path:
    """A `.venv` (no pip) in `root` holding the typed package `dep`; its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    (site,) = (root / ".venv").glob("lib/python*/site-packages")
    written(site, SITE)
    return site


# the environment named by the configuration, or found by lspd alone (the CLI told it)
CONFIGS = {"venv": '{"include": ["app"], "venvPath": ".", "venv": ".venv"}\n', "found": "{}\n"}


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_a_module_added_to_an_installed_package_is_held_in_the_copy(
    tmp_path: Path, config: str
) -> None:
    """A preview adding dep/extra.py to the project's environment and a use of it: the
    copy's environment is folders down to dep/ (the rest linked) and its interpreter the
    copy's (`python.pythonPath`), so the use is judged as the checker judges it once
    written; nothing is written into the project's environment (before: refused,
    `python_mirror.wanted`'s InvalidInput)."""
    root = written(tmp_path / "py", {**ENVIRONMENT, "pyrightconfig.json": config})
    site = _environment(root)
    extra = site / "dep/extra.py"
    held: dict[str, str | None] = {extra.relative_to(root).as_posix(): ADDED["dep/extra.py"]}
    held["app/main.py"] = ADDED["app/main.py"]
    python = ("--pythonpath", str(root / ".venv/bin/python"))
    assert cli(root, *python) == []
    items = [{"path": name, "content": text} for name, text in held.items()]
    once = answer(root, lambda ws: previewed(ws, items)).changes  # a one-shot command's copy
    for asked in watched(root, tmp_path / "logs"):
        assert asked.run(check_ops.check_all(asked.ws)).everything == []
        changes = preview(asked, held)  # the daemon's kept copy
    assert not extra.exists() and read_text(root / "app/main.py") == ENVIRONMENT["app/main.py"]
    extra.write_text(ADDED["dep/extra.py"])
    (root / "app/main.py").write_text(ADDED["app/main.py"])
    expected = cli(root, *python)
    assert [(p, line, rule) for p, line, _, rule, _ in expected] == [
        ("app/main.py", 5, "reportAssignmentType")
    ]
    assert rows(changes.introduced) == rows(once.introduced) == expected


def test_an_environment_holding_a_text_is_made_of_folders_down_to_it(tmp_path: Path) -> None:
    """What the copy holds of an environment (`python_mirror.wanted`): a link to it, or,
    with a held text in it, folders down to the held file whose other entries are links."""
    venv = {"pyvenv.cfg": "", "bin/python": "", "lib/site/other/__init__.py": ""}
    venv |= {"lib/site/dep/__init__.py": "", "lib/site/dep/core.py": ""}
    root = written(tmp_path / "p", {"pkg/a.py": "", **{f".venv/{k}": v for k, v in venv.items()}})
    assert wanted(root, {}).links == {Path(".venv"): str(root / ".venv")}
    held = wanted(root, {root / ".venv/lib/site/dep/extra.py": "x = 1\n"})
    linked = ["bin", "pyvenv.cfg", "lib/site/other", "lib/site/dep/__init__.py"]
    linked.append("lib/site/dep/core.py")
    assert held.links == {Path(f".venv/{name}"): str(root / ".venv" / name) for name in linked}
    assert {Path(".venv/lib/site/dep"), Path(".venv/lib/site"), Path(".venv")} <= held.folders
    assert held.files[Path(".venv/lib/site/dep/extra.py")] == b"x = 1\n"
