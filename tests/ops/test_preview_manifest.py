"""A preview of a workspace package's package.json edit (issue 40): where each TypeScript
program's own tsc -p on a copy holding the proposed text can answer (every file of the gate
a tsconfig project's, no tsconfig referencing projects), the preview is that answer, where
it was refused ('a checker's configuration ... run lspd check --baseline HEAD'). utils'
`exports` "." moved to "./lib": core's import of '@demo/utils' breaks (TS2307), and the
preview of its revert fixes it. A layout with references stays refused
(tests/engine/test_manifest_edits.py). Real TypeScript 7.0.2 and 5.4.5, `tsc -p` on the
written tree beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.ops.preview import previewed
from tests.conftest import warm_root
from tests.engine.test_manifest_edits import BROKEN, HEAD_TEXT, MANIFEST, MOVED, coded, flat, tsc_p
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_manifests_preview_is_tscs_on_a_copy(tmp_path: Path, version: str) -> None:
    root = flat(tmp_path / "f", version)
    written = flat(tmp_path / "w", version)
    (written / MANIFEST).write_text(MOVED)
    assert tsc_p(root) == set() and tsc_p(written) == BROKEN
    for warm in warm_root(root, tmp_path / "logs"):
        said = warm.run(previewed(warm.ws, [{"path": MANIFEST, "content": MOVED}])).changes
        assert coded((d.path, 0, 0, d.code) for d in said.introduced) == BROKEN
        assert (said.fixed, said.changed, said.stopped) == ([], [MANIFEST], [])
    (root / MANIFEST).write_text(MOVED)  # written: its revert's preview fixes the TS2307
    for warm in warm_root(root, tmp_path / "logs"):
        said = warm.run(previewed(warm.ws, [{"path": MANIFEST, "content": HEAD_TEXT}])).changes
        assert coded((d.path, 0, 0, d.code) for d in said.fixed) == BROKEN
        assert (said.introduced, said.changed) == ([], [MANIFEST])
    assert (root / MANIFEST).read_text() == MOVED  # nothing written


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_manifests_deletion_is_previewed_as_its_edit(tmp_path: Path, version: str) -> None:
    # was refused ("a checker's configuration", exit 2) where an edit of it was answered
    root = flat(tmp_path / "f", version)
    written = flat(tmp_path / "w", version)
    (written / MANIFEST).unlink()  # utils without a package.json: '@demo/utils' unresolved
    assert tsc_p(root) == set() and tsc_p(written) == BROKEN
    for warm in warm_root(root, tmp_path / "logs"):
        said = warm.run(previewed(warm.ws, [{"path": MANIFEST, "content": None}])).changes
        assert coded((d.path, 0, 0, d.code) for d in said.introduced) == BROKEN
        assert (said.fixed, said.changed) == ([], [MANIFEST])
    assert (root / MANIFEST).read_text() == HEAD_TEXT  # nothing written
