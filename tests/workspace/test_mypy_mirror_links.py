"""A mypy project's symlinked package folder (`app/vendor -> ../shared/vendor`, committed as
a link) is mypy's: the daemon's copy holds it as a link (`mypy_mirror.LINK`), into the copy
where it leads inside it, so a held text there is read through both names. Before, the copy
had no such folder: `lspd check` said `Cannot find implementation or library stub for
module named "app.vendor.util"` and `Returning Any` where mypy says neither, on every path
(check, check --baseline HEAD, preview, diagnostics); with `files = ["app"]` the module's
own errors were out of the gate; with `files = ["src/pkg"]` (src/pkg -> ../libs/pkg) mypy
refused (`can't read file 'src/pkg'`). Real mypy against the project's own, its paths by
their real place (lspd's): an error of a linked module mypy says twice, by both names."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from lspd.ops.check import workspace_diagnostics
from lspd.ops.models import FileDiagnostic
from lspd.ops.preview import preview
from lspd.workspace.mypy_copy import Mirror, bare_folders
from lspd.workspace.mypy_mirror import LINK
from tests.conftest import answer
from tests.ops.test_baseline import committed
from tests.workspace.mypy_env import cli_errors, project

UTIL = "def helper(n: int) -> int:\n    return n * 2\n"
# an error of its own, and its signature changed: the importer's argument is wrong
BROKEN = "def helper(n: str) -> int:\n    return n\n\n\ndef extra() -> str:\n    return 1\n"
APP = {
    ".gitignore": ".venv\n",
    "app/__init__.py": "",
    "app/main.py": (
        "from app.vendor.util import helper\n\n\ndef run() -> int:\n    return helper(3)\n"
    ),
    "app/other.py": 'def bad() -> int:\n    return "x"\n',
    "shared/__init__.py": "",
    "shared/vendor/__init__.py": "",
    "shared/vendor/util.py": UTIL,
}
SRC = {
    ".gitignore": ".venv\n",
    "libs/pkg/__init__.py": "",
    "libs/pkg/util.py": UTIL,
    "tests/test_util.py": (
        "from pkg.util import helper\n\n\ndef test_it() -> None:\n    assert helper(1) == 2\n"
        '\n\ndef wrong() -> int:\n    return "w"\n'
    ),
}
VENDOR = ("app/vendor", "../shared/vendor", "shared/vendor")  # the link, its target, its place
LAYOUTS = {  # mypy's configuration, the files, the link
    "every file": ("strict = true\n", APP, VENDOR),
    "files": ('strict = true\nfiles = ["app"]\n', APP, VENDOR),
    "src": (
        'strict = true\nmypy_path = "src"\nfiles = ["src/pkg", "tests"]\n',
        SRC,
        ("src/pkg", "../libs/pkg", "libs/pkg"),
    ),
}

Row = tuple[str, int, str | None]


def made(tmp_path: Path, layout: str) -> tuple[Path, str, str]:
    """The layout's project, committed with its link; the linked module's real path, and
    its name through the link."""
    config, files, (link, target, real) = LAYOUTS[layout]
    root = project(tmp_path / "p", {**files, "pyproject.toml": f"[tool.mypy]\n{config}"})
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, root / link)
    return committed(root), f"{real}/util.py", f"{link}/util.py"


def mypys(root: Path) -> Counter[Row]:
    """The project's own mypy's errors (`mypy .` without `files`), each file by its real
    place (lspd's paths)."""
    real = Path(os.path.realpath(root))
    targets = () if "files" in (root / "pyproject.toml").read_text() else (".",)
    return Counter(
        (Path(os.path.realpath(root / f)).relative_to(real).as_posix(), line, code)
        for f, line, _, code, _ in cli_errors(root, *targets)
    )


def rows(found: list[FileDiagnostic]) -> Counter[Row]:
    return Counter((str(d.path), d.line, d.code) for d in found)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symlinked_package_folder_is_mypys_on_every_path(tmp_path: Path, layout: str) -> None:
    root, util, named = made(tmp_path, layout)
    head = mypys(root)
    assert head and all(code == "return-value" for _, _, code in head)
    checked = answer(root, lambda ws: workspace_diagnostics(ws, limit=1000))
    assert rows(checked.diagnostics) == head
    # a preview of the linked module, by its name through the link
    change: list[dict[str, str | None]] = [{"path": named, "content": BROKEN}]
    previewed = answer(root, lambda ws: preview(ws, change))
    (root / util).write_text(BROKEN)
    edited = mypys(root)
    assert edited - head and {r[0] for r in edited - head} >= {util}  # the module's own errors
    assert rows(previewed.changes.introduced) == edited - head
    assert rows(previewed.changes.fixed) == head - edited
    since = answer(root, lambda ws: workspace_diagnostics(ws, limit=1000, baseline="HEAD"))
    assert since.changes is not None
    assert rows(since.changes.introduced) == edited - head
    assert since.changes.fixed == [] and since.changes.unchanged == sum(head.values())


def test_the_copy_holds_a_link_where_it_leads(tmp_path: Path) -> None:
    """A link the state holds is made, led elsewhere, and removed as the state says, never
    written as a file; its coming, going or target is a change dmypy's update misses."""
    mirror = Mirror(tmp_path / "tree")
    state = {"shared/vendor/util.py": b"x", "app/vendor" + LINK: b"../shared/vendor"}
    assert mirror.hold(state)
    assert os.readlink(tmp_path / "tree/app/vendor") == "../shared/vendor"
    assert (tmp_path / "tree/app/vendor/util.py").read_bytes() == b"x"
    assert not mirror.hold(state)
    moved = {**state, "app/vendor" + LINK: b"../shared"}
    assert mirror.hold(moved) and os.readlink(tmp_path / "tree/app/vendor") == "../shared"
    assert bare_folders(moved) != bare_folders(state)
    assert mirror.hold({"shared/vendor/util.py": b"x"})
    assert not (tmp_path / "tree/app").exists() and (tmp_path / "tree/shared/vendor").is_dir()
    assert bare_folders({"shared/vendor/util.py": b"x", "app/vendor" + LINK: b"x"}) == {
        "app/vendor" + LINK + "x"
    }
