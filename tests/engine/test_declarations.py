"""A Python module's declarations: what the files importing it can see of it."""

from __future__ import annotations

from lspd.engine.declarations import signature

MODULE = '''"""A module."""
import os


class Box:
    """A box."""

    def __init__(self, size: int) -> None:
        self.size = size

    def grow(self, by: int) -> int:
        return self.size + by


def guess(x):
    return x + 1
'''


def same(before: str, after: str) -> bool:
    return signature(before) == signature(after)


def test_bodies_of_annotated_functions_comments_and_docstrings_are_not_declarations() -> None:
    assert same(MODULE, MODULE.replace("self.size + by", "by + self.size"))
    assert same(MODULE, MODULE.replace('"""A box."""', '"""A bigger box."""'))
    assert same(MODULE, MODULE.replace("import os", "import os  # the os\n\n"))


def test_what_an_importer_sees_is() -> None:
    assert not same(MODULE, MODULE.replace("by: int) -> int", "by: str) -> int"))
    assert not same(MODULE, MODULE.replace("self.size = size", "self.size = str(size)"))
    assert not same(MODULE, MODULE.replace("return x + 1", "return str(x)"))  # inferred
    assert not same(MODULE, MODULE.replace("import os", "import sys"))


def test_a_module_that_does_not_parse_has_none() -> None:
    assert signature("def broken(:\n") is None


def test_a_declared_module_variable_is_its_type_unless_final() -> None:
    assert same("x: int = 1\n", "x: int = 2\n")
    assert not same("x: Final = 1\n", "x: Final = 2\n")
    assert not same("x = 1\n", "x = '1'\n")


def test_what_a_second_review_found_importers_see() -> None:
    """Each changes a diagnostic of an importer on basedpyright (the reviewer's runs)."""
    local = "class C:\n    def __init__(self) -> None:\n        value = 1\n        self.x = value\n"
    assert not same(local, local.replace("value = 1", "value = 'one'"))
    opened = "class C:\n    def open(self) -> None:\n        with open('a') as self.f:\n"
    opened += "            pass\n"
    assert not same(opened, opened.replace("open('a')", "open('a', 'rb')"))
    exported = "__all__: list[str] = ['helper']\n\n\ndef helper() -> int:\n    return 1\n"
    assert not same(exported, exported.replace("['helper']", "[]"))
    assert not same('X: "Final" = 1\n', 'X: "Final" = 2\n')
    aliased = "from typing import Final as Const\n\nX: Const = 1\n"
    assert not same(aliased, aliased.replace("= 1", "= 2"))
    assert not same("x: object = (y := 1)\n", "x: object = (y := 'one')\n")
    lazy = "def other() -> None:\n    pass\n"
    assert not same(lazy, "def other() -> None:\n    import f\n\n    print(f)\n")
    assert same(lazy, "def other() -> None:\n    print('other')\n")  # a body, still


def test_what_a_third_review_found_importers_see() -> None:
    """A stub's body tells pyright a protocol's or abstract method is not implemented, and
    `yield` makes an `async def` an iterator: each changes an importer's diagnostics."""
    protocol = (
        "from typing import Protocol\n\n\nclass P(Protocol):\n    def meth(self) -> int: ...\n"
    )
    filled = protocol.replace("int: ...", "int:\n        return 1")
    assert not same(protocol, filled)
    assert not same(filled, filled.replace("return 1", "raise NotImplementedError"))
    assert not same(filled, filled.replace("return 1", '"""Meth."""'))
    assert same(filled, filled.replace("return 1", "return 2"))  # implemented, still
    assert same(filled, filled.replace("return 1", "pass"))  # `pass` is no stub to pyright
    generator = "async def f() -> AsyncIterator[int]:\n    yield 1\n"
    assert not same(generator, generator.replace("yield 1", "raise NotImplementedError"))
    assert same(generator, generator.replace("yield 1", "yield 2"))
    nested = "async def f() -> Awaitable[int]:\n    def g():\n        yield 1\n    return 1\n"
    assert same(nested, nested.replace("return 1", "return 2"))  # the yield is g's
