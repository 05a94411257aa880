"""Which tsconfig would take in a file not written yet, as TypeScript reads the configs."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.servers.registry import definitions
from lspd.workspace.new_files import choose_host, owner, referencing
from tests.conftest import copy_fixture


def lspd_typescript() -> Path:
    return definitions()["typescript-language-server"].npm_root() / "typescript"


def test_the_tsconfig_whose_include_takes_it_in(tmp_path: Path) -> None:
    root = copy_fixture("conditions_ts", tmp_path)
    found = owner(root / "src/a/b/new.ts", root, lspd_typescript())  # directories to come too
    assert found is not None and found.config == root / "tsconfig.json"
    assert sorted(p.name for p in found.files) == ["globals.d.ts", "index.ts", "uses.ts"]
    assert owner(root / "scripts/new.ts", root, lspd_typescript()) is None  # outside `include`


def test_exclude_and_a_solution_config_reference(tmp_path: Path) -> None:
    # Vite's layout: tsconfig.json only references tsconfig.app.json, which takes in src.
    root = copy_fixture("conditions_ts", tmp_path)
    config = json.loads((root / "tsconfig.json").read_text())
    config["exclude"] = ["src/generated"]
    (root / "tsconfig.app.json").write_text(json.dumps(config))
    solution = {"files": [], "references": [{"path": "./tsconfig.app.json"}]}
    (root / "tsconfig.json").write_text(json.dumps(solution))
    found = owner(root / "src/new.ts", root, lspd_typescript())
    assert found is not None and found.config == root / "tsconfig.app.json"
    assert sorted(p.name for p in found.files) == ["globals.d.ts", "index.ts", "uses.ts"]
    assert owner(root / "src/generated/x.ts", root, lspd_typescript()) is None


def test_a_changed_config_is_read_again_an_extended_one_too(tmp_path: Path) -> None:
    root = copy_fixture("conditions_ts", tmp_path)
    config = json.loads((root / "tsconfig.json").read_text())
    (root / "base.json").write_text(json.dumps({**config, "include": ["src"]}))
    (root / "tsconfig.json").write_text(json.dumps({"extends": "./base.json"}))
    assert owner(root / "src/new.ts", root, lspd_typescript()) is not None
    (root / "base.json").write_text(json.dumps({**config, "include": ["lib"]}))
    assert owner(root / "src/new.ts", root, lspd_typescript()) is None
    (root / "tsconfig.json").write_text(json.dumps({"extends": "./base.json", "include": ["src"]}))
    assert owner(root / "src/new.ts", root, lspd_typescript()) is not None


def test_the_host_is_the_smallest_file_not_checked(tmp_path: Path) -> None:
    root = copy_fixture("conditions_ts", tmp_path)
    (root / "src" / "cli.ts").write_text("#!/usr/bin/env node\n")
    files = tuple(sorted((root / "src").iterdir()))
    assert choose_host(files, set()) == root / "src" / "globals.d.ts"
    assert choose_host(files, {root / "src" / "globals.d.ts"}) == root / "src" / "uses.ts"
    assert choose_host(files, set(files) - {root / "src" / "cli.ts"}) is None  # `#!` first
    host = root / "src" / "uses.ts"
    text = referencing(host, "x\n", [root / "src/a/new.ts"])
    assert text == '/// <reference path="a/new.ts" />\nx\n'
