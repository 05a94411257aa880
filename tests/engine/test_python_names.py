"""Which importers a change of a Python module's names reaches: the files naming them,
followed through the declarations made of them; a class's member is not followed."""

from __future__ import annotations

from pathlib import Path

from lspd.engine.python_names import Read, changed_names, identifiers, reached

CORE = '''"""Core helpers."""
from typing import Any


def helper(x: int) -> int:
    return x + 1


class Box:
    size: int = 0

    def grow(self, by: int) -> int:
        return self.size + by
'''


def test_a_change_of_module_names_is_those_names() -> None:
    assert changed_names(CORE, CORE + "\nadded: int = 0\n") == {"added"}
    assert changed_names(CORE, CORE.replace("x: int) -> int", "x: int) -> str")) == {"helper"}
    assert changed_names(CORE, CORE.replace("x + 1", "1 + x")) == set()  # a body
    assert changed_names(CORE, CORE.replace('"""Core helpers."""', '"""Helpers."""')) == set()
    assert changed_names(CORE, CORE.replace("class Box:", "class Box(Any):")) == {"Box"}
    imports = CORE.replace("from typing import Any", "from typing import Any, List")
    assert changed_names(CORE, imports) == {"List"}


def test_what_cannot_be_told_by_name_is_none() -> None:
    assert changed_names(CORE, CORE.replace("by: int) -> int", "by: str) -> int")) is None
    assert changed_names(CORE, CORE.replace("size: int = 0", "size: str = ''")) is None
    assert changed_names(CORE, CORE + "\n__all__ = ['helper']\n") is None
    assert changed_names(CORE, CORE + "\nfrom os import *\n") is None
    assert changed_names(CORE, CORE + "\nprint('loaded')\n") is None  # binds no name
    assert changed_names(CORE, "def broken(:\n") is None
    assert changed_names(CORE, None) is None  # deleted


def test_identifiers_are_the_code_s_not_its_comments_or_prose() -> None:
    text = (
        "import os.path as p\n"
        "# helper is mentioned here only\n"
        "def f(box: 'Box | None') -> None:\n"
        '    """Calls the helper, maybe."""\n'
        "    getattr(p, 'grow')\n"
        "    raise ValueError('no helper here')\n"
    )
    assert identifiers(text) == frozenset(
        {"os", "path", "p", "f", "Box", "None", "getattr", "grow", "ValueError"}
    )


def project(tmp_path: Path, files: dict[str, str]) -> dict[Path, str]:
    return {tmp_path / name: text for name, text in files.items()}


FILES = {
    "core.py": CORE,
    "direct.py": "from core import helper\n\nthree: int = helper(2)\n",
    "through.py": "import core\n\n\ndef again(x):\n    return core.helper(x)\n",  # inferred
    "far.py": "from through import again\n\nvalue = again(1)\n",
    "annotated.py": "from core import helper\n\n\ndef typed(x: int) -> int:\n"
    "    return helper(x)\n",
    "user.py": "from annotated import typed\n\nn: int = typed(1)\n",  # typed's type stays
    "aside.py": "import core\n\n# helper, in a comment\nbox = core.Box()\n",
    "member.py": "from core import helper\n\n\nclass Uses:\n    def get(self):\n"
    "        return helper(1)\n",
}


def reach(tmp_path: Path, files: dict[str, str], old: str, new: str) -> list[str] | None:
    texts = project(tmp_path, files)
    core = tmp_path / "core.py"
    others = [p for p in texts if p != core]
    found = reached({core: (old, new)}, others, texts.get, Read())
    return None if found is None else sorted(p.name for p in found)


def test_the_files_naming_a_changed_name_transitively_through_inferred_declarations(
    tmp_path: Path,
) -> None:
    files = {k: v for k, v in FILES.items() if k != "member.py"}
    changed = CORE.replace("x: int) -> int", "x: int) -> str")
    reached_files = ["annotated.py", "direct.py", "far.py", "through.py"]
    assert reach(tmp_path, files, CORE, changed) == reached_files
    assert reach(tmp_path, files, CORE, CORE + "\nadded: int = 0\n") == []


def test_a_class_member_made_of_a_changed_name_is_not_told_by_name(tmp_path: Path) -> None:
    changed = CORE.replace("x: int) -> int", "x: int) -> str")
    assert reach(tmp_path, FILES, CORE, changed) is None


def test_a_subclass_is_changed_with_its_base(tmp_path: Path) -> None:
    files = {
        "sub.py": "from core import Box\n\n\nclass Sub(Box):\n    pass\n",
        "maker.py": "from sub import Sub\n\nmade = Sub()\n",
        "other.py": "x: int = 1\n",
    }
    changed = CORE.replace("class Box:", "class Box(Any):")
    assert reach(tmp_path, files, CORE, changed) == ["maker.py", "sub.py"]


def test_read_files_are_kept_and_a_file_changed_since_is_read_again(tmp_path: Path) -> None:
    texts = project(tmp_path, FILES)
    core, direct = tmp_path / "core.py", tmp_path / "direct.py"
    read = Read()
    changed = CORE.replace("x: int) -> int", "x: int) -> str")
    files = [p for p in texts if p.name in {"direct.py", "annotated.py", "user.py"}]
    assert reached({core: (CORE, changed)}, files, texts.get, read) == {
        direct,
        tmp_path / "annotated.py",
    }
    assert direct in read.words and direct in read.made and core not in read.words
    assert direct not in read.without([direct]).words
