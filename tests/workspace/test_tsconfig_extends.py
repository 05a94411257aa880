"""A tsconfig's `extends` followed by lspd (`workspace/tsconfig_extends.py`, for a commit's
texts) as TypeScript follows it: each config's chain equals lspd's TypeScript 5.9's
`extendedSourceFiles` (`tsconfig_scope.read_tsconfigs`) on the same files."""

from __future__ import annotations

import json
import os
from pathlib import Path

from lspd.workspace.files import read_text
from lspd.workspace.tsconfig_extends import extended, plain_json
from lspd.workspace.tsconfig_scope import read_tsconfigs
from tests.engine.test_affected import written
from tests.ops.test_new_files import lspd_typescript

OPTIONS = '{"compilerOptions": {"strict": true}}'
FILES = {
    "src/a.ts": "export const a = 1;\n",
    "base.json": OPTIONS,
    "configs/strict.json": '{\n  // stricter\n  "extends": "../base", /* .json added */\n}\n',
    "node_modules/@acme/tsconfig/package.json": json.dumps(
        {"name": "@acme/tsconfig", "tsconfig": "main.json", "exports": {"./x": "./lib/x.json"}}
    ),
    "node_modules/@acme/tsconfig/main.json": OPTIONS,
    "node_modules/field/package.json": '{"name": "field", "tsconfig": "main.json"}',
    "node_modules/field/main.json": OPTIONS,
    "node_modules/@acme/tsconfig/lib/x.json": '{"extends": "../main.json"}',
    "node_modules/plain/tsconfig.json": OPTIONS,
    "node_modules/plain/strict.json": '{"extends": "./tsconfig.json"}',
    # the configs asked, each naming the others in its own way
    "relative/tsconfig.json": '{"extends": "../configs/strict", "include": ["../src"]}',
    "package/tsconfig.json": '{"extends": "@acme/tsconfig/x", "include": ["../src"]}',
    "field/tsconfig.json": '{"extends": "field", "include": ["../src"]}',
    "listed/tsconfig.json": json.dumps(
        {"extends": ["plain", "plain/strict", "./../base.json"], "include": ["../src"]}
    ),
}


def test_each_chain_is_typescript_s(tmp_path: Path) -> None:
    root = written(tmp_path / "p", FILES)
    configs = sorted(root.glob("*/tsconfig.json"))
    truth = {t.config: list(t.extended) for t in read_tsconfigs(configs, lspd_typescript())}
    ours = {config: extended(config, read_text) for config in configs}
    assert ours == truth
    assert ours[root / "listed/tsconfig.json"] == [
        root / "node_modules/plain/tsconfig.json",
        root / "node_modules/plain/strict.json",
        root / "base.json",
    ]
    # what tsc cannot read (TS6053) is left out: a package's path its `exports` does not
    # list, a file that is not there
    for name in ("@acme/tsconfig", "@acme/tsconfig/main.json", "./nothing"):
        written(root, {"other/tsconfig.json": json.dumps({"extends": name})})
        assert extended(root / "other/tsconfig.json", read_text) == [], name


def test_a_linked_package_s_config_is_its_own_file(tmp_path: Path) -> None:
    """A workspace package linked into node_modules: its config's real path, as tsc."""
    root = written(tmp_path / "p", {"src/a.ts": "", "packages/cfg/tsconfig.json": OPTIONS})
    written(root, {"tsconfig.json": '{"extends": "@acme/cfg", "include": ["src"]}'})
    link = root / "node_modules/@acme/cfg"
    link.parent.mkdir(parents=True)
    link.symlink_to(os.path.relpath(root / "packages/cfg", link.parent))
    truth = read_tsconfigs([root / "tsconfig.json"], lspd_typescript())
    assert extended(root / "tsconfig.json", read_text) == list(truth[0].extended)
    assert truth[0].extended == (root / "packages/cfg/tsconfig.json",)


def test_comments_and_trailing_commas_are_left_out() -> None:
    text = '{"a": "x // not a comment", /* c */ "b": [1, 2,],\n// d\n}'
    assert json.loads(plain_json(text)) == {"a": "x // not a comment", "b": [1, 2]}
