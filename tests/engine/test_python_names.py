"""Which importers a Python module's added names reach: the files naming them, followed
through the declarations made of them; any other change is not told by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.engine.python_cycles import cycles_reached
from lspd.engine.python_imports import touched
from lspd.engine.python_names import Read, changed_names, code_of, reached


def no_cycle() -> dict[Path, frozenset[int]]:
    return {}


CORE = '''"""Core helpers."""
from typing import Any


def helper(x: int) -> int:
    return x + 1


class Box:
    size: int = 0

    def grow(self, by: int) -> int:
        return self.size + by
'''
EXTRA = CORE + "\n\ndef extra(x: int) -> str:\n    return str(x)\n"  # a function added


def test_names_added_are_told() -> None:
    assert changed_names(CORE, CORE + "\nadded: int = 0\n") == {"added"}
    assert changed_names(CORE, EXTRA) == {"extra"}
    assert changed_names(CORE, CORE.replace("\n\nclass Box", "\nlimit = 3\n\n\nclass Box")) == {
        "limit"
    }
    assert changed_names(CORE, CORE.replace("x + 1", "1 + x")) == set()  # a body
    assert changed_names(CORE, CORE.replace('"""Core helpers."""', '"""Helpers."""')) == set()


def test_any_other_change_is_not_told_by_name() -> None:
    assert changed_names(CORE, CORE.replace("x: int) -> int", "x: int) -> str")) is None
    assert changed_names(CORE, CORE.replace("class Box:", "class Box(Any):")) is None
    assert changed_names(CORE, CORE.replace("by: int) -> int", "by: str) -> int")) is None
    assert changed_names(CORE, CORE + "\nhelper = 1\n") is None  # a name rebound
    assert changed_names(CORE, CORE + "\n__all__ = ['helper']\n") is None
    assert changed_names(CORE, CORE + "\ndef __getattr__(name: str) -> int: ...\n") is None
    assert changed_names(CORE, CORE + "\nfrom os import *\n") is None
    assert changed_names(CORE, CORE + "\nimport os\n") is None  # it may close a cycle
    assert changed_names(CORE, CORE + "\ndef late() -> None:\n    import os\n") is None
    assert changed_names(CORE, CORE + "\nprint('loaded')\n") is None  # binds no name
    moved = CORE.replace("from typing import Any\n", "") + "\nfrom typing import Any\n"
    assert changed_names(CORE, moved) is None
    assert changed_names(CORE, "def broken(:\n") is None
    assert changed_names(CORE, None) is None  # deleted


def test_what_code_names_is_its_code_not_its_comments_or_docstrings() -> None:
    text = (
        "import os.path as p\n"
        "# helper is mentioned here only\n"
        "def f(box: 'Box | None') -> None:\n"
        '    """Calls the helper, maybe."""\n'
        "    getattr(p, 'grow')\n"
        "    raise ValueError('no help here')\n"
    )
    code = code_of(text)
    assert code is not None
    assert code.words == {
        *("os", "path", "p", "f", "Box", "None", "getattr", "grow", "ValueError"),
        *("no", "help", "here"),  # a string that is not a docstring may be code
    }
    assert code.values == {"getattr", "p", "ValueError"}  # `p` is passed, not only read from
    assert code.aliases == {("path", "p")}


def project(tmp_path: Path, files: dict[str, str]) -> dict[Path, str]:
    return {tmp_path / name: text for name, text in files.items()}


FILES = {  # each naming `extra` before core has it
    "core.py": CORE,
    "direct.py": "from core import extra\n\nthree: int = extra(2)\n",
    "through.py": "import core\n\n\ndef again(x):\n    return core.extra(x)\n",  # inferred
    "far.py": "from through import again\n\nvalue = again(1)\n",
    "annotated.py": "from core import extra\n\n\ndef typed(x: int) -> int:\n    return extra(x)\n",
    "user.py": "from annotated import typed\n\nn: int = typed(1)\n",  # typed's type stays
    "aside.py": "import core\n\n# extra, in a comment\nbox = core.Box()\n",
    "member.py": "from core import extra\n\n\nclass Uses:\n    def get(self):\n"
    "        return extra(1)\n",
    "sub.py": "from core import extra\n\n\nclass Sub(extra):\n    pass\n",
    "maker.py": "from sub import Sub\n\nmade = Sub()\n",
}


def reach(tmp_path: Path, files: dict[str, str], new: str) -> list[str] | None:
    texts = project(tmp_path, files)
    core = tmp_path / "core.py"
    others = [p for p in texts if p != core]
    found = reached({core: (CORE, new)}, others, texts.get, Read(), no_cycle)
    return None if found is None else sorted(p.name for p in found)


def without(*names: str) -> dict[str, str]:
    return {k: v for k, v in FILES.items() if k not in names}


def test_the_files_naming_an_added_name_transitively_through_inferred_declarations(
    tmp_path: Path,
) -> None:
    files = without("member.py", "sub.py", "maker.py")
    assert reach(tmp_path, files, EXTRA) == ["annotated.py", "direct.py", "far.py", "through.py"]
    assert reach(tmp_path, files, CORE + "\nadded: int = 0\n") == []


def test_a_class_made_of_an_added_name_is_followed_by_its_name(tmp_path: Path) -> None:
    assert reach(tmp_path, without("member.py"), EXTRA) == [
        *("annotated.py", "direct.py", "far.py", "maker.py", "sub.py", "through.py")
    ]


def test_a_class_member_made_of_an_added_name_is_not_told_by_name(tmp_path: Path) -> None:
    assert reach(tmp_path, FILES, EXTRA) is None


def test_read_files_are_kept_and_a_file_changed_since_is_read_again(tmp_path: Path) -> None:
    texts = project(tmp_path, FILES)
    core, direct = tmp_path / "core.py", tmp_path / "direct.py"
    read = Read()
    files = [p for p in texts if p.name in {"direct.py", "annotated.py", "user.py"}]
    assert reached({core: (CORE, EXTRA)}, files, texts.get, read, no_cycle) == {
        direct,
        tmp_path / "annotated.py",
    }
    assert direct in read.code and direct in read.made and core not in read.code
    assert direct not in read.without([direct]).code
    kept = Read()  # a preview's reading of a proposed text is not kept for the disk's
    kept.keep(read, [direct])
    assert direct not in kept.code and tmp_path / "annotated.py" in kept.code


def test_a_module_is_looked_for_as_a_value_only_where_its_name_may_be_one(
    tmp_path: Path,
) -> None:
    """Its name as an attribute's base or a `from ... import` module is not read for."""
    files = {
        "pkg/__init__.py": "",
        "pkg/json.py": "X = 1\n",
        "attribute.py": "import pkg\n\nvalue = pkg.json.X + pkg.json .X\n",
        "module.py": "from pkg.json import X\n\nvalue = X\n",
        "words.py": "xjson = json_x = 1\n",
    }
    texts = project(tmp_path, files)
    json, others = tmp_path / "pkg/json.py", [p for p in texts if p.name != "json.py"]
    read = Read()
    assert (
        reached({json: (texts[json], "X = 1\nY = 2\n")}, others, texts.get, read, no_cycle) == set()
    )
    assert not {tmp_path / n for n in ("attribute.py", "module.py", "words.py")} & set(read.code)
    texts[tmp_path / "passed.py"] = "import pkg\n\nprint(pkg.json)\n"
    others.append(tmp_path / "passed.py")
    assert (
        reached({json: (texts[json], "X = 1\nY = 2\n")}, others, texts.get, Read(), no_cycle)
        is None
    )


# Edits whose effect on a file F basedpyright shows (each run by the reviewer of 7718de8 on
# basedpyright 1.40.2, F's diagnostics before and after): F is asked, or every importer is.
# (files, the edited file, its new text, F)
Case = tuple[dict[str, str], str, str, str]
NAMED = "def helper(x: str) -> int:\n    return 1\n"
PAD = " | None" * 30
MISSED_ONCE: dict[str, Case] = {
    "module __getattr__ made of a changed name": (
        {
            "m.py": NAMED,
            "f1.py": "from m import helper\n\n\ndef __getattr__(name: str):\n"
            "    return helper(name)\n",
            "f2.py": "import f1\n\nv: int = f1.whatever\n",
        },
        "m.py",
        "def helper(x: str) -> str:\n    return x\n",
        "f2.py",
    ),
    "a module fitted to a protocol": (
        {
            "m.py": "def helper(x: int) -> int:\n    return x\n",
            "proto.py": "from typing import Protocol\n\n\nclass HasHelper(Protocol):\n"
            "    def helper(self, x: int) -> int: ...\n",
            "f.py": "import m\nfrom proto import HasHelper\n\nimpl: HasHelper = m\n",
        },
        "m.py",
        "def helper(x: int) -> str:\n    return str(x)\n",
        "f.py",
    ),
    "statements reordered": (
        {
            "m.py": "def helper() -> int:\n    return 1\n\n\nvalue = helper()\n",
            "f.py": "from m import value\n\nx: str = value\n",
        },
        "m.py",
        "value = helper()\n\n\ndef helper() -> int:\n    return 1\n",
        "f.py",
    ),
    "a star import reordered": (
        {
            "a.py": "value = ''\n",
            "m.py": "value = 1\nfrom a import *\n",
            "f.py": "from m import value\n\nx: int = value\n",
        },
        "m.py",
        "from a import *\nvalue = 1\n",
        "f.py",
    ),
    "a type alias in a string": (
        {
            "m.py": "Box = int\n",
            "f1.py": "from typing import List, TypeAlias\nfrom m import Box\n\n"
            'Alias: TypeAlias = "List[Box]"\n',
            "f2.py": "from f1 import Alias\n\n\ndef g(a: Alias) -> int:\n    return a[0]\n",
        },
        "m.py",
        "Box = str\n",
        "f2.py",
    ),
    "a named tuple's field in a string": (
        {
            "m.py": "Box = int\n",
            "f1.py": "from typing import NamedTuple\nfrom m import Box\n\n"
            'Pair = NamedTuple("Pair", [("left", "Box"), ("right", int)])\n',
            "f2.py": "from f1 import Pair\n\nn: int = Pair(1, 2).left\n",
        },
        "m.py",
        "Box = str\n",
        "f2.py",
    ),
    "a type variable's constraint in a string": (
        {
            "m.py": "Box = int\n",
            "f1.py": "from typing import TypeVar\nfrom m import Box\n\n"
            'T = TypeVar("T", "Box", bytes)'
            "\n\n\ndef first(v: T) -> T:\n    return v\n",
            "f2.py": "from f1 import first\n\nn = first(1)\n",
        },
        "m.py",
        "Box = str\n",
        "f2.py",
    ),
    "a type comment": (
        {"m.py": "Box = int\n", "f.py": "import m\n\nitems = []  # type: list[m.Box]\n"},
        "m.py",
        "Box = str\n",
        "f.py",
    ),
    "a package's submodule bound by a relative import": (
        {
            "pkg/__init__.py": "",
            "pkg/sub.py": "y: int = 1\nx: int = 2\n",
            "f.py": "import pkg\n\nv: int = pkg.sub.y\n",
        },
        "pkg/__init__.py",
        "from .sub import x\n",
        "f.py",
    ),
    "a global assigned in a function": (
        {
            "m.py": "value = 1\n\n\ndef reset():\n    global value\n    value = 2\n",
            "f.py": "from m import value\n\nx: int = value\n",
        },
        "m.py",
        "value = 1\n\n\ndef reset():\n    global value\n    value = ''\n",
        "f.py",
    ),
    "a name bound by a match pattern": (
        {
            "m.py": "import sys\n\nmatch sys.platform:\n    case str() as value:\n"
            "        seen = True\n",
            "f.py": "from m import value\n\nx: int = value\n",
        },
        "m.py",
        "import sys\n\nmatch len(sys.platform):\n    case int() as value:\n        seen = True\n",
        "f.py",
    ),
    "an import cycle closed": (
        {
            "m.py": "def helper() -> int:\n    return 1\n",
            "f.py": "from m import helper\n\nx: int = helper()\n",
        },
        "m.py",
        "import f\n\n\ndef helper() -> int:\n    return 1\n",
        "f.py",
    ),
    "a string annotation of over 200 characters": (
        {
            "m.py": "Box = int\n",
            "f.py": f'import m\n\n\ndef g(a: "m.Box{PAD}") -> int:\n    return a or 0\n',
        },
        "m.py",
        "Box = str\n",
        "f.py",
    ),
    "a name Python reads as another (NFKC)": (
        {
            "m.py": "def helper() -> int:\n    return 1\n",
            "f.py": "import m\n\nx: int = m.\uff48elper()\n",
        },
        "m.py",
        "def helper() -> str:\n    return ''\n",
        "f.py",
    ),
}


PROTO = (
    "from typing import Protocol\n\n\nclass HasHelper(Protocol):\n"
    "    def helper(self, x: int) -> int: ...\n"
)
HELPER = "X = 1\n\n\ndef helper(x: int) -> int:\n    return x\n"  # `m.py` gains `helper`
MISSED_TWICE: dict[str, Case] = {  # a second review's, as additions
    "a module fitted to a protocol under another name": (
        {
            "m.py": "X = 1\n",
            "proto.py": PROTO,
            "f.py": "import m as util\nfrom proto import HasHelper\n\nimpl: HasHelper = util\n",
        },
        "m.py",
        HELPER,
        "f.py",
    ),
    "a module's other name imported from another file": (
        {
            "m.py": "X = 1\n",
            "proto.py": PROTO,
            "f1.py": "import m as util\n",
            "f2.py": "from f1 import util\nfrom proto import HasHelper\n\nimpl: HasHelper = util\n",
        },
        "m.py",
        HELPER,
        "f2.py",
    ),
    "a module whose names grew, used as a value": (
        {
            "m.py": "X = 1\n",
            "f1.py": "from m import helper\n\n\ndef g(x: int):\n    return helper(x)\n",
            "proto.py": "from typing import Protocol\n\n\nclass HasG(Protocol):\n"
            "    def g(self, x: int) -> int: ...\n",
            "f2.py": "import f1\nfrom proto import HasG\n\nimpl: HasG = f1\n",
        },
        "m.py",
        HELPER,
        "f2.py",
    ),
    "a module used as a value after a semicolon": (
        {
            "m.py": "X = 1\n",
            "proto.py": PROTO,
            "f.py": "from proto import HasHelper\nimport m; impl: HasHelper = m\n",
        },
        "m.py",
        HELPER,
        "f.py",
    ),
    "a module passed on a line holding a #": (
        {
            "m.py": "X = 1\n",
            "proto.py": PROTO,
            "f.py": "import m\nfrom proto import HasHelper\n\n\n"
            "def use(label: str, impl: HasHelper) -> None: ...\n\n\nuse('#1', m)\n",
        },
        "m.py",
        HELPER,
        "f.py",
    ),
    "an import added in a try block": (
        {
            "m.py": "def helper() -> int:\n    return 1\n",
            "f.py": "from m import helper\n\nx: int = helper()\n",
        },
        "m.py",
        "try:\n    import f\nexcept ImportError:\n    pass\n\n\ndef helper() -> int:\n"
        "    return 1\n",
        "f.py",
    ),
}


MISSED_THRICE: dict[str, Case] = {  # a third review's
    "a module gaining a name through a star import, used as a value": (
        {
            "proto.py": PROTO,
            "m.py": "X = 1\n",
            "m2.py": "from m import *\n",
            "f.py": "import m2\nfrom proto import HasHelper\n\nimpl: HasHelper = m2\n",
        },
        "m.py",
        HELPER,
        "f.py",
    ),
    "a package gaining a name through a star import, used as a value": (
        {
            "proto.py": PROTO,
            "pkg/__init__.py": "from .sub import *\n",
            "pkg/sub.py": "X = 1\n",
            "f.py": "import pkg\nfrom proto import HasHelper\n\nimpl: HasHelper = pkg\n",
        },
        "pkg/sub.py",
        HELPER,
        "f.py",
    ),
    "a module re-importing an added name, used as a value": (
        {
            "proto.py": "from typing import Protocol\n\n\nclass HasHelper(Protocol):\n"
            "    helper: str\n",
            "m.py": "X = 1\n",
            "m2.py": "from m import helper\n",
            "f.py": "import m2\nfrom proto import HasHelper\n\nimpl: HasHelper = m2\n",
        },
        "m.py",
        "X = 1\nhelper = 1\n",
        "f.py",
    ),
}


MISSED = {**MISSED_ONCE, **MISSED_TWICE, **MISSED_THRICE}


@pytest.mark.parametrize("case", list(MISSED.values()), ids=list(MISSED))
def test_an_edit_reaching_a_file_is_never_told_otherwise(tmp_path: Path, case: Case) -> None:
    files, edited, new, affected = case
    texts = project(tmp_path, files)
    path = tmp_path / edited
    others = [p for p in texts if p != path]
    found = reached({path: (texts[path], new)}, others, texts.get, Read(), no_cycle)
    assert found is None or tmp_path / affected in found


CYCLE = {  # a.py and b.py derive their classes from each other; b.py names `MORE`
    "a.py": "import c\nfrom b import B\n\n\nclass A(B): ...\n",
    "b.py": "import c\nfrom a import A\n\n\nclass B(A): ...\n\n\ndef f() -> int:\n"
    "    MORE = 1\n    return MORE\n",
    "c.py": "SIZE = 1\n",
}


def test_a_file_named_in_an_import_cycle_with_one_not_named_asks_every_importer(
    tmp_path: Path,
) -> None:
    """basedpyright says the cycle's class error in the class it reaches second: b.py
    asked without a.py loses it (tests/engine/test_python_names_order.py)."""
    for files, expected in ((CYCLE, None), ({**CYCLE, "a.py": "import c\n"}, {"b.py"})):
        texts = project(tmp_path, files)
        for path, text in texts.items():
            path.write_text(text)
        names = {p: touched(tmp_path, p, t) for p, t in texts.items()}
        c = tmp_path / "c.py"
        found = reached(
            {c: (texts[c], "SIZE = 1\nMORE = 2\n")},
            [tmp_path / "a.py", tmp_path / "b.py"],
            texts.get,
            Read(),
            lambda: cycles_reached(tmp_path, names),  # noqa: B023 (called at once)
        )
        assert found == (None if expected is None else {tmp_path / n for n in expected})
