"""io-ts runs `dtslint --expectOnly dtslint`: its dtslint/ tests hold `// $ExpectType T`
assertions that lspd does not run, and a return type breaking one was answered "0 new
errors" with no word of them. The folder's scope line now says so
(`workspace/dtslint_tests.py`, real TypeScript for the rest of the check)."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.workspace.dtslint_tests import NOTE, dtslint_folders
from tests.conftest import answer
from tests.workspace.test_scope import write
from tests.workspace.toolchains import typescript_committed

OPTIONS = '{"compilerOptions": {"strict": true, "noEmit": true, "types": []}'
FILES = {
    "package.json": json.dumps({"scripts": {"dtslint": "dtslint --expectOnly dtslint"}}),
    "tsconfig.json": OPTIONS + ', "include": ["src"]}',
    "src/index.ts": "export const make = (n: number): number | string => n;\n",
    "dtslint/tsconfig.json": OPTIONS + ', "files": ["index.ts"]}',
    "dtslint/index.ts": 'import { make } from "../src";\n// $ExpectType number\nmake(1);\n',
}


def test_dtslints_tests_say_their_assertions_are_not_run(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", FILES)
    checked = answer(root, workspace_diagnostics)
    assert (checked.errors, checked.files_checked) == (0, 2)
    assert [(s.project, s.config, s.files, s.note) for s in checked.scope or []] == [
        ("dtslint", "dtslint/tsconfig.json", 1, NOTE),
        (".", "tsconfig.json", 1, None),
    ]


def test_the_folders_dtslint_is_run_on(tmp_path: Path) -> None:
    scripts = {
        "a": "dtslint --localTs node_modules/typescript/lib --expectOnly types",
        "b": "npm run build && dtslint",  # none named: the package's folder
        "c": "npm run dtslint",  # a script's name
    }
    write(tmp_path, {"package.json": json.dumps({"scripts": scripts})})
    assert dtslint_folders([tmp_path / "package.json"]) == {tmp_path / "types", tmp_path}
