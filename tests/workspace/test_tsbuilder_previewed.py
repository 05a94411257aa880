"""A check finding the disk as the last preview had it takes over the preview's state: an
agent's change previewed, then written as previewed, is not checked again (valibot's
signature change: 16.5 s to preview, 18.2 s more to check it once written). Its answer is
a fresh check's; a disk that differs from the preview is checked as before (a real helper
on lspd's TypeScript and on 5.4, whose builder keeps its state behind `getState()`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lspd.ops import preview
from lspd.ops.budget import compact
from lspd.ops.check import check_all, summary
from tests.conftest import Warm
from tests.engine.test_affected import checked_anew, errors, fresh
from tests.workspace.test_tsbuilder import MANY, many
from tests.workspace.toolchains import TS_PINNED

CORE = "export const one = (): number => 1;\n"
TWO = "export const one = (x: number): number => x;\n"  # every importer's call now lacks x


@pytest.fixture(params=[None, TS_PINNED], ids=["lspd's", "5.4"])
def versions(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Warm]:
    yield from many(tmp_path, request.param)


def previewed(project: Warm, texts: dict[str, str]) -> int:
    """The errors a preview of `texts` introduces."""
    change = [{"path": path, "content": text} for path, text in texts.items()]
    result = project.run(preview.previewed(project.ws, change))
    assert result.changes is not None
    return len(result.changes.introduced)


def summed(project: Warm) -> dict[str, object]:
    """The whole check's answer, as `lspd check --json` gives it."""
    return compact(summary(project.run(check_all(project.ws))))


def taken_over(project: Warm) -> bool:
    [builder] = project.ws.builders.values()
    [checked] = builder.projects.values()
    return checked.previewed


def test_a_check_of_the_previewed_texts_takes_over_the_previews_state(versions: Warm) -> None:
    project = versions
    assert errors(project) == []
    assert previewed(project, {"src/core.ts": TWO}) == MANY
    (project.root / "src/core.ts").write_text(TWO)
    said = errors(project)
    assert taken_over(project)
    assert len(said) == MANY and {line for _, line, _ in said} == {2}
    # What the preview checked anew is answered again: the last check said otherwise.
    assert len(checked_anew(project)) == MANY + 1
    assert summed(project) == fresh(project.root, project.root.parent / "fresh")
    # Back as it was: a check of its own (nothing previewed).
    (project.root / "src/core.ts").write_text(CORE)
    assert errors(project) == [] and not taken_over(project)


def test_a_disk_other_than_the_previews_is_checked_as_before(versions: Warm) -> None:
    project = versions
    assert errors(project) == []
    assert previewed(project, {"src/core.ts": TWO}) == MANY
    # Written otherwise: the preview's state is not the disk's.
    (project.root / "src/core.ts").write_text(CORE + "export const two = 2;\n")
    assert errors(project) == [] and not taken_over(project)
    # Previewed, not written: the disk as the last check had it.
    assert previewed(project, {"src/core.ts": TWO}) == MANY
    assert errors(project) == [] and not taken_over(project)


def test_a_file_changed_beside_the_previewed_texts_is_checked_too(versions: Warm) -> None:
    project = versions
    assert errors(project) == []
    assert previewed(project, {"src/core.ts": TWO}) == MANY
    (project.root / "src/core.ts").write_text(TWO)
    leaf = project.root / "src/m0.ts"
    leaf.write_text(leaf.read_text() + 'export const wrong: number = "a string";\n')
    said = errors(project)
    assert taken_over(project)
    assert ("src/m0.ts", 3, "Type 'string' is not assignable to type 'number'.") in said
    assert len(said) == MANY + 1
    assert summed(project) == fresh(project.root, project.root.parent / "fresh")
