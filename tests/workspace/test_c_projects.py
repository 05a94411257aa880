"""C in a Python project that no compile database describes is left out of the gate
(`workspace/c_projects.py`): markupsafe's `_speedups.c` said 19 clangd errors from
"'Python.h' file not found" where its gate, mypy, says 1. A compile database written above
it (watched) brings it back; `--all` checks it; a C project with no Python is every file,
as before."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.c_projects import NOTE
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
    # a C project with no Python: every file, as before
    for name in ("compile_flags.txt", "pyproject.toml", "src/p/__init__.py"):
        (root / name).unlink()
    assert shown(root, scope_of(root)) == [
        "native/lib/add.c",
        "src/p/_speedups.c",
        "tests/roots/api.h",
    ]
