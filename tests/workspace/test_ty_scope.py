"""The files a ty gate checks (`workspace/ty_scope.py`): sqlmodel's lint script runs `ty
check sqlmodel tests/test_select_typing.py`, and lspd checked every file (204 errors and 17
warnings its gate never sees); pipx's `[tool.ty]` names `src.include`. Real ty (lspd's)
against its CLI run as the gate runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.scope import gate_scope
from tests.conftest import answer, warm_root
from tests.engine.test_affected import written
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import environment
from tests.workspace.test_toolchain_pyright import diagnostic_rows
from tests.workspace.ty_cli import ty_rows

PYPROJECT = '[project]\nname = "p"\nversion = "0"\n\n[tool.ty]\n'
UNCONFIGURED = PYPROJECT.replace("[tool.ty]", "[tool.ruff]")  # no ty configuration
FILES = {
    ".gitignore": ".venv\n",
    "app/__init__.py": "",
    "app/main.py": 'width: int = "wide"\n',
    "app/gen/made.py": 'made: int = "x"\n',
    "docs/conf.py": 'project: int = "docs"\n',
    "tools/t.py": 'count: int = "x"\n',
}
EVERY_FILE = sorted(name for name in FILES if name.endswith(".py"))


def _files(root: Path) -> tuple[list[str], str | None]:
    scope = answer(root, gate_scope)
    [project] = scope.projects
    return sorted(p.relative_to(root).as_posix() for p in scope.files), project.note


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    """A project of `FILES` and `files`, its environment holding no server."""
    root = written(tmp_path / "p", {**FILES, **files})
    (root / ".venv").symlink_to(environment("no-mypy"))
    return root


def _flagged(root: Path, *arguments: str) -> list[str]:
    """The files ty's CLI (given `arguments`, as the gate runs it) flags, once lspd's answer
    is found to hold its rows exactly."""
    expected = ty_rows(root, *arguments)
    assert diagnostic_rows(answer(root, workspace_diagnostics)) == expected
    return [row[0] for row in expected]


def test_the_paths_the_command_names_are_the_gate(tmp_path: Path) -> None:
    lint = "#!/bin/sh -e\nty check app tools/t.py\n"
    root = _project(tmp_path, {"pyproject.toml": PYPROJECT, "scripts/lint.sh": lint})
    files, note = _files(root)
    assert files == ["app/__init__.py", "app/gen/made.py", "app/main.py", "tools/t.py"]
    assert note == "what scripts/lint.sh runs ty on: app, tools/t.py"
    assert _flagged(root, "app", "tools/t.py") == ["app/gen/made.py", "app/main.py", "tools/t.py"]


def test_below_a_folder_named_excludes_and_include_hold(tmp_path: Path) -> None:
    """Measured on ty 1.0.0: below a folder the command names, `src.exclude` and the default
    excludes leave files out, and `src.include` must take them (docs/ is named, not
    included: none of it is checked)."""
    more = {
        "app/dist/d.py": 'd: int = "x"\n',  # a default exclude
        "tools/gen/g.py": 'g: int = "x"\n',
        "docs/more.py": 'm: int = "x"\n',
    }
    config = PYPROJECT + 'src.include = ["app", "tools"]\nsrc.exclude = ["tools/gen", "app/gen"]\n'
    lint = "#!/bin/sh -e\nty check app tools docs\n"
    root = _project(tmp_path, {**more, "pyproject.toml": config, "scripts/lint.sh": lint})
    files, note = _files(root)
    assert files == ["app/__init__.py", "app/main.py", "tools/t.py"]
    assert note == "what scripts/lint.sh runs ty on: app, tools, docs"
    assert _flagged(root, "app", "tools", "docs") == ["app/main.py", "tools/t.py"]


def test_the_commands_excludes_follow_the_configurations(tmp_path: Path) -> None:
    """Measured on ty 1.0.0: `--exclude` patterns are read as `src.exclude`'s (anchored:
    `gen` is not `app/gen`), after them (`!docs` takes back what `src.exclude` left out);
    a folder named is walked all the same (gen/). ty's server is told them too."""
    more = {"gen/g.py": 'g: int = "x"\n', "app/alembic/versions/v.py": 'v: int = "x"\n'}
    config = PYPROJECT + 'src.exclude = ["docs"]\n'
    lint = "#!/bin/sh -e\nty check --exclude gen --exclude 'app/alembic/**' --exclude '!docs'\n"
    root = _project(tmp_path, {**more, "pyproject.toml": config, "scripts/lint.sh": lint})
    files, note = _files(root)
    assert files == EVERY_FILE
    assert note == "src.exclude = docs; --exclude gen, app/alembic/**, !docs"
    arguments = ("--exclude", "gen", "--exclude", "app/alembic/**", "--exclude", "!docs")
    flagged = _flagged(root, *arguments)
    assert flagged == ["app/gen/made.py", "app/main.py", "docs/conf.py", "tools/t.py"]
    written(root, {"scripts/lint.sh": "#!/bin/sh -e\nty check --exclude app/gen app gen\n"})
    files, note = _files(root)
    assert note == "what scripts/lint.sh runs ty on: app, gen; --exclude app/gen"
    flagged = _flagged(root, "--exclude", "app/gen", "app", "gen")
    assert flagged == ["app/alembic/versions/v.py", "app/main.py", "gen/g.py"]


def test_what_the_command_names_is_checked_whatever_the_configuration_says(
    tmp_path: Path,
) -> None:
    """Measured on ty 1.0.0: a file named is checked though `src.include` leaves it out,
    a folder named though an exclude names it; ty's server, which judges only its
    configuration's files, is told so."""
    more = {"tools/gen/g.py": 'g: int = "x"\n', "docs/more.py": 'm: int = "x"\n'}
    config = PYPROJECT + 'src.include = ["app", "tools"]\nsrc.exclude = ["tools/gen"]\n'
    lint = "#!/bin/sh -e\nty check app tools/gen docs/conf.py\n"
    root = _project(tmp_path, {**more, "pyproject.toml": config, "scripts/lint.sh": lint})
    files, _ = _files(root)
    assert files == [
        "app/__init__.py",
        "app/gen/made.py",
        "app/main.py",
        "docs/conf.py",
        "tools/gen/g.py",
    ]
    flagged = _flagged(root, "app", "tools/gen", "docs/conf.py")
    assert flagged == ["app/gen/made.py", "app/main.py", "docs/conf.py", "tools/gen/g.py"]


def test_the_paths_a_hook_names_are_the_gate(tmp_path: Path) -> None:
    """sqlmodel's hook: `entry: uv run ty check sqlmodel tests/test_select_typing.py`, with
    no file names passed; its lint script was the only place lspd read them from."""
    hooks = (
        "repos:\n- repo: local\n  hooks:\n"
        "  - {id: ty, name: ty, entry: uv run ty check app, language: system,"
        " pass_filenames: false, args: [tools/t.py]}\n"
        "  - {id: ruff, name: ruff, entry: ruff check docs, language: system}\n"
    )
    root = _project(tmp_path, {"pyproject.toml": PYPROJECT, ".pre-commit-config.yaml": hooks})
    files, note = _files(root)
    assert files == ["app/__init__.py", "app/gen/made.py", "app/main.py", "tools/t.py"]
    assert note == "what .pre-commit-config.yaml's ty hook runs ty on: app, tools/t.py"
    assert _flagged(root, "app", "tools/t.py") == ["app/gen/made.py", "app/main.py", "tools/t.py"]


def test_src_include_and_exclude_are_the_gate(tmp_path: Path) -> None:
    config = PYPROJECT + 'src.include = ["app", "tools/"]\nsrc.exclude = ["./app/gen"]\n'
    tox = "[testenv:type]\ncommands = ty check\n"
    root = _project(tmp_path, {"pyproject.toml": config, "tox.ini": tox})
    files, note = _files(root)
    assert files == ["app/__init__.py", "app/main.py", "tools/t.py"]
    assert note == "src.include = app, tools; src.exclude = app/gen"
    assert _flagged(root) == ["app/main.py", "tools/t.py"]


def test_patterns_are_read_as_ty_reads_them(tmp_path: Path) -> None:
    """Each entry anchored at the project (`main.py` is not `app/main.py`), `**` at any
    depth, an exclude's `!` taking a file back, ty's default excludes (`_build`) and a `!`
    taking one of those back (`buck-out`)."""
    more = {
        "_build/out.py": 'out: int = "x"\n',
        "buck-out/b.py": 'b: int = "x"\n',
        "tools/keep.py": 'kept: int = "x"\n',
    }
    include = '["app", "t*", "_build", "buck-out"]'
    exclude = '["**/gen/", "tools/*.py", "!tools/keep.py", "!buck-out", "main.py"]'
    config = PYPROJECT + f"src.include = {include}\nsrc.exclude = {exclude}\n"
    tox = "[testenv:type]\ncommands = ty check\n"
    root = _project(tmp_path, {**more, "pyproject.toml": config, "tox.ini": tox})
    files, note = _files(root)
    assert files == ["app/__init__.py", "app/main.py", "buck-out/b.py", "tools/keep.py"]
    assert note == (
        "src.include = app, t*, _build, buck-out; "
        "src.exclude = **/gen, tools/*.py, !tools/keep.py, !buck-out, main.py"
    )
    assert _flagged(root) == ["app/main.py", "buck-out/b.py", "tools/keep.py"]


def test_ty_chosen_in_lspd_toml_checks_its_configurations_files(tmp_path: Path) -> None:
    """Nothing runs ty here: lspd.toml chose it, and its configuration says which files."""
    config = PYPROJECT + 'src.include = ["app"]\n'
    chosen = '[languages.python]\nserver = "ty"\n'
    root = written(tmp_path / "p", {**FILES, "pyproject.toml": config, "lspd.toml": chosen})
    assert _files(root) == (
        ["app/__init__.py", "app/gen/made.py", "app/main.py"],
        "src.include = app",
    )


def test_a_gate_running_ty_without_its_configuration_is_tys(tmp_path: Path) -> None:
    """gimmegit: its justfile runs `uv run ty check`, its pyproject.toml has no [tool.ty]:
    ty's defaults judge every file but its default excludes (basedpyright's defaults said 11
    errors and 744 warnings where its gate says 0). A package below configuring nothing is
    the gate's; where nothing runs ty, every file is basedpyright's, as before."""
    more = {"app/dist/d.py": 'd: int = "x"\n', "tools/pyproject.toml": UNCONFIGURED}
    just = {"pyproject.toml": UNCONFIGURED, "justfile": "lint:\n  uv run ty check\n", **more}
    root = _project(tmp_path, just)
    files, note = _files(root)
    assert files == EVERY_FILE
    assert note == "no ty configuration: every Python file"
    assert answer(root, gate_scope).projects[0].config == "ty's defaults"
    assert _flagged(root) == ["app/gen/made.py", "app/main.py", "docs/conf.py", "tools/t.py"]
    written(root, {"justfile": "lint:\n  uv run pytest\n"})
    scope = answer(root, gate_scope)
    unread = "no pyrightconfig.json, [tool.basedpyright] or [tool.pyright]: every Python file"
    assert {(p.config, p.note) for p in scope.projects} == {(None, unread)}
    assert len(scope.files) == 5


TOX = {"tox.ini": "[testenv:type]\ncommands = ty check\n"}


@pytest.mark.parametrize(
    ("files", "taken"),
    [
        (
            {"pyproject.toml": PYPROJECT + 'src.include = ["app", "docs"]\n[tool.basedpyright]\n'},
            ["app/__init__.py", "app/gen/made.py", "app/main.py", "docs/conf.py"],
        ),
        (
            {"pyproject.toml": UNCONFIGURED, "pyrightconfig.json": '{"include": ["app"]}'},
            EVERY_FILE,
        ),
    ],
    ids=["tool-basedpyright", "pyrightconfig-ty-defaults"],
)
def test_a_pyright_configuration_nothing_runs_leaves_the_files_to_ty(
    tmp_path: Path, files: dict[str, str], taken: list[str]
) -> None:
    """fastmcp's gate runs ty alone: its `[tool.basedpyright]` chose lspd's files (622 where
    ty checks 530). The files are ty's: its `src.include`, else every file (its defaults);
    basedpyright's `include` (every file without one) is left over."""
    root = _project(tmp_path, {**files, **TOX})
    assert _files(root)[0] == taken
    assert _flagged(root) == [name for name in taken if name != "app/__init__.py"]


def test_hidden_folders_ty_checks_are_the_gates(tmp_path: Path) -> None:
    """Measured on ty 1.0.0: it checks a hidden folder (.scripts/, .github/scripts/, .cache/,
    which lspd's walk leaves out wherever it is) but those of its default excludes (.tox/)
    and what the .gitignore leaves out; lspd's walk left every hidden folder out. A
    `[tool.basedpyright]` project's stay out (its default `**/.*` exclude:
    tests/workspace/test_scope.py)."""
    hidden = {
        ".scripts/s.py": 's: int = "x"\n',
        ".github/scripts/g.py": 'g: int = "x"\n',
        ".tox/t.py": 't: int = "x"\n',
        ".cache/c.py": 'c: int = "x"\n',
        ".local/l.py": 'l: int = "x"\n',
        ".gitignore": ".venv\n.local/\n",
        ".git/HEAD": "",  # ty reads the .gitignore in a repository alone
        "tox.ini": "[testenv:type]\ncommands = ty check\n",
    }
    root = _project(tmp_path, {"pyproject.toml": PYPROJECT, **hidden})
    files, _ = _files(root)
    hidden_checked = [".cache/c.py", ".github/scripts/g.py", ".scripts/s.py"]
    assert files == sorted([*hidden_checked, *EVERY_FILE])
    assert _flagged(root) == [*hidden_checked, *EVERY_FILE[1:]]


def test_a_hidden_folders_file_is_read_anew_at_each_check(tmp_path: Path) -> None:
    """The watcher follows no hidden folder: a file of one that ty checks is closed again
    after each check (not kept open, answered "unchanged" of its old text), so an edit there
    is seen by the next check of a daemon."""
    hidden = {".scripts/s.py": 's: int = "x"\n', **TOX}
    root = _project(tmp_path, {"pyproject.toml": PYPROJECT, **hidden})
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        before = warm.run(workspace_diagnostics(warm.ws))
        assert ".scripts/s.py" in {d.path for d in before.diagnostics}
        (root / ".scripts" / "s.py").write_text("s: int = 1\n")
        after = warm.run(workspace_diagnostics(warm.ws))
        assert ".scripts/s.py" not in {d.path for d in after.diagnostics}
        assert len(after.diagnostics) == len(before.diagnostics) - 1


def test_a_hidden_folders_edit_is_a_new_comparison_with_head(tmp_path: Path) -> None:
    """A comparison with HEAD is kept while the watcher's count stands, and an edit in a
    hidden folder changes no count: the second edit of .scripts/s.py was answered with the
    first one's comparison (1 new where the check said 2)."""
    hidden = {".scripts/s.py": 's: int = "x"\n', **TOX}
    root = committed(_project(tmp_path, {"pyproject.toml": PYPROJECT, **hidden}))
    script = root / ".scripts" / "s.py"
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        said = []
        for text in ('s: int = "x"\nt: str = 1\n', 's: int = "x"\nt: str = 1\nu: int = ""\n'):
            script.write_text(text)
            answer = warm.run(workspace_diagnostics(warm.ws, baseline="HEAD"))
            assert answer.changes is not None
            said.append([(d.path, d.line) for d in answer.changes.introduced])
        assert said == [[(".scripts/s.py", 2)], [(".scripts/s.py", 2), (".scripts/s.py", 3)]]
