"""tailwind-merge's compatibility check: `node node_modules/typescript-compat/bin/tsc
--project compat/tsconfig.json`, an alias of TypeScript 3.8.3 beside the project's own. lspd
checked that configuration with the project's TypeScript and said 0 errors where its gate
says 2 (`satisfies`, which 3.8 cannot parse). It is said not checked now, naming the
TypeScript that checks it (`workspace/tsc_other.py`; real TypeScript 3.8.3 and 5.4.5)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from lspd.ops.check import workspace_diagnostics
from lspd.servers.registry import node_executable
from lspd.workspace.tsc_other import other_typescript
from tests.conftest import answer
from tests.workspace.toolchains import typescript_committed, typescript_package

COMPAT = "node node_modules/typescript-compat/bin/tsc --project compat/tsconfig.json"
OPTIONS = '{"compilerOptions": {"strict": true, "noEmit": true, "types": []}, '
FILES = {
    "package.json": json.dumps({"scripts": {"test:types": "tsc --noEmit", "compat": COMPAT}}),
    "tsconfig.json": OPTIONS + '"include": ["src"]}',
    "src/index.ts": "export const one = { n: 1 };\n",
    "compat/tsconfig.json": OPTIONS + '"files": ["consumer.ts"]}',
    "compat/consumer.ts": "export const two = { n: 2 } satisfies { n: number };\n",
}


def test_a_configuration_only_another_typescript_checks_is_said_so(tmp_path: Path) -> None:
    root = typescript_committed(tmp_path / "p", FILES)
    (root / "node_modules/typescript-compat").symlink_to(typescript_package("3.8.3"))
    done = subprocess.run(
        [node_executable(), *COMPAT.split()[1:], "--pretty", "false"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "error TS1005: ',' expected." in done.stdout  # its gate
    which = "only typescript-compat's tsc (TypeScript 3.8.3) checks"
    assert other_typescript([root / "package.json"]) == {
        root / "compat/tsconfig.json": f"{which}, not the project's own TypeScript: lspd checks "
        "a project with one"
    }
    checked = answer(root, workspace_diagnostics)
    assert (checked.errors, checked.files_checked, checked.outside_gate) == (0, 1, 1)
    lines = [(s.project, s.config, s.files, s.note) for s in checked.scope or []]
    assert lines[-1] == (
        "compat",
        None,
        0,
        f"not checked: compat/tsconfig.json, which {which}"
        ", not the project's own TypeScript: lspd checks a project with one",
    )
    # TypeScript 7's preview run by its path: lspd's to check with it
    native = "node node_modules/@typescript/native-preview/bin/tsgo -p compat"
    (root / "package.json").write_text(json.dumps({"scripts": {"native": native}}))
    assert other_typescript([root / "package.json"]) == {}
    # the project's own tsc naming it too: the project's to check
    scripts = {"test:types": "tsc --noEmit && tsc -p compat", "compat": COMPAT}
    (root / "package.json").write_text(json.dumps({"scripts": scripts}))
    assert other_typescript([root / "package.json"]) == {}
