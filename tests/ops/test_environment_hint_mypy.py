"""mypy's unresolved imports get the answer's hint too (`ops/environment_hint.py`): it was
said for the language servers' codes alone. packaging's pre-commit mypy hook installs
`nox`, `httpx` and `tomli` beside mypy (`additional_dependencies`), and its dev
environment holds none: lspd's mypy, run in that environment, said 15 errors its gate never
says, with no word of why. The hint names what the hook installs. Real mypy (the project's)."""

from __future__ import annotations

from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.ops.file_diagnostics import diagnostics
from tests.conftest import answer
from tests.workspace.mypy_env import cli_errors, project

HOOK = (
    "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n  rev: v1.11.2\n  hooks:\n"
    "  - id: mypy\n    args: []\n    additional_dependencies: [tomli_w, 'nox>=2024']\n"
)
FILES = {
    "pyproject.toml": '[tool.mypy]\nfiles = ["src"]\n',
    "src/pkg/__init__.py": (
        "import tomli_w\n\n\ndef dumped() -> str:\n    return tomli_w.dumps({})\n"
    ),
}


def test_a_hooks_dependencies_the_environment_lacks_are_named(tmp_path: Path) -> None:
    root = project(tmp_path / "p", {**FILES, ".pre-commit-config.yaml": HOOK})
    gate = [(f, line, code) for f, line, _, code, _ in cli_errors(root)]  # in this environment
    assert gate == [("src/pkg/__init__.py", 1, "import-not-found")]
    checked = answer(root, workspace_diagnostics)
    assert [(d.path, d.line, d.code) for d in checked.diagnostics] == gate
    [hint] = [e for e in checked.environment if e.startswith("imports did not resolve")]
    assert hint.endswith(
        ": the pre-commit mypy hook installs `tomli_w`, `nox>=2024` beside mypy "
        "(`additional_dependencies`), and lspd runs mypy in the project's environment; "
        "install them there"
    )


def test_without_a_hook_the_hint_says_to_install_the_dependencies(tmp_path: Path) -> None:
    root = project(tmp_path / "p", FILES)
    [hint] = answer(root, workspace_diagnostics).environment
    assert hint.startswith("imports did not resolve with mypy ")
    assert "install the project's dependencies there" in hint


def test_a_hook_pinning_another_mypy_is_said(tmp_path: Path) -> None:
    """marshmallow's hook pins mirrors-mypy v1.11.2, where its environment has mypy 2.4.1,
    which says 2 errors the hook's mypy does not: said, so a difference has its why."""
    files = {**FILES, "src/pkg/__init__.py": "x: int = 1\n"}
    pinned = HOOK.replace("v1.11.2", "v0.910")
    root = project(tmp_path / "p", {**files, ".pre-commit-config.yaml": pinned})
    checked = answer(root, workspace_diagnostics)
    [hint] = checked.environment
    toolchain = checked_toolchain(root)
    assert hint == (
        f"{toolchain} answered, and the pre-commit mypy hook pins mypy 0.910 (its `rev`), "
        "whose errors may differ: install mypy==0.910 in the project's environment to check "
        "as the hook does"
    )
    ran = toolchain.split(" ")[1]
    (root / ".pre-commit-config.yaml").write_text(HOOK.replace("v1.11.2", f"v{ran}"))
    assert answer(root, workspace_diagnostics).environment == []  # the same mypy


def checked_toolchain(root: Path) -> str:
    result = answer(root, lambda ws: diagnostics(ws, "src/pkg/__init__.py"))
    assert result.toolchain is not None
    return result.toolchain
