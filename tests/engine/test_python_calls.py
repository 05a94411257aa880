"""A function's parameters changed so that its calls bind as before (`engine/python_calls.py`):
a preview asks the files naming it, not those naming what is made of its calls, and its
answer is the truth: a fresh workspace's check of the change written, against the check
before it (real basedpyright)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from lspd.engine.declarations import declared
from lspd.engine.python_calls import binds_alike, signature_change
from lspd.engine.python_reading import maybe_value, other_module
from lspd.ops.check import check_all
from lspd.ops.overlaid_state import overlaid_state
from tests.conftest import Warm, answer, warm_root
from tests.ops.test_overlaid_check import Said, previewed_said

SIGNATURE = "def to_list(x: Any, default: Any = None) -> list[Any]:"
KEYWORD = "def to_list(x: Any, *, default: Any = None) -> list[Any]:"
CORE = (
    f"from typing import Any\n\n\n{SIGNATURE}\n    return [x]\n\n\n"
    "def other() -> int:\n    return 1\n"
)
FILES = {
    "core.py": CORE,
    # unannotated functions made of its calls, and a name it is imported as
    "wrap.py": "from core import to_list\nfrom core import to_list as listed\n\n\n"
    "def wrapped(x):\n    return to_list(x)\n\n\ndef given():\n    return to_list(1, [])\n",
    "uses_wrap.py": "from wrap import wrapped\n\ny: int = wrapped(1)[0]\n",
    "uses_given.py": "from wrap import given\n\ng: int = given()[0]\n",
    "uses_listed.py": "from wrap import listed\n\nz: str = listed(2, [])[0]\n",
    "box.py": "from core import to_list\n\n\nclass Box:\n"
    "    def __init__(self) -> None:\n        self.items = to_list(1)\n",
    "uses_box.py": "from box import Box\n\nitems: list[int] = Box().items\n",
    "other.py": "from core import other\n\nw = other()\n",
    "plain.py": "import core\n\nprint(core.other())\n",
}


@pytest.fixture
def python(tmp_path: Path) -> Iterator[Warm]:
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "0"\n\n'
        '[tool.basedpyright]\ntypeCheckingMode = "standard"\n'
    )
    for name, text in FILES.items():
        (root / name).write_text(text)
    yield from warm_root(root, tmp_path / "logs", watch=True)


def errors(root: Path) -> set[tuple[str | None, int, str | None, str]]:
    """The diagnostics of a fresh workspace's whole check of `root`."""
    checked = answer(root, check_all)
    return {(d.path, d.line, d.code, d.message) for d in checked.everything}


def proof(warm: Warm, change: Mapping[str, str]) -> tuple[list[str], Said]:
    """The files a preview of `change` asks, and what it introduces, asserted to be what
    writing it does (`change` keeps every line where it was)."""
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
    return sorted(warm.ws.display(p) for p in state.asked), introduced


def test_calls_binding_alike_keep_what_is_made_of_them(python: Warm) -> None:
    asked, introduced = proof(python, {"core.py": CORE.replace(SIGNATURE, KEYWORD)})
    # `wrapped` and Box's `items` are made of calls binding alike: their users not asked;
    # `given` passes `default` by position: what it returns changed, its user is asked
    assert asked == ["box.py", "core.py", "uses_given.py", "uses_listed.py", "wrap.py"]
    assert sorted((p, line) for p, line, _, _ in introduced) == [
        ("uses_listed.py", 3),
        ("wrap.py", 10),
    ]


def test_a_return_type_changed_asks_every_importer(python: Warm) -> None:
    returns = CORE.replace(SIGNATURE, SIGNATURE.replace("-> list[Any]", "-> list[int]"))
    asked, _ = proof(python, {"core.py": returns})
    assert len(asked) == len(FILES)


def test_the_function_passed_as_a_value_is_followed(python: Warm) -> None:
    (python.root / "part.py").write_text(
        "from functools import partial\n\nfrom core import to_list\n\nlater = partial(to_list, 1)\n"
    )
    (python.root / "uses_part.py").write_text("from part import later\n\nlater(2)\n")
    asked, introduced = proof(python, {"core.py": CORE.replace(SIGNATURE, KEYWORD)})
    assert "uses_part.py" in asked
    assert ("uses_part.py", 3) in [(p, line) for p, line, _, _ in introduced]


def test_a_module_used_as_a_value_is_told_by_where_its_name_leads(python: Warm) -> None:
    vendor = python.root / "vendor"
    vendor.mkdir()
    (vendor / "__init__.py").write_text("")
    (vendor / "core.py").write_text("def to_list() -> None: ...\n")
    (python.root / "packed.py").write_text("from vendor import core\n\nmodules = (core,)\n")
    asked, _ = proof(python, {"core.py": CORE.replace(SIGNATURE, KEYWORD)})
    assert "packed.py" not in asked and "other.py" not in asked  # another `core`
    (python.root / "shape.py").write_text(
        "from typing import Any, Protocol\n\n\nclass HasToList(Protocol):\n"
        "    def to_list(self, x: Any, default: Any = None) -> list[Any]: ...\n"
    )
    (python.root / "fit.py").write_text(
        "import core\nfrom shape import HasToList\n\nimpl: HasToList = core\n"
    )
    asked, introduced = proof(python, {"core.py": CORE.replace(SIGNATURE, KEYWORD)})
    assert "fit.py" in asked and "other.py" in asked  # every importer
    assert ("fit.py", 4) in [(p, line) for p, line, _, _ in introduced]


def function(text: str) -> ast.stmt:
    return ast.parse(text).body[0]


@pytest.mark.parametrize(
    ("old", "new", "placed"),
    [
        ("def f(x: int) -> int: ...", "def f(x: int, /) -> int: ...", True),
        ("def f(x: int) -> str: ...", "def f(y: int) -> str: ...", True),
        ("def f(x: int) -> int: ...", "def f(x: str) -> int: ...", False),  # a type
        ("def f(x: int) -> int: ...", "def f(x: int) -> str: ...", False),
        ("def f(x) -> int: ...", "def f(x, /) -> int: ...", False),  # unannotated
        ("def f(*a: int) -> int: ...", "def f(*a: int, b: int = 1) -> int: ...", False),
        ("@d\ndef f(x: int) -> int: ...", "@d\ndef f(x: int, /) -> int: ...", False),
        # the second review's: what `f()` returns changes with a default, a parameter
        # solving a TypeVar, the body `declared` keeps (a global set, a yield)
        ("def f(x: T = 1) -> T: ...", "def f(x: T = 's') -> T: ...", False),
        ("def f(x: T) -> list[T]: ...", "def f(x: T, y: T = 's') -> list[T]: ...", False),
        ("def f(x: T, y: T = 's') -> list[T]: ...", "def f(x: T) -> list[T]: ...", False),
        ("def f(x: int) -> int: ...", "def f(x: int, *, y: str = '') -> int: ...", True),
        (
            "def f(x: int) -> int:\n    return x",
            "def f(x: int, y: str = '') -> int:\n    global n\n    n = 1\n    return x",
            False,
        ),
        # the third review's: a default that calls (or is) a function changed with it, a
        # TypeVar under another name, old-style positional-only parameters
        (
            "def g(a: int, z: T = f(1, 2)) -> T: ...",
            "def g(a: int, *, z: T = f(1, 2)) -> T: ...",
            False,
        ),
        (
            "def g(a: int, z: T = f) -> T: ...",
            "def g(a: int, b: bytes = b'', z: T = f) -> T: ...",
            False,
        ),
        ("def f(x: int, y: U = 1) -> T: ...", "def f(x: int, w: U = 's') -> T: ...", False),
        (
            "def f(__x: int, __y: str = '') -> int: ...",
            "def f(__x: int, b: float = 0.0, __y: str = '') -> int: ...",
            False,
        ),
        (
            "async def f(x: int) -> It:\n    yield x",
            "async def f(x: int, y: str = '') -> It:\n    raise ValueError",
            False,
        ),
    ],
)
def test_what_counts_as_parameters_changed(old: str, new: str, placed: bool) -> None:
    was, now = (declared(text) for text in (old, new))  # as `python_names` reads them
    assert was is not None and now is not None
    assert (signature_change(was.body[0], now.body[0]) is not None) == placed


def test_a_module_beside_a_folder_or_a_stub_binding_the_name_leads_elsewhere(
    tmp_path: Path,
) -> None:
    """The second review's d2 and d3: `from pkg.sub import m` takes what `pkg/sub.py` or
    `pkg/sub/__init__.pyi` bind, not `pkg/sub/m.py`."""
    changed = tmp_path / "pkg" / "m.py"
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    changed.write_text("")
    (tmp_path / "pkg" / "sub" / "m.py").write_text("")
    user = tmp_path / "z.py"
    code = "from pkg.sub import m\n\nv = m\n"
    assert other_module(user, code, "m", {changed})  # pkg/sub/m.py, another module
    (tmp_path / "pkg" / "sub" / "__init__.pyi").write_text("from pkg import m as m\n")
    assert not other_module(user, code, "m", {changed})
    (tmp_path / "pkg" / "sub" / "__init__.pyi").unlink()
    (tmp_path / "pkg" / "sub.py").write_text("from pkg import m as m\n")
    assert not other_module(user, code, "m", {changed})


@pytest.mark.parametrize(
    ("call", "alike"),
    [
        ("f(1)", True),
        ("f(1, 2)", False),  # `b` keyword-only after
        ("f(1, b=2)", True),
        ("f(a=1)", True),
        ("f(*args)", False),
        ("f(**kw)", False),
        ("f()", False),  # fails in both
    ],
)
def test_which_calls_bind_alike(call: str, alike: bool) -> None:
    change = signature_change(
        function("def f(a: int, b: int = 0) -> int: ..."),
        function("def f(a: int, *, b: int = 0) -> int: ..."),
    )
    assert change is not None
    node = ast.parse(call).body[0]
    assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
    assert binds_alike(node.value, *change) == alike


@pytest.mark.parametrize(
    ("text", "maybe"),
    [
        ("from pkg import m\n\nm.helper()\n", False),
        ("from pkg import (m\n    as n)\n", True),  # the third review's c1
        ("import m \\\n    as n\n", True),  # c2
        ("import m; use(m)\n", True),
        ("x = m  .helper\n", False),
    ],
)
def test_a_quick_look_for_a_module_used_as_a_value(text: str, maybe: bool) -> None:
    assert maybe_value(text, ["m"]) == maybe


def test_an_attribute_of_the_name_is_not_settled_by_its_plain_binding(tmp_path: Path) -> None:
    """The third review's c9: `from pkg.cy import m` binds another module, but `pkg.m`,
    used as a value, is the changed one."""
    (tmp_path / "pkg" / "cy").mkdir(parents=True)
    for folder in ("pkg", "pkg/cy"):
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "pkg" / "cy" / "m.py").write_text("")
    changed = tmp_path / "pkg" / "m.py"
    changed.write_text("")
    code = "from pkg.cy import m\nimport pkg.m\n\nimpl = pkg.m\n"
    assert not other_module(tmp_path / "b.py", code, "m", {changed})
    assert other_module(tmp_path / "b.py", "from pkg.cy import m\n\nv = m\n", "m", {changed})
