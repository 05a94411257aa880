"""A whole TypeScript 7 check shared with a second server (`engine/second_server.py`) in
an npm-workspaces tree whose referencing package sorts last (`web` -> `core` -> `utils`):
the second server, started fresh, takes files from the end of the list, so it loads web's
project first, which holds core's and utils' sources through its references and checks
none of them. TypeScript 7.0.2's first server answered such a file from a referencing
program (`native_own`, e92de09); the second is right here as it is (a fix telling it of
each program's first file was tried and made no difference: this pins it). Every file holds
an error of its own; real TypeScript 7.0.2, its cold `tsc -b` beside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lspd.engine import second_server
from lspd.lsp.session import Session
from tests.conftest import warm_root
from tests.engine.test_native_check import check
from tests.engine.test_native_reach_workspaces import BASE, monorepo, tsc_b

WRONG = "\nexport const wrong{n}: string = {n};\n"


def test_a_second_servers_files_are_answered_by_their_own_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(second_server, "SPLIT_AT", 2)
    started: list[int] = []
    helpers = second_server._helpers

    def counted(paths: list[Path], sessions: dict[Path, Session]) -> dict[Session, Session]:
        made = helpers(paths, sessions)
        started.append(len(made))
        return made

    monkeypatch.setattr(second_server, "_helpers", counted)
    root = monorepo(tmp_path / "m")
    web = root / "packages/web"
    (web / "src").mkdir(parents=True)
    config = {**BASE, "references": [{"path": "../core"}, {"path": "../utils"}]}
    (web / "tsconfig.json").write_text(json.dumps(config))
    manifest = {"name": "@demo/web", "version": "0.0.0", "exports": {".": "./dist/a.js"}}
    (web / "package.json").write_text(json.dumps(manifest))
    (root / "node_modules/@demo/web").symlink_to(Path("../../packages/web"))
    refs = [{"path": f"./packages/{n}"} for n in ("utils", "core", "app", "web")]
    (root / "tsconfig.json").write_text(json.dumps({"files": [], "references": refs}))
    n = 0
    # the first server, warm, takes files from the front while the second loads web's
    # project: utils' many files reach the second too
    for folder, count in (("web", 3), ("core", 4), ("utils", 60)):
        for name in (f"f{i:02}" for i in range(count)):
            n += 1
            text = "import { scale } from '@demo/core';\n" if folder == "web" else ""
            (root / f"packages/{folder}/src/{name}.ts").write_text(text + WRONG.format(n=n))
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        truth = tsc_b(root, tmp_path / "cold")
        assert len(truth) == n and {c for _, _, _, c in truth} == {"2322"}
        assert check(warm)[1] == truth
        assert started == [1]  # the check was shared with a second server
