"""C in a Python project that no compile database describes is left out of the gate
(`workspace/built_projects.py`): markupsafe's `_speedups.c` said 19 clangd errors from
"'Python.h' file not found" where its gate, mypy, says 1. A compile database written above
it (watched, in each folder's build/ too) brings it back; `--all` checks it; C of no
Python project (a pyproject.toml, setup.py or setup.cfg above it) is every file, as before,
a Python script beside it or not."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.built_projects import NOTE
from tests.conftest import answer
from tests.workspace.test_scope import scope_of, shown, write

SPEEDUPS = "#include <Python.h>\n\nstatic PyObject *escape(PyObject *self) { return self; }\n"


def test_c_no_compile_database_describes_in_a_python_project_is_left_out(
    tmp_path: Path,
) -> None:
    root = write(
        tmp_path / "p",
        {
            "pyproject.toml": "[project]\nname = 'p'\n",
            "src/p/__init__.py": "",
            "src/p/_speedups.c": SPEEDUPS,
            "tests/roots/api.h": "PyObject *make(void);\n",
            "native/compile_flags.txt": "-xc\n",
            "native/lib/add.c": "int add(int a, int b) { return a + b; }\n",
        },
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["native/lib/add.c", "src/p/__init__.py"]
    lines = [(p.project.relative_to(root).as_posix(), len(p.files), p.note) for p in scope.projects]
    assert [line for line in lines if line[0] != "."] == [
        ("native", 1, "clangd reads no configuration of which files to check: every file"),
        ("src", 0, NOTE),
        ("tests", 0, NOTE),
    ]
    assert root / "src/p/compile_commands.json" in dict(scope.read)
    every = answer(root, lambda ws: workspace_diagnostics(ws, all=True))
    said = {d.message for d in every.diagnostics if d.path == "src/p/_speedups.c"}
    assert "'Python.h' file not found" in said  # what clangd's guess says: no gate's
    (root / "compile_flags.txt").write_text("-xc\n")
    assert shown(root, scope_of(root)) == [
        "native/lib/add.c",
        "src/p/__init__.py",
        "src/p/_speedups.c",
        "tests/roots/api.h",
    ]
    (root / "compile_flags.txt").unlink()
    (root / "build").mkdir()  # clangd looks in each folder's build/ too
    (root / "build/compile_commands.json").write_text("[]")
    assert "src/p/_speedups.c" in shown(root, scope_of(root))
    # a C project with a Python script beside it, no Python project: every file, as before
    (root / "build/compile_commands.json").unlink()
    (root / "pyproject.toml").unlink()
    assert shown(root, scope_of(root)) == [
        "native/lib/add.c",
        "src/p/__init__.py",
        "src/p/_speedups.c",
        "tests/roots/api.h",
    ]


def test_go_and_rust_of_no_module_or_crate_in_a_python_project_are_left_out(
    tmp_path: Path,
) -> None:
    # pre-commit's templates for new hooks: in its Python package, no go.mod or Cargo.toml
    root = write(
        tmp_path / "p",
        {
            "setup.cfg": "[metadata]\nname = p\n",
            "p/__init__.py": "",
            "p/resources/empty_template_main.go": "package main\n\nfunc main() {}\n",
            "p/resources/empty_template_main.rs": "fn main() {}\n",
            "tools/gen/go.mod": "module gen\n\ngo 1.19\n",
            "tools/gen/cmd/main.go": "package main\n\nfunc main() {}\n",
            "native/Cargo.toml": '[package]\nname = "n"\nversion = "0.1.0"\n',
            "native/src/lib.rs": "pub fn n() {}\n",
        },
    )
    scope = scope_of(root)
    assert shown(root, scope) == ["native/src/lib.rs", "p/__init__.py", "tools/gen/cmd/main.go"]
    strays = [
        (p.project.relative_to(root).as_posix(), p.note) for p in scope.projects if not p.files
    ]
    assert strays == [
        (
            "p",
            "not checked: Go in a Python project that no go.work or go.mod describes: no build "
            "compiles it, and nothing the project runs checks it (`lspd check --all` does)",
        ),
        (
            "p",
            "not checked: Rust in a Python project that no Cargo.toml describes: no build "
            "compiles it, and nothing the project runs checks it (`lspd check --all` does)",
        ),
    ]
    assert root / "p/resources/go.mod" in dict(scope.read)
    assert root / "p/resources/build/go.mod" not in dict(scope.read)  # a compile database's
    (root / "go.mod").write_text("module p\n\ngo 1.19\n")
    assert "p/resources/empty_template_main.go" in shown(root, scope_of(root))
