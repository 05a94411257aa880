"""A program's tsc run keeps its build state between runs (`workspace/tsc_incremental.py`),
but not across an edit of what declares globals: TypeScript 7.0.2's incremental run left
every other file's errors as they were when a script declaring a global was added, changed
or removed, or a module's `declare global` changed (a fresh `tsc -p` says TS2304 gone,
TS2345 new). Each run here says what a fresh tsc says, and checks whole exactly where a
global moved (a module's body edit keeps the build state). Real TypeScript 7.0.2 and 5.4.5."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from lspd.engine.program_runs import compiler_of
from lspd.workspace import Workspace, tsc_incremental
from tests.engine.test_affected import written
from tests.workspace.toolchains import TS7_PINNED, TS_PINNED, own_tsc, typescript_package

OPTIONS = {"strict": True, "noEmit": True, "types": [], "target": "ES2022", "module": "ESNext"}
FILES = {
    "tsconfig.json": json.dumps({"compilerOptions": OPTIONS, "include": ["src"]}),
    "src/report.ts": 'export const loud: string = shout("a");\n',
    "src/leaf.ts": "export const x = 1;\n",
}
SCRIPT = "function shout(word: TYPE): string {\n  return String(word);\n}\n"
AUGMENTED = "export {};\ndeclare global {\n  function shout(word: TYPE): string;\n}\n"
# each step: the files written (None: removed), and whether the run checks whole
STEPS: list[tuple[dict[str, str | None], bool]] = [
    ({}, True),  # the first run
    ({"src/helpers.ts": SCRIPT.replace("TYPE", "string")}, True),  # a script added
    ({"src/helpers.ts": SCRIPT.replace("TYPE", "number")}, True),  # its global's parameter changed
    ({"src/helpers.ts": None}, True),  # removed
    ({"src/g.ts": AUGMENTED.replace("TYPE", "string")}, True),  # a module's declare global added
    ({"src/g.ts": AUGMENTED.replace("TYPE", "number")}, True),  # changed
    ({"src/leaf.ts": "export const x = 2;\n"}, False),  # a module's body: the state kept
    ({"src/g.ts": "export {};\n"}, True),  # the module's declare global taken away
    ({"src/leaf.ts": SCRIPT.replace("TYPE", "string")}, True),  # a module made a script
]
PRETTY = re.compile(r"^(\S+?):(\d+):(\d+) - error TS(\d+): ", re.MULTILINE)
PLAIN = re.compile(r"^(\S+?)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_each_run_says_what_a_fresh_tsc_says_and_checks_whole_where_a_global_moved(
    tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, tsc, build_info = _program(tmp_path, version, FILES)
    drops: list[Path] = []
    drop = tsc_incremental.dropped
    monkeypatch.setattr(tsc_incremental, "dropped", lambda p: (drops.append(p), drop(p)))
    wholes, truths, answers = [], [], []
    for files, _ in STEPS:
        for name, text in files.items():
            if text is None:
                (root / name).unlink()
            else:
                (root / name).write_text(text)
        drops.clear()
        output = tsc_incremental.checked_output(tsc, root / "tsconfig.json", build_info, 120)
        assert output is not None
        answers.append(sorted(PRETTY.findall(ANSI.sub("", output))))
        truths.append(sorted(PLAIN.findall(own_tsc(root, "-p", ".", "--pretty", "false"))))
        wholes.append(bool(drops))
    assert answers == truths
    assert [len(t) for t in truths] == [1, 0, 1, 1, 0, 1, 1, 1, 0]
    assert wholes == [whole for _, whole in STEPS]
    assert build_info.exists()
    tsc_incremental.dropped(build_info)  # as a swept copy's: nothing of it is left
    assert list(build_info.parent.iterdir()) == []


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_global_edited_while_tsc_ran_is_never_trusted(
    tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The edit lands after tsc read the file and before the run's record is made (the run
    wrapped to write it then), in a run checking whole (the global moved before it too):
    the record may not take the new text for what tsc read."""
    files = {**FILES, "src/helpers.ts": SCRIPT.replace("TYPE", "string")}
    root, tsc, build_info = _program(tmp_path, version, files)
    config = root / "tsconfig.json"
    assert tsc_incremental.checked_output(tsc, config, build_info, 120) is not None
    _edited_after_next_run(monkeypatch, root / "src" / "helpers.ts")
    helpers = root / "src" / "helpers.ts"
    helpers.write_text("// moved: checked whole\n" + helpers.read_text())
    assert tsc_incremental.checked_output(tsc, config, build_info, 120) is not None
    output = tsc_incremental.checked_output(tsc, config, build_info, 120)
    assert output is not None
    truth = sorted(PLAIN.findall(own_tsc(root, "-p", ".", "--pretty", "false")))
    assert [t[3] for t in truth] == ["2345"]
    assert sorted(PRETTY.findall(ANSI.sub("", output))) == truth


@pytest.mark.parametrize("version", [TS7_PINNED, TS_PINNED])
def test_a_global_edited_while_an_incremental_run_ran_costs_one_whole_run(
    tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The edit lands while an incremental run reads: that run is run again whole, and its
    record holds the text then read (not UNSURE), so the next run with nothing moved keeps
    the build state."""
    files = {**FILES, "src/helpers.ts": SCRIPT.replace("TYPE", "string")}
    root, tsc, build_info = _program(tmp_path, version, files)
    config = root / "tsconfig.json"
    assert tsc_incremental.checked_output(tsc, config, build_info, 120) is not None
    drop = tsc_incremental.dropped
    drops: list[Path] = []
    monkeypatch.setattr(tsc_incremental, "dropped", lambda p: (drops.append(p), drop(p)))
    _edited_after_next_run(monkeypatch, root / "src" / "helpers.ts")
    (root / "src" / "leaf.ts").write_text("export const x = 2;\n")
    first = tsc_incremental.checked_output(tsc, config, build_info, 120)
    assert len(drops) == 1  # the run again, whole
    drops.clear()
    second = tsc_incremental.checked_output(tsc, config, build_info, 120)
    assert drops == []
    truth = sorted(PLAIN.findall(own_tsc(root, "-p", ".", "--pretty", "false")))
    assert [t[3] for t in truth] == ["2345"]
    assert first is not None and second is not None
    assert sorted(PRETTY.findall(ANSI.sub("", first))) == truth
    assert sorted(PRETTY.findall(ANSI.sub("", second))) == truth


def _edited_after_next_run(monkeypatch: pytest.MonkeyPatch, helpers: Path) -> None:
    """The next tsc run wrapped (once) to write the global's parameter as a number after tsc
    read the file and before the run's record is made."""
    run = tsc_incremental._run

    def edited_meanwhile(*args: Any) -> str | None:
        output = run(*args)
        monkeypatch.setattr(tsc_incremental, "_run", run)
        helpers.write_text(SCRIPT.replace("TYPE", "number"))
        return output

    monkeypatch.setattr(tsc_incremental, "_run", edited_meanwhile)


def _program(tmp_path: Path, version: str, files: dict[str, str]) -> tuple[Path, list[str], Path]:
    """The project of `files` on TypeScript `version`: its root, its tsc, a build state's path."""
    root = written(tmp_path / "ts", files)
    (root / "node_modules").mkdir()
    (root / "node_modules" / "typescript").symlink_to(typescript_package(version))
    tsc = compiler_of(Workspace(root, log_dir=tmp_path / "logs"), root / "tsconfig.json")
    assert tsc is not None
    build_info = tmp_path / "state" / "program.tsbuildinfo"
    build_info.parent.mkdir()
    return root, tsc, build_info
