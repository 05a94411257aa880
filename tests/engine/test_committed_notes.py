"""What the kept result's notes say of the toolchain that made it and of the configurations
edited (`engine/committed_notes`).

An edit making both checkers judge a mypy project (a pyrightconfig.json added beside its
`[tool.mypy]`) changes which servers answer, not their toolchains: the note said the same
label on both sides ("mypy 2.4.1 (api/.venv/bin/python) -> mypy 2.4.1
(api/.venv/bin/python)"); it names the servers then."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lspd.engine.committed_notes import configured, retooled
from lspd.engine.kept import KeptState, StateKey
from lspd.workspace import Workspace

LABEL = "mypy 2.4.1 (api/.venv/bin/python)"


def state(toolchain: str, servers: set[tuple[str, str | None]]) -> KeptState:
    return KeptState(StateKey("c0ffee", toolchain, "cfg"), {}, 0.0, 0, frozenset(servers))


def test_other_servers_of_the_same_toolchain_are_named(tmp_path: Path) -> None:
    was = state("a", {("mypy", LABEL)})
    now = state("b", {("mypy+basedpyright", LABEL)})
    assert asyncio.run(retooled(was, now, tmp_path)) == (
        "; the toolchain changed since its result was made (mypy -> mypy+basedpyright): "
        "checked again by it"
    )


def test_another_toolchain_is_named_by_its_label(tmp_path: Path) -> None:
    was = state("a", {("mypy", "mypy 1.13.0 (.venv/bin/python)")})
    now = state("b", {("mypy", "mypy 2.4.1 (.venv/bin/python)")})
    assert asyncio.run(retooled(was, now, tmp_path)) == (
        "; the toolchain changed since its result was made (mypy 1.13.0 (.venv/bin/python) "
        "-> mypy 2.4.1 (.venv/bin/python)): checked again by it"
    )


def test_a_server_no_longer_answering_is_said_gone(tmp_path: Path) -> None:
    """vue-router's daemon restarted with one TypeScript 7 session fewer: the note said
    "(typescript 7.0.0-dev, project -> )"."""
    ts7 = "typescript 7.0.2, project"
    was = state("a", {("typescript-native", ts7), ("typescript-native#2", ts7 + " 2")})
    now = state("b", {("typescript-native", ts7)})
    assert asyncio.run(retooled(was, now, tmp_path)) == (
        f"; the toolchain changed since its result was made ({ts7} 2 -> none): checked again by it"
    )


def test_the_refusal_names_every_configuration_to_put_back(tmp_path: Path) -> None:
    """Five tsconfigs edited: the refusal says to put them back, and names all five (it
    named the first 3: put back, the other two still refused); past 8, how many more."""
    ws = Workspace(tmp_path, log_dir=tmp_path / "logs")
    five = tuple(tmp_path / f"p{i}/tsconfig.json" for i in range(5))
    said = configured(ws, StateKey("c0ffee" * 4, "", "", five))
    assert "(p0/tsconfig.json, p1/tsconfig.json, p2/tsconfig.json, p3/tsconfig.json, " in said
    assert "put p0/tsconfig.json, p1/tsconfig.json, p2/tsconfig.json, p3/tsconfig.json, " in said
    assert "p4/tsconfig.json back as at c0ffeec0ffee" in said
    ten = tuple(tmp_path / f"p{i}/tsconfig.json" for i in range(10))
    assert "p7/tsconfig.json and 2 more back as at" in configured(
        ws, StateKey("c0ffee" * 4, "", "", ten)
    )
