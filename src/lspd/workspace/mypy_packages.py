"""The project's own packages its mypy configuration's per-module sections name, where it
keeps them apart (a `mypy_path` directory inside it, `src/`): what its CI points mypy at
when nothing else says (`mypy_scope`)."""

from __future__ import annotations

from pathlib import Path


def sections_packages(
    directory: Path, paths: tuple[str, ...], modules: tuple[str, ...], inside: list[Path]
) -> tuple[str, ...]:
    """The project's own packages among `modules` (the top-level names of its per-module
    sections: SQLAlchemy's `sqlalchemy.*` strict), as paths relative to the project: what
    its CI points mypy at. Only those found where a project keeps its importable packages
    apart from the rest (a `mypy_path` directory inside it, `src/`): a section names what
    the configuration adjusts, and one at the project's top (structlog's `tests.*`
    `ignore_errors`) is no sign of the gate, whose scope stays every Python file. Nor is
    one holding no file of `inside` (the walk's: black 24.10's only such section names its
    generated, git-ignored `src/_black_version.py`, `ignore_missing_imports`: the gate was
    that file's imports, none, and `lspd check` said "0 files, 0 errors" where `mypy src`
    says 4 and its pre-commit `mypy` runs over every Python file)."""
    walked = set(inside)
    found = []
    for module in modules:
        for base in (*paths, "src"):
            root = (directory / base).resolve()
            package, module_file = root / module, (root / module).with_suffix(".py")
            if (package / "__init__.py").is_file() or module_file.is_file():
                chosen = package if (package / "__init__.py").is_file() else module_file
                held = chosen in walked or any(chosen in p.parents for p in walked)
                if directory in root.parents and held:  # not the top: tests/, docs/ live there
                    found.append(chosen.relative_to(directory).as_posix())
                break
    return tuple(found)
