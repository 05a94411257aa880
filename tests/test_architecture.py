"""The shape of the package: arrows point down only, no import cycles, small modules,
classes and functions."""

from __future__ import annotations

import ast
from pathlib import Path

import lspd

SOURCE = Path(lspd.__file__).parent
MAX_LINES = 400
MAX_CLASS_LINES = 250
MAX_FUNCTION_LINES = 60

# Each layer may import the ones after it, never those before it: transport -> operations ->
# the check engine -> workspace -> language-server session. The daemon and agents sit beside
# the transport.
LAYERS = [
    {"cli", "__main__"},
    {"daemon"},
    {"tools", "agents"},
    {"surface"},
    {"ops"},
    {"engine"},
    {"workspace"},
    {"lsp"},
    {"servers"},
    {"sentinel", "dirs", "pyexec", "errors"},
]


def _modules() -> dict[str, Path]:
    found = {}
    for path in SOURCE.rglob("*.py"):
        parts = path.with_suffix("").relative_to(SOURCE.parent).parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path, typing: bool = False) -> set[str]:
    """The lspd modules `name` imports anywhere (in functions too; for type checking only
    with `typing`), without its own parent packages (Python imports those first anyway)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = (
        set()
        if typing
        else {
            id(sub)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for sub in ast.walk(node)
        }
    )
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join([*base, node.module] if node.level else [node.module or ""])
            module = module.rstrip(".")
            named |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    out = set()
    for module in named:
        while module and module not in MODULES:
            module = module.rpartition(".")[0]
        if module and module != name and not name.startswith(module + "."):
            out.add(module)
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}
# With the imports made for type checking only: a loop there is a loop for a reader too.
TYPED_GRAPH = {name: _imports(name, path, typing=True) for name, path in MODULES.items()}


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else module
    return next(i for i, layer in enumerate(LAYERS) if top in layer)


def test_arrows_point_down_only() -> None:
    upward = sorted(
        f"{name} imports {other}"
        for name, others in GRAPH.items()
        if name != "lspd"
        for other in others
        if other != "lspd" and _layer(other) < _layer(name)
    )
    assert upward == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                cycles.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other, [*path, other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return cycles


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_no_import_cycles_even_for_type_checking() -> None:
    assert _cycles(TYPED_GRAPH) == []


# The Node scripts lspd runs (the TypeScript builder's modules, idle_gc.cjs, the tsserver plugin)
SCRIPTS = sorted(p for suffix in ("js", "cjs", "mjs") for p in SOURCE.rglob(f"*.{suffix}"))


def test_no_module_is_over_400_lines() -> None:
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_node_script_is_over_400_lines() -> None:
    assert SCRIPTS  # found where they are
    long = {
        str(path.relative_to(SOURCE)): lines
        for path in SCRIPTS
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_class_is_over_250_lines() -> None:
    long = {
        f"{name}.{node.name}": lines
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and (lines := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_CLASS_LINES
    }
    assert long == {}


def test_no_function_is_over_60_lines() -> None:
    """A function's lines count from its first decorator to its last line (issue 43)."""
    long = {
        f"{name}.{node.name}:{node.lineno}": lines
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (
            lines := (node.end_lineno or node.lineno)
            - min([node.lineno, *(d.lineno for d in node.decorator_list)])
            + 1
        )
        > MAX_FUNCTION_LINES
    }
    assert long == {}
