"""A jsconfig.json's options error stops its program's semantic check as a tsconfig's does
(`engine/config_stops.py`): jotai's website/jsconfig.json (`"baseUrl"`, `"checkJs": true`)
under a root tsconfig.json, TypeScript 7.0.2: `tsc -p website/jsconfig.json` says TS5102
alone, and lspd check said it and every error of the website's .js files (621 where tsc
says 1), its files taken for the root tsconfig's program. Real TypeScript 7, one-shot and
in a watched daemon, against the project's own tsc -p of each configuration."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lspd.ops.check import check_all
from lspd.ops.checked import Checked
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
JSCONFIG = {"compilerOptions": {"baseUrl": "./", "checkJs": True}, "include": ["**/*.js"]}


def _truth(root: Path, *configs: str) -> set[tuple[str, int, str]]:
    """`tsc -p CONFIG --noEmit` of each configuration: (file, line, code)."""
    out = "".join(own_tsc(root, "-p", c, "--noEmit", "--pretty", "false") for c in configs)
    return {(p, int(line), c) for p, line, _, c in LINE.findall(out)}


def _said(checked: Checked) -> set[tuple[str, int, str]]:
    return {(r.path, d.line, d.code or "") for r in checked.results for d in r.diagnostics}


def test_a_jsconfig_removed_option_stops_its_files_on_typescript_7(tmp_path: Path) -> None:
    files = {
        "tsconfig.json": json.dumps({**CONFIG, "include": ["src"]}, indent=2),
        "src/a.ts": "export const n: number = 'x';\n",
        "site/jsconfig.json": json.dumps(JSCONFIG, indent=2),
        "site/page.js": "/** @type {number} */\nexport const m = 'y';\n",
    }
    root = typescript_committed(tmp_path / "p", files, "7.0.2")
    truth = _truth(root, ".", "site/jsconfig.json")
    assert truth == {("src/a.ts", 1, "2322"), ("site/jsconfig.json", 3, "5102")}
    once = answer(root, check_all)
    assert _said(once) == truth
    assert [(s.at, s.files) for s in once.stopped] == [
        ((("site/jsconfig.json", 3),), frozenset({"site/page.js"}))
    ]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        checked = warm.run(check_all(warm.ws))
        assert _said(checked) == truth
        # the option taken out: the .js file's own error is tsc's answer
        (root / "site/jsconfig.json").write_text(
            json.dumps({**JSCONFIG, "compilerOptions": {"checkJs": True}}, indent=2)
        )
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        truth = _truth(root, ".", "site/jsconfig.json")
        assert truth == {("src/a.ts", 1, "2322"), ("site/page.js", 2, "2322")}
        checked = warm.run(check_all(warm.ws))
        assert (_said(checked), checked.stopped) == (truth, [])
