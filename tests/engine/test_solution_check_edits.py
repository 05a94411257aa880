"""A solution-style layout's listings (`tsc -p CONFIG --listFilesOnly`: each referenced
program's configuration errors, as `tsc -b` says them; ~6 s on a solution) stand across a
`sed -i` of a source: its rename over the file is told 'created', which bumped
`projects.generation` and every listing ran again (Vite's layout on 5.9.3: 3 listings,
7.7 s of the check's 8.3 s after the edit; 0.08 s now). They stand while the walk finds
the same files (`scope.files_found`); a configuration's edit, or a file gone, lists again.
The project's own `tsc -b` on 7.0.2 and 5.9.3 asserted beside."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.engine import native_program, solution_check
from lspd.workspace.tsc_native import ConfigError
from lspd.workspace.tsc_native import listed as tsc_listed
from tests.conftest import Warm
from tests.engine.test_solution_check import (
    DOCUMENT,
    FILES,
    SHAPES,
    SHARED,
    TS59,
    checked,
    solution,
    tsc_b,
)
from tests.workspace.toolchains import TS7_PINNED

Listed = tuple[list[Path], list[ConfigError]]


@pytest.fixture(params=[TS7_PINNED, TS59])
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    """Vite's layout, tsconfig.node.json including app/shapes.ts (its TS2584), watched."""
    files = {**FILES, "app/shapes.ts": SHAPES + DOCUMENT}
    node = json.loads(files["tsconfig.node.json"])
    files["tsconfig.node.json"] = json.dumps({**node, "include": SHARED}, indent=2)
    yield from solution(tmp_path, files, request.param)


def test_a_sed_of_a_source_lists_no_program_again(
    project: Warm, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project.root
    runs: list[str] = []  # the configurations tsc listed, in order

    def listed(tsc: list[str], config: Path, *more: tuple[str, ...]) -> Listed:
        runs.append(config.name)
        return tsc_listed(tsc, config, *more)

    monkeypatch.setattr(solution_check, "listed", listed)
    monkeypatch.setattr(native_program, "listed", listed)
    truth = tsc_b(root)
    assert [t[:4] for t in truth] == [("app/main.ts", 2, 14, 2322), ("app/shapes.ts", 2, 22, 2584)]
    assert checked(project) == truth
    assert "tsconfig.node.json" in runs
    runs.clear()
    subprocess.run(["sed", "-i", "s/dist/out/", "tools/build.ts"], cwd=root, check=True)
    assert (root / "tools/build.ts").read_text() == "export const out = 'out';\n"
    assert checked(project) == tsc_b(root) == truth
    assert runs == []  # before: tsconfig.app.json, tsconfig.node.json, tsconfig.json again
    subprocess.run(
        ["sed", "-i", 's/"strict"/"bogus": 1, "strict"/', "tsconfig.node.json"], cwd=root
    )
    truth = tsc_b(root)
    assert ("tsconfig.node.json", 9, 5, 5023) in [t[:4] for t in truth]
    assert checked(project) == truth
    assert "tsconfig.node.json" in runs  # its configuration edited: listed again
    runs.clear()
    (root / "tools/build.ts").unlink()  # a file gone: the listings hang on it (TS6053)
    assert checked(project) == tsc_b(root) == truth
    assert "tsconfig.node.json" in runs
