"""How a question of a mypy-judged project is answered (`workspace/dmypy_answer.py`): dmypy
always checks with local partial types on; mypy before 2.0 has them off unless configured.
mitmproxy's `_KEEP_ALIVE = set()`, filled in a function, was "Need type annotation" 3 times
where its mypy 1.20 says nothing. Such an answer is asked of mypy run once, and where mypy
says otherwise so is every later question while they differ; where a file or the
configuration hides the error, every question is. mypy 1.19.1 and 2.4.1, real, against
their own runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lspd.engine.mypy_errors import parse
from lspd.workspace import mypy_partial
from lspd.workspace.dmypy import Dmypy
from tests.workspace.mypy_env import cli_errors, mypy_env, project
from tests.workspace.test_dmypy import daemon_of, held, shown
from tests.workspace.test_mypy_once_cache import mypy_119

Shown = list[tuple[str, int, int, str | None, str]]
PARTIAL = {
    "app/__init__.py": "",
    "app/alive.py": (
        "_KEEP_ALIVE = set()\n\n\ndef keep(task: int) -> None:\n    _KEEP_ALIVE.add(task)\n"
    ),
    "app/other.py": 'count: int = "three"\n',
}


def _answers(root: Path, daemon: Dmypy) -> tuple[Shown, Shown, bool, bool]:
    """The daemon's answers of the disk and of an edit, and whether each was mypy run once."""

    async def run() -> tuple[Shown, Shown, bool, bool]:
        try:
            disk = await daemon.check(["app"], held(root))
            edit = {root / "app/other.py": 'count: int = "four"\nmore: str = 1\n'}
            edited = await daemon.check(["app"], held(root, edit))
            copy = daemon.mirror.directory
            found = [sorted(shown(root, parse(out, root, copy))) for out in (disk, edited)]
            return found[0], found[1], disk.once, edited.once
        finally:
            await daemon.stop()
            await daemon.forks.end()

    return asyncio.run(run())


@pytest.mark.parametrize("configured", [False, True])
def test_a_partial_type_completed_in_a_function_is_mypys_answer(
    tmp_path: Path, configured: bool
) -> None:
    config = "[mypy]\nlocal_partial_types = True\n" if configured else "[mypy]\n"
    root = project(tmp_path / "p", {**PARTIAL, "mypy.ini": config}, mypy_119())
    truth = sorted(cli_errors(root, "app"))
    codes = [code for _, _, _, code, _ in truth]
    assert codes == (["var-annotated", "assignment"] if configured else ["assignment"])
    daemon = daemon_of(root, tmp_path)
    disk, edited, once, once_again = _answers(root, daemon)
    assert disk == truth
    assert [code for _, _, _, code, _ in edited] == [*codes[:-1], "assignment", "assignment"]
    # dmypy's whole answer where configured so; else mypy's own, and every later one's
    assert (once, once_again, daemon.partial_once) == (not configured,) * 3


def test_mypy_2_has_local_partial_types_on_as_dmypy(tmp_path: Path) -> None:
    root = project(tmp_path / "p", {**PARTIAL, "mypy.ini": "[mypy]\n"}, mypy_env())
    truth = sorted(cli_errors(root, "app"))
    assert [code for _, _, _, code, _ in truth] == ["var-annotated", "assignment"]
    daemon = daemon_of(root, tmp_path)
    disk, _, once, _ = _answers(root, daemon)
    assert (disk, once, daemon.partial_once) == (truth, False, False)


# dmypy and mypy ask the same annotation: a function's own `w = []`
ASKED_BY_BOTH = {**PARTIAL, "app/alive.py": "def keep() -> None:\n    w = []\n"}


def test_an_annotation_mypy_asks_too_leaves_dmypy_answering(tmp_path: Path) -> None:
    """Every answer of such a project went to mypy run once: the first one's `w` turned it
    on for good, though mypy says it too (mitmproxy's grideditor)."""
    root = project(tmp_path / "p", {**ASKED_BY_BOTH, "mypy.ini": "[mypy]\n"}, mypy_119())
    truth = sorted(cli_errors(root, "app"))
    assert [code for _, _, _, code, _ in truth] == ["var-annotated", "assignment"]
    daemon = daemon_of(root, tmp_path)
    disk, edited, once, once_again = _answers(root, daemon)
    assert disk == truth and len(edited) == 3
    assert (once, once_again, daemon.partial_once) == (True, False, False)
    assert daemon.vouched == {("app/alive.py", "w"): 1}


HIDING = {
    **PARTIAL,
    "app/alive.py": PARTIAL["app/alive.py"].replace(
        "set()\n", "set()  # type: ignore[var-annotated]\n"
    )
    + "\n\ndef names() -> set[str]:\n    return _KEEP_ALIVE\n",
}
DISABLING = {
    **PARTIAL,
    "app/alive.py": HIDING["app/alive.py"].replace("  # type: ignore[var-annotated]", ""),
}


@pytest.mark.parametrize(
    ("files", "config"),
    [
        (HIDING, "[mypy]\n"),
        (DISABLING, "[mypy]\ndisable_error_code = var-annotated\n"),
        (DISABLING, "[mypy-app.*]\ndisable_error_code = var-annotated\n"),
    ],
    ids=["ignored", "disabled", "disabled-per-module"],
)
def test_a_hidden_annotation_error_is_mypys_answer(
    tmp_path: Path, files: dict[str, str], config: str
) -> None:
    """dmypy's `set[Any]` said nothing where mypy's `set[int]` is a return-value error."""
    root = project(tmp_path / "p", {**files, "mypy.ini": config}, mypy_119())
    truth = sorted(cli_errors(root, "app"))
    assert [code for _, _, _, code, _ in truth] == ["return-value", "assignment"]
    daemon = daemon_of(root, tmp_path)
    disk, _, once, once_again = _answers(root, daemon)
    assert (disk, once, once_again) == (truth, True, True)


def test_the_configuration_turning_them_on_leaves_dmypy_answering(tmp_path: Path) -> None:
    """`partial_once` held for the daemon's life: a configuration made to agree with dmypy
    (`local_partial_types = True`) still paid mypy run once for every question."""
    root = project(tmp_path / "p", {**PARTIAL, "mypy.ini": "[mypy]\n"}, mypy_119())
    daemon = daemon_of(root, tmp_path)
    _, _, once, _ = _answers(root, daemon)
    assert once and daemon.partial_once
    (root / "mypy.ini").write_text("[mypy]\nlocal_partial_types = True\n")
    truth = sorted(cli_errors(root, "app"))
    disk, _, once, once_again = _answers(root, daemon)
    assert (disk, once, once_again) == (truth, False, False)


def test_the_annotations_an_output_asks_for() -> None:
    text = 'app/a.py:3:1:3:2: error: Need type annotation for "x" (hint: ...)  [var-annotated]'
    json_line = '{"file": "app/b.py", "line": 2, "message": "Need type annotation for \\"y\\"",'
    json_line += ' "code": "var-annotated"}'
    other = 'app/c.py:1: error: Name "var-annotated" is not defined  [name-defined]'
    found = mypy_partial.asked("\n".join([text, json_line, other, "{broken var-annotated"]))
    assert found == {("app/a.py", "x"): 1, ("app/b.py", "y"): 1}


# the same name asked in a function (mypy too) and made at the top (dmypy alone)
ASKED_TWICE = {
    **PARTIAL,
    "app/alive.py": (
        "def f() -> None:\n    result = []\n\n\nresult = []\n\n\n"
        "def g() -> None:\n    result.append(1)\n"
    ),
}


def test_a_name_asked_more_often_than_mypy_asks_it_is_mypys_answer(tmp_path: Path) -> None:
    """mypy 1.19 asks `result` once (the function's), dmypy twice: the name was vouched
    for after the first answer, and every later dmypy answer said the second, an error
    the gate never says."""
    root = project(tmp_path / "p", {**ASKED_TWICE, "mypy.ini": "[mypy]\n"}, mypy_119())
    truth = sorted(cli_errors(root, "app"))
    assert [(line, code) for _, line, _, code, _ in truth] == [
        (2, "var-annotated"),
        (1, "assignment"),
    ]
    daemon = daemon_of(root, tmp_path)
    disk, edited, once, once_again = _answers(root, daemon)
    assert (disk, once, once_again, daemon.partial_once) == (truth, True, True, True)
    assert [code for _, _, _, code, _ in edited] == ["var-annotated", "assignment", "assignment"]
