"""`rename` and `fixes` on every language's real server: each diff applied with `git apply` to a
copy and judged by the language's own checker (tsc 5 or 7, go vet, basedpyright's CLI).

A rename must leave a same-named method of another class alone and reach every import of a
module-level function; a fix must remove the error it answers. Nothing is ever written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lspd.errors import InvalidInput
from lspd.ops.edit_models import FixesResult, RenameResult
from lspd.ops.navigation_models import WorkspaceSymbolsResult
from lspd.surface.table import call, operation
from tests.conftest import Warm
from tests.languages.conftest import watched
from tests.ops.applied import applied, basedpyright_errors, go_errors, tsc_errors


def rename(warm: Warm, **arguments: Any) -> RenameResult:
    result: RenameResult = warm.run(call(operation("rename"), warm.ws, arguments))
    return result


def fixes(warm: Warm, **arguments: Any) -> FixesResult:
    result: FixesResult = warm.run(call(operation("fixes"), warm.ws, arguments))
    return result


def edited(result: RenameResult | FixesResult) -> dict[str, int]:
    files = result.files if isinstance(result, RenameResult) else result.fixes[0].files
    return {f.path: f.edits for f in files}


# -- TypeScript: tsserver (typescript-language-server) and TypeScript 7 (`tsc --lsp`) ---------


@pytest.fixture(scope="module", params=["typescript-language-server", "typescript-native"])
def ts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The TypeScript edits fixture on tsserver, then on TypeScript 7."""
    yield from watched("edits_ts", tmp_path_factory, "typescript", request.param)


def native(warm: Warm) -> bool:
    return "typescript-native" in (warm.root / "lspd.toml").read_text()


def test_typescript_method_rename_leaves_the_other_class(ts: Warm, tmp_path: Path) -> None:
    result = rename(ts, path="src/models.ts", line=9, column=3, new_name="subtotal")
    assert (result.old_name, result.edits) == ("total", 5)
    assert edited(result) == {"src/checkout.ts": 2, "src/models.ts": 1, "src/report.ts": 2}
    assert result.check is not None and result.check.introduced == []
    copy = applied(ts.root, result.diff, tmp_path)
    assert "return cart.subtotal() + invoice.total();" in (copy / "src/checkout.ts").read_text()
    assert "first.subtotal() + second.subtotal()" in (copy / "src/report.ts").read_text()
    models = (copy / "src/models.ts").read_text()
    assert "  subtotal(): number {" in models and "  total(): number {" in models
    assert tsc_errors(copy, native(ts)) == tsc_errors(ts.root, native(ts))


def test_typescript_function_rename_reaches_every_import(ts: Warm, tmp_path: Path) -> None:
    result = rename(ts, symbol="src.models.makeCart", new_name="newCart")
    assert edited(result) == {"src/checkout.ts": 2, "src/models.ts": 1, "src/report.ts": 2}
    copy = applied(ts.root, result.diff, tmp_path)
    report = (copy / "src/report.ts").read_text()
    assert 'import { newCart as cartOf } from "./models";' in report
    assert "models.newCart(3)" in report
    checkout = (copy / "src/checkout.ts").read_text()
    assert 'import { Cart, Invoice, newCart } from "./models";' in checkout
    assert tsc_errors(copy, native(ts)) == tsc_errors(ts.root, native(ts))


def test_typescript_refuses_a_library_symbol_with_its_reason(ts: Warm) -> None:
    with pytest.raises(InvalidInput) as raised:
        rename(ts, path="src/models.ts", line=10, column=25, new_name="fold")
    server = "typescript-native" if native(ts) else "typescript-language-server"
    assert str(raised.value) == (
        f"src/models.ts:10:25 cannot be renamed: {server} says 'You cannot rename elements "
        "that are defined in the standard TypeScript library.'"
    )


def test_typescript_add_import_fix_removes_the_error(ts: Warm, tmp_path: Path) -> None:
    result = fixes(ts, path="src/needsImport.ts", line=2)
    first = result.fixes[0]
    assert first.title == 'Add import from "./models"'
    assert first.diagnostic is not None and first.diagnostic.code == "2304"
    assert first.check is not None and first.check.introduced == []
    assert [d.code for d in first.check.fixed] == ["2304"]
    assert first.diff.splitlines()[4] == '+import { makeCart } from "./models";'
    copy = applied(ts.root, first.diff, tmp_path)
    before = tsc_errors(ts.root, native(ts))
    assert any("needsImport.ts" in line and "TS2304" in line for line in before)
    assert tsc_errors(copy, native(ts)) == [e for e in before if "needsImport.ts" not in e]


def test_typescript_source_actions_remove_the_unused_import(ts: Warm, tmp_path: Path) -> None:
    result = fixes(ts, path="src/unused.ts", source=True)
    [fix] = [f for f in result.fixes if f.title == "Remove Unused Imports"]
    assert fix.diagnostic is None and fix.kind is not None
    assert fix.kind.startswith("source.removeUnusedImports")
    assert '-import { Invoice } from "./models";' in fix.diff.splitlines()
    assert fix.check is not None and [d.line for d in fix.check.fixed] == [1]
    copy = applied(ts.root, fix.diff, tmp_path)
    assert "Invoice" not in (copy / "src/unused.ts").read_text()


def test_typescript_lazy_fix_is_resolved(ts: Warm, tmp_path: Path) -> None:
    result = fixes(ts, path="src/unused.ts", line=4)
    if native(ts):  # TypeScript 7.0.2 offers no quick fix for an unused declaration
        assert (result.diagnostics, result.total) == (1, 0)
        return
    # tsserver's fix-all action comes without its edit: codeAction/resolve gives it.
    session, document = ts.run(ts.ws.open("src/unused.ts"))
    raw = [d for d in ts.run(session.diagnostics(document, 30)) if d["range"]["start"]["line"] == 3]
    context = {"diagnostics": raw, "only": ["quickfix"]}
    params = {"textDocument": {"uri": document.uri}, "range": raw[0]["range"], "context": context}
    offered = ts.run(session.request("textDocument/codeAction", params))
    lazy = [a["title"] for a in offered if "edit" not in a]
    assert lazy == ["Delete all unused declarations"]
    [fix] = [f for f in result.fixes if f.title == "Delete all unused declarations"]
    assert "-  const forgotten = 1;" in fix.diff.splitlines()
    copy = applied(ts.root, fix.diff, tmp_path)
    assert "forgotten" not in (copy / "src/unused.ts").read_text()


def test_an_edit_outside_the_workspace_is_refused_whole(tmp_path: Path) -> None:
    # The project's tsconfig takes in a directory beside the root: tsserver renames there too.
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared/use.ts").write_text(
        'import { makeCart } from "../app/src/models";\n\nexport const shared = makeCart(1);\n'
    )
    app = tmp_path / "app"
    (app / "src").mkdir(parents=True)
    (app / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true}, "include": ["src", "../shared"]}\n'
    )
    (app / "src/models.ts").write_text(
        "export function makeCart(n: number): number {\n  return n;\n}\n"
    )
    for warm in warm_root_of(app, tmp_path / "logs"):
        with pytest.raises(InvalidInput) as raised:
            rename(warm, path="src/models.ts", line=1, column=17, new_name="newCart")
        assert str(raised.value).startswith(
            f"the server's edit also changes {tmp_path.resolve()}/shared/use.ts, outside the "
            f"workspace {app.resolve()}: lspd refuses the whole edit"
        )


def warm_root_of(root: Path, logs: Path) -> Iterator[Warm]:
    from tests.conftest import warm_root

    yield from warm_root(root.resolve(), logs)


# -- Go: gopls ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """The Go edits fixture on gopls."""
    yield from watched("edits_go", tmp_path_factory)


def test_go_method_rename_leaves_the_other_type(go: Warm, tmp_path: Path) -> None:
    result = rename(go, path="shop/models.go", line=15, column=17, new_name="Subtotal")
    assert edited(result) == {"main.go": 2, "shop/models.go": 2}  # gopls: its doc comment too
    copy = applied(go.root, result.diff, tmp_path)
    main = (copy / "main.go").read_text()
    assert "fmt.Println(cart.Subtotal() + invoice.Total())" in main
    models = (copy / "shop/models.go").read_text()
    assert "// Subtotal of the cart's prices.\nfunc (c *Cart) Subtotal() int {" in models
    assert "// Total of the invoice.\nfunc (i Invoice) Total() int {" in models
    assert go_errors(copy) == go_errors(go.root)


@pytest.mark.parametrize("symbol", ["Cart.Total", "(*Cart).Total"])
@pytest.mark.parametrize("path", ["shop/models.go", None])
def test_go_method_is_found_by_its_plain_name(go: Warm, symbol: str, path: str | None) -> None:
    """gopls names the method `(*Cart).Total`; `Cart.Total` names it too."""
    where = {} if path is None else {"path": path}
    result = rename(go, symbol=symbol, new_name="Subtotal", **where)
    assert result.old_name == "Total"
    assert edited(result) == {"main.go": 2, "shop/models.go": 2}  # as by its position
    assert "func (c *Cart) Subtotal() int {" in result.diff
    other = rename(go, symbol="Invoice.Total", new_name="Due", **where)  # (Invoice).Total
    assert "func (i Invoice) Due() int {" in other.diff
    assert "+\tfmt.Println(cart.Total() + invoice.Due())" in other.diff.splitlines()


def test_go_function_rename_reaches_its_package_users(go: Warm, tmp_path: Path) -> None:
    result = rename(go, path="shop/models.go", line=34, column=6, new_name="NewCart")
    assert result.old_name == "MakeCart"
    assert edited(result) == {"main.go": 1, "shop/models.go": 2}
    copy = applied(go.root, result.diff, tmp_path)
    assert "cart := shop.NewCart(1, 2)" in (copy / "main.go").read_text()
    assert go_errors(copy) == go_errors(go.root)


def test_go_add_import_fix_removes_the_error(go: Warm, tmp_path: Path) -> None:
    result = fixes(go, path="util/stars.go")
    [fix] = [f for f in result.fixes if f.title == 'Add import:  "strings"']
    assert fix.check is not None and fix.check.introduced == []
    assert [d.message for d in fix.check.fixed] == ["undeclared name: strings"]
    copy = applied(go.root, fix.diff, tmp_path)
    before = go_errors(go.root)
    assert any("stars.go" in e for e in before)
    assert not any("stars.go" in e for e in go_errors(copy))


def test_go_fix_sent_back_through_apply_edit_is_captured(go: Warm, tmp_path: Path) -> None:
    # gopls offers "undeclared name: tip" as a command only (gopls.apply_fix): it computes
    # the edit when the command runs and sends it back with workspace/applyEdit.
    session, document = go.run(go.ws.open("util/tip.go"))
    raw = go.run(session.diagnostics(document, 30))
    context = {"diagnostics": raw, "only": ["quickfix"]}
    params = {"textDocument": {"uri": document.uri}, "range": raw[0]["range"], "context": context}
    offered = go.run(session.request("textDocument/codeAction", params))
    assert [(a["title"], a.get("edit") or None, a["command"]["command"]) for a in offered] == [
        ("undeclared name: tip", None, "gopls.apply_fix")
    ]
    result = fixes(go, path="util/tip.go", line=5)
    [fix] = result.fixes
    assert fix.title == "undeclared name: tip" and fix.note is None
    assert "+\ttip := " in fix.diff.splitlines()
    assert (go.root / "util/tip.go").read_text().count("tip :=") == 0  # never applied
    assert fix.check is not None and fix.check.introduced  # gopls leaves the value to write
    applied(go.root, fix.diff, tmp_path)


# -- Python: ty and pyrefly (basedpyright: tests/ops/test_rename.py) ---------------------------


@pytest.fixture(scope="module", params=["ty", "pyrefly"])
def python(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warm]:
    """The Python edits fixture on ty, then on pyrefly."""
    yield from watched("edits_py", tmp_path_factory, "python", request.param)


def test_python_method_rename_leaves_the_other_class(python: Warm, tmp_path: Path) -> None:
    result = rename(python, path="shop/models.py", line=13, column=9, new_name="subtotal")
    assert edited(result) == {"shop/checkout.py": 2, "shop/models.py": 1, "shop/report.py": 3}
    copy = applied(python.root, result.diff, tmp_path)
    checkout = (copy / "shop/checkout.py").read_text()
    assert "return cart.subtotal() + invoice.total()" in checkout
    assert basedpyright_errors(copy) == basedpyright_errors(python.root)


def test_python_function_rename_reaches_every_import(python: Warm, tmp_path: Path) -> None:
    result = rename(python, path="shop/models.py", line=25, column=5, new_name="new_cart")
    copy = applied(python.root, result.diff, tmp_path)
    report = (copy / "shop/report.py").read_text()
    assert "from shop.models import new_cart as cart_of" in report
    assert "shop.models.new_cart(3)" in report and "models.new_cart(4)" in report
    assert "new_cart" in (copy / "shop/checkout.py").read_text()
    assert basedpyright_errors(copy) == basedpyright_errors(python.root)


def test_python_add_import_fix_removes_the_error(python: Warm, tmp_path: Path) -> None:
    result = fixes(python, path="shop/needs_import.py", line=2)
    fix = next(f for f in result.fixes if "+from pathlib import Path" in f.diff.splitlines())
    assert fix.check is not None and len(fix.check.fixed) >= 1 and fix.check.introduced == []
    copy = applied(python.root, fix.diff, tmp_path)
    assert "from pathlib import Path" in (copy / "shop/needs_import.py").read_text()
    assert not any(e[0] == "shop/needs_import.py" for e in basedpyright_errors(copy))


def test_go_type_members_include_its_methods(go: Warm) -> None:
    """gopls lists `(*Cart).Total` beside `Cart`, not in it: `Cart.` lists it all the same."""
    found: WorkspaceSymbolsResult = go.run(
        call(operation("workspace_symbols"), go.ws, {"query": "Cart."})
    )
    assert [(s.name_path, s.kind, s.line) for s in found.symbols] == [
        ("Cart.Prices", "field", 6),
        ("(*Cart).Add", "method", 10),
        ("(*Cart).Total", "method", 15),
    ]
    total: WorkspaceSymbolsResult = go.run(
        call(operation("workspace_symbols"), go.ws, {"query": "Invoice.To"})
    )
    assert [s.name_path for s in total.symbols] == ["(Invoice).Total"]
