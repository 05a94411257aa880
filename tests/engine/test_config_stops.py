"""A program's options errors stop its semantic check as tsc's (`engine/config_stops.py`):
`tsc -p` says TypeScript 7.0.2's TS5108 (`"moduleResolution": "node10"`) alone where src/a.ts
holds a TS2322, and TypeScript 5.9.3's TS2688 (a `types` entry not found) alone; lspd check
said both (exit 1 each way). A parsing error (TS5023, an unknown option) stops nothing: tsc
says it and the TS2322. A syntax error stops the options errors in turn (tsc says it alone).
Real TypeScript, one-shot and in a watched daemon, against the project's own tsc -p."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from lspd.engine import config_stops
from lspd.engine.config_stops import files_named, parsing
from lspd.engine.results import FileResult
from lspd.ops import check as check_ops
from lspd.ops import file_diagnostics
from lspd.ops.check import check_all
from lspd.ops.checked import Checked, stop_line
from lspd.ops.progressive_kept import stop_said
from lspd.workspace import Workspace
from lspd.workspace.tsc_native import ConfigError
from tests.conftest import answer, warm_root
from tests.engine.test_native_check import CONFIG
from tests.workspace.toolchains import gate, own_tsc, typescript_committed

LINE = re.compile(r"^(\S+)\((\d+),(\d+)\): error TS(\d+): ", re.MULTILINE)
UNPLACED = re.compile(r"^error TS(\d+): ", re.MULTILINE)
BROKEN = "export const n: number = 'x';\n"


def _project(root: Path, options: dict[str, Any], version: str) -> Path:
    """A project whose src/a.ts holds a TS2322, its tsconfig.json's compilerOptions
    `options` over a clean set, one option a line (tsc's places are lines then)."""
    compiler = {**CONFIG["compilerOptions"], "types": [], **options}  # tsc's key order
    config = {"compilerOptions": compiler, "include": ["src"]}
    files = {"tsconfig.json": json.dumps(config, indent=2) + "\n", "src/a.ts": BROKEN}
    return typescript_committed(root, files, version)


def _truth(root: Path) -> set[tuple[str, int, str]]:
    """tsc -p's errors: (file, line, code); one said without a place is tsconfig.json's
    first line, as lspd says it."""
    out = gate(root)[1]
    found = {(p, int(line), c) for p, line, _, c in LINE.findall(out)}
    return found | {("tsconfig.json", 1, c) for c in UNPLACED.findall(out)}


def _said(checked: Checked) -> set[tuple[str, int, str]]:
    return {(r.path, d.line, d.code or "") for r in checked.results for d in r.diagnostics}


def _stops(checked: Checked) -> list[tuple[tuple[tuple[str, int], ...], frozenset[str]]]:
    return [(s.at, s.files) for s in checked.stopped]


def test_a_removed_option_stops_the_semantic_check_on_typescript_7(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts7", {"moduleResolution": "node10", "module": "commonjs"}, "7.0.2")
    assert _truth(root) == {("tsconfig.json", 7, "5108")}
    assert gate(root)[0] == 1
    once = answer(root, check_all)
    assert _said(once) == {("tsconfig.json", 7, "5108")}
    assert _stops(once) == [((("tsconfig.json", 7),), frozenset({"src/a.ts"}))]
    assert stop_line(once.stopped[0]) == (
        "tsc stopped at tsconfig.json:7 (tsc reports a program's configuration errors alone "
        "while it has any): the other errors of its 1 file(s) are not checked"
    )
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        checked = warm.run(check_all(warm.ws))
        assert (_said(checked), _stops(checked)) == (_said(once), _stops(once))
        # a syntax error stops tsc before the options: its TS1109 alone, not the kept TS5108
        (root / "src/a.ts").write_text("export const n: number = ;\n")
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        assert _truth(root) == {("src/a.ts", 1, "1109")}
        assert _said(warm.run(check_all(warm.ws))) == _truth(root)
        # the option mended: the TS2322 is tsc's answer again
        (root / "src/a.ts").write_text(BROKEN)
        config = (root / "tsconfig.json").read_text().replace('"node10"', '"bundler"')
        (root / "tsconfig.json").write_text(config.replace('"commonjs"', '"esnext"'))
        warm.run(warm.ws.refresh_open_documents(catch_up=True))
        assert _truth(root) == {("src/a.ts", 1, "2322")}
        checked = warm.run(check_all(warm.ws))
        assert (_said(checked), checked.stopped) == (_truth(root), [])


def test_a_type_library_not_found_stops_the_semantic_check_on_typescript_5(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path / "ts5", {"types": ["nope"]}, "5.9.3")
    assert (_truth(root), gate(root)[0]) == ({("tsconfig.json", 1, "2688")}, 2)
    once = answer(root, check_all)
    assert _said(once) == _truth(root)
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        checked = warm.run(check_all(warm.ws))
        assert (_said(checked), _stops(checked)) == (_truth(root), _stops(once))


def test_a_parsing_error_stops_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts7", {"bogus": 1}, "7.0.2")
    assert _truth(root) == {("tsconfig.json", 9, "5023"), ("src/a.ts", 1, "2322")}
    once = answer(root, check_all)
    assert (_said(once), once.stopped) == (_truth(root), [])


def test_no_options_error_looks_up_no_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No configuration holds an options error (most checks): no file's program is looked
    up (`_program`: stats of every folder above each file, each check: SQLAlchemy's 255
    files 50-165 ms), the answer tsc's."""
    root = _project(tmp_path / "ts7", {}, "7.0.2")
    looked: list[str] = []
    program = config_stops._program

    def looking(ws: Workspace, result: FileResult) -> Path | None:
        looked.append(result.path)
        return program(ws, result)

    monkeypatch.setattr(config_stops, "_program", looking)
    checked = answer(root, check_all)
    assert (_said(checked), checked.stopped, looked) == (_truth(root), [], [])


def test_the_baseline_errors_a_configuration_stopped_are_not_fixed(tmp_path: Path) -> None:
    root = _project(tmp_path / "ts7", {}, "7.0.2")
    config = (root / "tsconfig.json").read_text()
    (root / "tsconfig.json").write_text(config.replace('"bundler"', '"node10"'))
    assert _truth(root) == {("tsconfig.json", 7, "5108")}
    result = answer(root, lambda ws: check_ops.workspace_diagnostics(ws, baseline="HEAD"))
    changes = result.changes
    assert changes is not None
    assert [(d.path, d.line, d.code) for d in changes.introduced] == [("tsconfig.json", 7, "5108")]
    assert (changes.fixed, [s.at for s in changes.stopped]) == ([], [["tsconfig.json:7"]])
    said = stop_said(changes.stopped[0], [])
    assert said == "tsc stopped at the configuration error at tsconfig.json:7"


@pytest.mark.parametrize(
    ("code", "message", "parse"),
    [
        ("5023", "Unknown compiler option 'bogus'.", True),
        ("6046", "Argument for '--target' option must be: ...", True),
        ("1005", "'}' expected.", True),
        ("5083", "Cannot read file '/p/gone.json'.", True),
        ("6053", "File '/p/base.json' not found.", True),
        ("6053", "File '/p/src/b.ts' not found.\nThe file is in the program because:", False),
        ("2688", "Cannot find type definition file for 'nope'.", False),
        ("5108", "Option 'moduleResolution=node10' has been removed.", False),
        ("5110", "Option 'module' must be set to 'NodeNext' ...", False),
    ],
)
def test_parsing_codes(code: str, message: str, parse: bool) -> None:
    assert parsing(ConfigError(Path("/p/tsconfig.json"), 1, 1, code, message)) is parse


@pytest.mark.parametrize(
    ("version", "options", "at"),
    [
        (
            "7.0.2",
            {"moduleResolution": "node10", "module": "commonjs"},
            ("tsconfig.json", 7, "5108"),
        ),
        ("5.9.3", {"types": ["nope"]}, ("tsconfig.json", 1, "2688")),  # said without a place
    ],
)
def test_the_baseline_stopped_at_an_options_error_the_work_tree_fixed(
    tmp_path: Path, version: str, options: dict[str, Any], at: tuple[str, int, str]
) -> None:
    """HEAD's tsc said the options error alone (its program's semantic check stopped); the
    work tree mends it: the error fixed, src/a.ts's TS2322 not checked at HEAD, as a syntax
    stop's files are said. It was refused (exit 2): tsc on a copy holding HEAD's
    configuration answered nothing beside a configuration's error."""
    root = _project(tmp_path / "p", options, version)
    assert _truth(root) == {at}
    (root / "tsconfig.json").write_text(json.dumps({**CONFIG, "include": ["src"]}, indent=2))
    assert _truth(root) == {("src/a.ts", 1, "2322")}
    result = answer(root, lambda ws: check_ops.workspace_diagnostics(ws, baseline="HEAD"))
    changes = result.changes
    assert changes is not None
    assert [(d.path, d.line, d.code) for d in changes.fixed] == [at]
    assert changes.introduced == []
    stopped = [(s.at, s.files, s.not_checked) for s in changes.baseline_stopped]
    assert stopped == [([f"tsconfig.json:{at[1]}"], ["src/a.ts"], 1)]
    assert "left the gate" not in changes.scope  # its error fixed by its edit: it left nothing


EXTENDED = {  # the configurations besides tsconfig.json, and the file tsc's `files` is
    "list": ({"a.json": ["x.ts"], "b.json": ["y.ts"]}, ["./a.json", "./b.json"], "y.ts"),
    "chain": ({"a.json": ["x.ts"], "b.json": None}, "./b.json", "x.ts"),
    "nearest": ({"a.json": ["x.ts"], "b.json": ["y.ts"]}, "./b.json", "y.ts"),
    "emptied": ({"a.json": ["x.ts"], "b.json": []}, ["./a.json", "./b.json"], None),
}


@pytest.mark.parametrize("layout", sorted(EXTENDED))
def test_the_files_a_tsconfig_inherits_are_tscs(tmp_path: Path, layout: str) -> None:
    """`files_named` reads the `files` tsc takes through `extends` (`tsc --showConfig`): a
    later entry of an `extends` list overrides an earlier one, a chain's nearest wins, an
    empty list too. It took the first found, breadth first: with y.ts made since HEAD, the
    list layout's TS6053 at HEAD was missed (the reviewer's repro)."""
    bases, extends, named = EXTENDED[layout]
    files = {
        name: json.dumps({"extends": "./a.json"} if found is None else {"files": found})
        for name, found in bases.items()
    }
    files["tsconfig.json"] = json.dumps({"extends": extends, "compilerOptions": {"noEmit": True}})
    root = typescript_committed(tmp_path / layout, {**files, "x.ts": "", "y.ts": ""})
    shown = json.loads(own_tsc(root, "-p", ".", "--showConfig")).get("files", [])
    assert shown == ([] if named is None else [f"./{named}"])
    config = root / "tsconfig.json"
    for name in ("x.ts", "y.ts"):
        expected = [config] if name == named else []
        assert files_named([config], {root / name}) == expected


def test_an_editors_configuration_errors_are_no_gates_on_typescript_7(tmp_path: Path) -> None:
    """vue-router's shape: its `tsgo --build tsconfig.json` checks the root's program; its
    e2e/tsconfig.json, which no script runs, holds a removed option (TS5108). The warm
    check asked TypeScript 7's session of that folder for its configuration's errors, and
    said them (and its program's) where the one-shot check and the gate say none."""
    compiler = {**CONFIG["compilerOptions"], "types": []}
    e2e = {**compiler, "moduleResolution": "node10", "module": "commonjs"}
    files = {
        "package.json": json.dumps({"scripts": {"test:types": "tsc --build tsconfig.json"}}),
        "tsconfig.json": json.dumps({"compilerOptions": compiler, "include": ["src"]}),
        "src/a.ts": "export const one = 1;\n",
        "e2e/tsconfig.json": json.dumps({"compilerOptions": e2e}, indent=2) + "\n",
        "e2e/t.ts": 'import { one } from "../src/a";\nexport const two: number = one;\n',
    }
    root = typescript_committed(tmp_path / "ts7", files, "7.0.2")
    assert _truth(root) == set()  # the gate
    editors = own_tsc(root, "-p", "e2e", "--noEmit", "--pretty", "false")
    assert "e2e/tsconfig.json(7," in editors and "TS5108" in editors  # the editor's
    assert (_said(answer(root, check_all)), answer(root, check_all).stopped) == (set(), [])
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        warm.run(file_diagnostics.diagnostics(warm.ws, "e2e/t.ts"))  # its folder served
        checked = warm.run(check_all(warm.ws))
        assert (_said(checked), checked.stopped) == (set(), [])
