"""The hooks a pre-commit configuration runs: each of its repositories' hooks, less those of
the manual stage alone. A hook of `stages: [manual]` runs only when asked by name
(`pre-commit run --hook-stage manual ...`), neither on a commit nor in `pre-commit run
--all-files`: pytest's pyright hook ("Manual because passing pyright is a work in
progress") is no gate of it, and basedpyright's 301 diagnostics were lspd's answer where
its gate, mypy, said 0. Such a hook runs where the repository's own CI workflows or scripts
run that stage (`--hook-stage manual`): the one hook the run names, every one where it
names none (`pre-commit run --hook-stage manual --all-files`).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from lspd.workspace.files import read_text
from lspd.workspace.mypy_scripts import script_paths
from lspd.workspace.workflow_runs import WORKFLOWS, workflows

CONFIG_NAME = ".pre-commit-config.yaml"
_MANUAL = re.compile(r"^.*--hook-stage[= ]+manual\b.*$", re.M)
_MOST_BYTES = 256_000  # a file this large runs no stage lspd reads
# `pre-commit run`'s options taking a value (the value names no hook), and the end of a command
_VALUED = {"--hook-stage", "--from-ref", "--to-ref", "-s", "-o", "--source", "--origin"}
_VALUED |= {"-c", "--config", "--color", "--remote-branch", "--local-branch", "--remote-name"}
_VALUED |= {"--remote-url", "--checkout-type", "--commit-msg-filename", "--commit-object-name"}
_VALUED |= {"--prepare-commit-message-source", "--is-squash-merge", "--rewrite-command"}
_END = {";", "&&", "||", "|", "&"}


class ManualRun(NamedTuple):
    """Which hooks of the manual stage alone the repository's workflows and scripts run."""

    every: bool  # a run naming no hook: each of them
    named: frozenset[str]  # the hooks the other runs name

    def runs(self, hook: dict[str, Any]) -> bool:
        """Whether the hook (a configuration's table) is run: named by its id or alias."""
        return self.every or not self.named.isdisjoint({str(hook.get("id")), hook.get("alias")})


def config_over(directory: Path) -> Path | None:
    """The pre-commit configuration over the project at `directory`: in it or a folder
    above, up to the repository's top; None without one."""
    for folder in (directory, *directory.parents):
        if (path := folder / CONFIG_NAME).is_file():
            return path
        if (folder / ".git").exists():
            return None
    return None


def config_hooks(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any], list[Path]]:
    """The hooks the pre-commit configuration at `path` runs, its top-level table, and the
    files read beside it (whose change can change which run). Raises `yaml.YAMLError` where
    it is no YAML (or holds a value YAML cannot make); none where it is no table."""
    try:
        body = yaml.safe_load(read_text(path) or "")
    except ValueError as exc:  # a value YAML cannot make (`rev: 2024-02-30`, a date)
        raise yaml.YAMLError(str(exc)) from None
    if not isinstance(body, dict):
        return [], {}, []
    listed = listed_hooks(body)
    default = body.get("default_stages")
    manual = [hook for hook in listed if _manual_only(hook.get("stages", default))]
    if not manual:
        return listed, body, []
    run, read = manual_stage_run(path.parent)
    return [hook for hook in listed if hook not in manual or run.runs(hook)], body, read


def listed_hooks(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every hook a pre-commit configuration's top-level table (`body`) lists, those of
    the manual stage alone too."""
    return [hook for repo in _listed(body.get("repos")) for hook in _listed(repo.get("hooks"))]


def manual_stage_run(top: Path) -> tuple[ManualRun, list[Path]]:
    """Which hooks of pre-commit's manual stage the CI workflows or scripts of the repository
    whose top is `top` run, and the files and folders read to say it."""
    read = stage_paths(top)
    named: set[str] = set()
    for path in read:
        try:
            if not path.is_file() or path.stat().st_size > _MOST_BYTES:
                continue
            lines = _MANUAL.findall(path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        for line in lines:
            if (hook := _named_hook(line)) is None:
                return ManualRun(True, frozenset()), read
            named.add(hook)
    return ManualRun(False, frozenset(named)), read


def _named_hook(line: str) -> str | None:
    """The hook a line running the manual stage names (`pre-commit run --hook-stage manual
    pyright`, the pre-commit action's `extra_args: pyright --hook-stage manual`); None where
    it names none or cannot be read: every hook runs."""
    words = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    words.whitespace_split = True
    try:
        listed = list(words)
    except ValueError:  # an unclosed quote
        return None
    starts = [i + 1 for i, w in enumerate(listed) if w.endswith("extra_args:")]
    starts += [i + 2 for i, w in enumerate(listed[:-1]) if _precommit(w, listed[i + 1])]
    if not starts:
        return None
    skip = files = False  # the next word an option's value; the words a `--files` list
    for word in listed[max(starts) :]:
        if word in _END:
            break
        if skip:
            skip = False
        elif word.startswith("-"):
            skip, files = word in _VALUED, word == "--files"
        elif not files:  # a placeholder or a redirection (`{posargs}`, `$HOOK`, `2>`): each
            return None if any(c in word for c in "{}$<>") else word
    return None


def _precommit(word: str, after: str) -> bool:
    """Whether `word` and the word `after` it run pre-commit's hooks (a path to it, `prek`
    its rewrite)."""
    return word.rsplit("/", 1)[-1] in ("pre-commit", "prek") and after == "run"


def stage_paths(top: Path) -> list[Path]:
    """The files and folders saying whether the repository at `top` runs the manual stage:
    its workflows' folder and each workflow, the scripts lspd reads for mypy's targets
    (`mypy_scripts.script_paths`: a Makefile, tox.ini, a justfile, `scripts/*`, ...)."""
    return [top / WORKFLOWS, *workflows(top / WORKFLOWS), *script_paths(top)]


def _manual_only(stages: Any) -> bool:
    """Whether a hook's `stages` (or the configuration's `default_stages`) are the manual
    stage alone."""
    return isinstance(stages, list) and bool(stages) and set(map(str, stages)) == {"manual"}


def _listed(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
