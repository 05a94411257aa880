"""A preview of a change of Python declarations asks the files naming a declaration whose
type the change changes (`engine/python_types.py`, the types real basedpyright hovers with
the old texts and the new), and its answer is the truth: a fresh workspace's check of the
change written, against the check before it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from lspd.ops.overlaid_state import overlaid_state
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_overlaid_check import Said, previewed_said

CORE = """from typing import Any


def to_list(x: Any, default: Any = None) -> list[Any]:
    return [x]


def other() -> int:
    return 1
"""
SIGNATURE = "def to_list(x: Any, default: Any = None) -> list[Any]:"
FILES = {
    "core.py": CORE,
    # a function whose inferred type is made of `to_list`'s, and a name it is imported as
    "wrap.py": "from core import to_list\nfrom core import to_list as listed\n\n\n"
    "def wrapped(x):\n    return to_list(x)\n",
    "uses_wrap.py": "from wrap import wrapped\n\ny: int = wrapped(1)[0]\n",
    "uses_listed.py": "from wrap import listed\n\nz: str = listed(2)[0]\n",
    "other.py": "from core import other\n\nw = other()\n",
    "plain.py": "import core\n\nprint(core.other())\n",
}
CLASS = "from core import to_list\n\n\nclass Box:\n    def __init__(self):\n        self.items = to_list(1)\n"


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "0"\n\n[tool.basedpyright]\ntypeCheckingMode = "standard"\n'
    )
    for name, text in FILES.items():
        (root / name).write_text(text)
    yield from warm_root(root, tmp_path / "logs", watch=True)


def errors(root: Path) -> set[tuple[str | None, int, str | None, str]]:
    """The errors of a fresh workspace's whole check of `root`."""
    checked = answer(root, check_all)
    return {(d.path, d.line, d.code, d.message) for d in checked.everything}


def proof(warm: Warm, change: Mapping[str, str]) -> tuple[list[str], Said, Said]:
    """The files a preview of `change` asks, and what it introduces and fixes, asserted to
    be what writing it does (`change` keeps every line where it was)."""
    checked = warm.run(check_all(warm.ws))
    before = {(d.path, d.line, d.code, d.message) for d in checked.everything}
    proposed = {warm.root / name: text for name, text in change.items()}
    files = {warm.ws.resolve(r.path) for r in checked.results}
    state = warm.run(overlaid_state(warm.ws, proposed, files))
    introduced, fixed = previewed_said(warm, change)
    olds = {path: path.read_text() for path in proposed}
    try:
        for path, text in proposed.items():
            path.write_text(text)
        after = errors(warm.root)
    finally:
        for path, text in olds.items():
            path.write_text(text)
    assert sorted(introduced) == sorted(after - before)
    assert sorted(fixed) == sorted(before - after)
    return sorted(warm.ws.display(p) for p in state.asked), introduced, fixed


def test_a_signature_its_callers_see_alone_asks_the_files_naming_it(python: Warm) -> None:
    keyword = "def to_list(x: Any, *, default: Any = None) -> list[Any]:"
    asked, introduced, _ = proof(python, {"core.py": CORE.replace(SIGNATURE, keyword)})
    # `wrapped`'s type is as it was: the files naming it are not asked
    assert asked == ["core.py", "uses_listed.py", "wrap.py"]
    assert introduced == []
    called = CORE.replace(SIGNATURE, keyword) + "\n\nbad = to_list(1, [])\n"
    asked, introduced, _ = proof(python, {"core.py": called})
    assert asked == ["core.py", "uses_listed.py", "wrap.py"]
    assert [(p, line, code) for p, line, code, _ in introduced] == [
        ("core.py", 12, "reportCallIssue")
    ]


def test_a_type_changed_is_followed_through_what_is_made_of_it(python: Warm) -> None:
    returns_int = CORE.replace(SIGNATURE, SIGNATURE.replace("list[Any]:", "int:"))
    asked, introduced, _ = proof(python, {"core.py": returns_int})
    assert asked == ["core.py", "uses_listed.py", "uses_wrap.py", "wrap.py"]
    assert sorted((p, line) for p, line, _, _ in introduced) == [
        ("core.py", 5),
        ("uses_listed.py", 3),
        ("uses_wrap.py", 3),
    ]


def test_a_body_keeping_the_type_asks_its_file_alone(python: Warm) -> None:
    body = FILES["wrap.py"].replace("return to_list(x)", "return to_list(x)  # the same")
    body = body.replace("return to_list(x)", "return to_list(x, None)")
    asked, introduced, fixed = proof(python, {"wrap.py": body})
    assert asked == ["wrap.py"]
    assert (introduced, fixed) == ([], [])


def test_a_class_member_whose_type_changed_asks_every_importer(python: Warm) -> None:
    (python.root / "box.py").write_text(CLASS)
    returns_int = CORE.replace(SIGNATURE, SIGNATURE.replace("list[Any]:", "int:"))
    asked, _, _ = proof(python, {"core.py": returns_int})
    assert asked == ["box.py", "core.py", "other.py", "plain.py", "uses_listed.py"] + [
        "uses_wrap.py",
        "wrap.py",
    ]


KEYWORD = CORE.replace(SIGNATURE, "def to_list(x: Any, *, default: Any = None) -> list[Any]:")


def test_a_module_used_as_a_value_is_told_by_where_its_name_leads(python: Warm) -> None:
    vendor = python.root / "vendor"
    vendor.mkdir()
    (vendor / "__init__.py").write_text("")
    (vendor / "core.py").write_text("def to_list() -> None: ...\n")
    (python.root / "packed.py").write_text("from vendor import core\n\nmodules = (core,)\n")
    asked, _, _ = proof(python, {"core.py": KEYWORD})
    assert asked == ["core.py", "uses_listed.py", "wrap.py"]  # another `core`
    (python.root / "shape.py").write_text(
        "from typing import Any, Protocol\n\n\nclass HasToList(Protocol):\n"
        "    def to_list(self, x: Any, default: Any = None) -> list[Any]: ...\n"
    )
    (python.root / "fit.py").write_text(
        "import core\nfrom shape import HasToList\n\nimpl: HasToList = core\n"
    )
    asked, introduced, _ = proof(python, {"core.py": KEYWORD})
    assert "fit.py" in asked and "other.py" in asked  # every importer
    assert [(p, line) for p, line, _, _ in introduced] == [("fit.py", 4)]
