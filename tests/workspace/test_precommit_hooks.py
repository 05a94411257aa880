"""The hooks a pre-commit configuration runs (`workspace/precommit_hooks.py`): a hook of the
manual stage alone only where the repository's CI or scripts run that stage."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lspd.workspace.precommit_hooks import ManualRun, config_hooks, manual_stage_run

CONFIG = """\
default_stages: [pre-commit, pre-push]
repos:
- repo: local
  hooks:
  - {id: a, entry: mypy}
  - {id: b, entry: pyright, stages: [manual]}
  - {id: c, entry: ruff, stages: [manual, pre-push]}
- repo: x
- hooks: not a list
"""


def test_the_hooks_run_leave_those_of_the_manual_stage_alone(tmp_path: Path) -> None:
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text(CONFIG)
    hooks, body, read = config_hooks(path)
    assert [hook["id"] for hook in hooks] == ["a", "c"]
    assert body["default_stages"] == ["pre-commit", "pre-push"]
    assert {tmp_path / ".github/workflows", tmp_path / "tox.ini", tmp_path / "scripts"} <= set(read)


@pytest.mark.parametrize(
    ("name", "text", "run"),
    [
        (".github/workflows/lint.yaml", "- run: pre-commit run -a --hook-stage=manual b", "b"),
        (".github/workflows/l.yml", "  with:\n    extra_args: b --hook-stage manual -a", "b"),
        ("tox.ini", "[testenv:types]\ncommands = pre-commit run --hook-stage manual\n", "bc"),
        ("Makefile", "types:\n\tpre-commit run --all-files --hook-stage   manual\n", "bc"),
        ("Justfile", "t:\n    prek run --hook-stage manual --files a.py b.py\n", "bc"),
        ("scripts/lint", "pre-commit run --color never --hook-stage manual c && x\n", "c"),
        ("tox.ini", "commands = pre-commit run -a --hook-stage manual {posargs}\n", "bc"),
        ("Makefile", "t:\n\tpre-commit run --hook-stage manual 2>&1 | tee log\n", "bc"),
        ("scripts/types", "pre-commit run --hook-stage manual types\n", "c"),  # c's alias
    ],
)
def test_a_manual_stage_run_by_the_repository_runs_the_hooks_it_names(
    tmp_path: Path, name: str, text: str, run: str
) -> None:
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text(CONFIG.replace("[manual, pre-push]", "[manual], alias: types"))
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert [hook["id"] for hook in config_hooks(path)[0]] == ["a", *run]
    assert tmp_path / name in manual_stage_run(tmp_path)[1]


def test_every_run_of_the_stage_counts(tmp_path: Path) -> None:
    (tmp_path / "tox.ini").write_text("commands = pre-commit run --hook-stage manual b\n")
    (tmp_path / "Makefile").write_text("x:\n\tpre-commit run --hook-stage manual 'c\n")
    assert manual_stage_run(tmp_path)[0] == ManualRun(every=True, named=frozenset())
    (tmp_path / "Makefile").write_text("x:\n\tpre-commit run c --hook-stage manual\n")
    assert manual_stage_run(tmp_path)[0] == ManualRun(every=False, named=frozenset("bc"))


def test_default_stages_manual_leaves_the_hooks_naming_none(tmp_path: Path) -> None:
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text(
        "default_stages: [manual]\nrepos:\n- hooks: [{id: a}, {id: b, stages: [pre-commit]}]\n"
    )
    assert [hook["id"] for hook in config_hooks(path)[0]] == ["b"]
    (tmp_path / "tox.ini").write_text("commands = pre-commit run --hook-stage manually\n")
    assert manual_stage_run(tmp_path)[0] == ManualRun(False, frozenset())  # no such stage


def test_what_is_no_table_runs_nothing_and_no_yaml_raises(tmp_path: Path) -> None:
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text("- a list\n")
    assert config_hooks(path) == ([], {}, [])
    for text in ("repos: [\n", "repos:\n- repo: x\n  rev: 2024-02-30\n"):  # no such date
        path.write_text(text)
        with pytest.raises(yaml.YAMLError):
            config_hooks(path)
