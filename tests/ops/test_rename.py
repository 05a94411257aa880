"""Renames on basedpyright as checked diffs: applied by `git apply` to a copy, judged by
basedpyright's CLI; refusals say why and what to send instead; nothing is ever written."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.errors import InvalidInput
from lspd.ops import file_diagnostics
from lspd.ops.edit_models import FileEdits, RenameResult
from lspd.surface.table import call, operation
from tests.conftest import Warm, warm_workspace
from tests.ops.applied import applied, basedpyright_errors


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The edits fixture on basedpyright: renames never write, so its tests share it."""
    yield from warm_workspace("edits_py", tmp_path_factory)


def rename(warm: Warm, **arguments: object) -> RenameResult:
    result: RenameResult = warm.run(call(operation("rename"), warm.ws, dict(arguments)))
    return result


def texts(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.py"))}


def refused(warm: Warm, **arguments: object) -> str:
    before = texts(warm.root)
    with pytest.raises(InvalidInput) as raised:
        rename(warm, **arguments)
    assert texts(warm.root) == before
    return str(raised.value)


def test_a_method_rename_leaves_a_same_named_method_of_another_class(
    shop: Warm, tmp_path: Path
) -> None:
    before = texts(shop.root)
    result = rename(shop, symbol="Cart.total", new_name="subtotal")
    assert texts(shop.root) == before  # never applied
    assert (result.old_name, result.new_name, result.edits) == ("total", "subtotal", 6)
    assert result.files == [
        FileEdits(path="shop/checkout.py", edits=2),
        FileEdits(path="shop/models.py", edits=1),
        FileEdits(path="shop/report.py", edits=3),
    ]
    assert result.check is not None
    assert (result.check.introduced, result.check.fixed) == ([], [])
    # legacy.py imports shop.models, whose declarations change, but names no `total` (old
    # or new): a rename cannot break it, so it is not asked though the engine would be.
    assert result.check.scope.startswith(
        "3 changed file(s) and 0 other file(s) naming a changed declaration the check would"
    )
    copy = applied(shop.root, result.diff, tmp_path)
    checkout = (copy / "shop/checkout.py").read_text()
    assert "return cart.subtotal() + invoice.total()" in checkout  # Invoice.total untouched
    assert "# the cart's total becomes the invoice's total" in checkout  # nor a comment
    models = (copy / "shop/models.py").read_text()
    assert models.count("def subtotal(self)") == 1 and models.count("def total(self)") == 1
    assert basedpyright_errors(copy) == basedpyright_errors(shop.root)


def test_a_function_imported_elsewhere_is_renamed_in_every_import(
    shop: Warm, tmp_path: Path
) -> None:
    result = rename(shop, path="shop/models.py", line=25, column=5, new_name="new_cart")
    assert result.old_name == "make_cart"
    assert [(f.path, f.edits) for f in result.files] == [
        ("shop/checkout.py", 2),
        ("shop/legacy.py", 2),
        ("shop/models.py", 1),
        ("shop/report.py", 3),
    ]
    # legacy.py's warnings name the function: after the rename they name its new name, the
    # same warnings (neither introduced nor fixed).
    warned = shop.run(file_diagnostics.diagnostics(shop.ws, "shop/legacy.py"))
    assert any('function "make_cart"' in d.message for d in warned.diagnostics)
    assert result.check is not None
    assert (result.check.introduced, result.check.fixed) == ([], [])
    copy = applied(shop.root, result.diff, tmp_path)
    report = (copy / "shop/report.py").read_text()
    assert "from shop.models import new_cart as cart_of" in report
    assert "shop.models.new_cart(3)" in report and "models.new_cart(4)" in report
    assert not any("make_cart" in text for text in texts(copy).values())
    assert basedpyright_errors(copy) == basedpyright_errors(shop.root)


def test_the_check_says_what_the_rename_would_break(shop: Warm, tmp_path: Path) -> None:
    # `add` renamed to `prices`: the attribute of that name now hides the method.
    result = rename(shop, symbol="Cart.add", new_name="prices")
    assert result.check is not None
    introduced = [(d.path, d.line, d.severity, d.code) for d in result.check.introduced]
    assert ("shop/models.py", 28, "error", "reportCallIssue") in introduced
    # The check is `preview`'s engine (the disk's check against the texts overlaid, the
    # files the check would re-check asked), also without a watcher: the disk's check cold.
    assert "the check would re-check" in result.check.scope
    copy = applied(shop.root, result.diff, tmp_path)
    new = set(basedpyright_errors(copy)) - set(basedpyright_errors(shop.root))
    assert new == {(p, line, code) for p, line, s, code in introduced if s == "error"}


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"path": "shop/models.py", "line": 14, "column": 17}, "shop/models.py:14:17 cannot be"),
        ({"path": "shop/checkout.py", "line": 5, "column": 20}, "finds nothing to rename"),
        ({"path": "shop/models.py", "line": 3, "column": 8}, "a library's symbol"),
        ({"path": "shop/models.py", "line": 7, "column": 6}, "not on a name"),
        ({"symbol": "Cart.total", "path": "shop/models.py", "line": 13}, "not both"),
    ],
    ids=["builtin sum", "a comment", "an import of __future__", "punctuation", "two places"],
)
def test_a_place_that_cannot_be_renamed_is_refused_with_the_reason(
    shop: Warm, where: dict[str, object], expected: str
) -> None:
    assert expected in refused(shop, **where, new_name="renamed")


@pytest.mark.parametrize(
    ("new_name", "expected"),
    [
        ("sub-total", "`new_name` 'sub-total' is not a python identifier"),
        ("cart.total", "without dots"),
        ("2total", "not starting with a digit"),
        ("class", "reserved word of python"),
        ("total", "already called"),
        ("", "`new_name` must be the new name"),
    ],
)
def test_a_new_name_that_is_not_an_identifier_is_refused(
    shop: Warm, new_name: str, expected: str
) -> None:
    assert expected in refused(shop, symbol="Cart.total", new_name=new_name)


def test_a_file_changed_on_disk_while_asked_gives_no_diff(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for warm in warm_workspace("edits_py", tmp_path_factory):
        rename(warm, symbol="Cart.total", new_name="subtotal")  # the server holds checkout.py
        checkout = warm.root / "shop/checkout.py"
        stamp = checkout.stat()
        # The same size, the same mtime: nothing tells it changed but its text (as after
        # `cp -p` or an editor that keeps times), so the server still holds the old text.
        text = checkout.read_text()
        checkout.write_text(text.replace("cart.total() + invoice", "cart.total()  +invoice"))
        os.utime(checkout, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        message = refused(warm, symbol="Cart.total", new_name="subtotal")
        assert message == "shop/checkout.py changed on disk while the server was asked; ask again"
