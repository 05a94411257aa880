"""The builder's progress through a signature change's re-check: TypeScript signs every importer
(a declaration emit each, the slow part) inside the first affected file's call, so the files
checked stayed at 0 until the very end (30 importers of slow types: "0 of 31" for 109 s of a
110 s re-check, then 10, 20, 30 within 0.7 s). Each signature is told as it is taken now
(`tsbuilder_sources.signed`): the progress moves while the importers are signed. Real
TypeScript (lspd's own) and its builder; the shares of the re-check's time are the fact, not
seconds (the slow pass is most of it)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops.check import check_all
from tests.conftest import Warm, warm_root
from tests.daemon.test_edited_alone import ADD, CORE, TUPLE, cored

IMPORTERS, TYPES = 20, 12  # each importer with slow types of its own (none reused)


def _layout(root: Path) -> Path:
    cored(root)
    for f in range(IMPORTERS):
        lines = ['import { add } from "./core";\n', f"export const z: number = add(1, {f});\n"]
        lines += [TUPLE, ADD]
        for i in range(TYPES):
            n = f * TYPES + i
            a, b = n % 97 + 800, n // 97 + 3
            lines.append(f"export type T{i} = Add<{a}, {b}>;\nexport const v{i}: T{i} = {a + b};\n")
        (root / f"src/m{f}.ts").write_text("".join(lines))
    return root.resolve()


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Warm]:
    yield from warm_root(_layout(tmp_path / "p"), tmp_path / "logs", watch=True)


def test_a_signature_changes_recheck_moves_while_the_importers_are_signed(warm: Warm) -> None:
    warm.run(check_all(warm.ws))
    core = warm.root / "src/core.ts"
    core.write_text(CORE.replace("b: number)", "b: number, c = 0)"))  # every importer signed
    began, told = time.monotonic(), list[tuple[float, int, int]]()

    def progress(done: int, total: int) -> None:
        told.append((time.monotonic() - began, done, total))

    checked = warm.run(check_all(warm.ws, progress=progress))
    took = time.monotonic() - began
    assert sorted(warm.ws.display(p) for p in checked.asked) == sorted(
        ["src/core.ts", *(f"src/m{f}.ts" for f in range(IMPORTERS))]
    )
    counts = [done for _, done, _ in told]
    assert counts == sorted(counts) and counts[-1] == IMPORTERS + 1
    assert {total for _, _, total in told} == {IMPORTERS + 1}
    # Before: 10 and 20 came within the last 1% of the re-check (109.44 and 110.0 of 110.17 s).
    first = next(at for at, done, _ in told if done >= 10)
    assert first < 0.8 * took, (first, took, told)
