"""TypeScript's reading of the tsconfigs (`workspace/tsconfig_scope.py`): Node's compiled code of
that run is kept in lspd's cache directory, and the answer is the same with it or without."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lspd.servers.registry import definitions
from lspd.workspace import typescript_projects
from lspd.workspace.tsconfig_scope import COMPILE_CACHE, TsConfig, read_tsconfigs


def readings(monkeypatch: pytest.MonkeyPatch) -> list[list[Path]]:
    """The configs of each reading the gate's scope asks of TypeScript (`read_tsconfigs`;
    one asked of a TypeScript 7, which has no API, is counted too)."""
    found: list[list[Path]] = []

    def counted(configs: list[Path], *rest: Any) -> list[TsConfig]:
        found.append(configs)
        return read_tsconfigs(configs, *rest)

    monkeypatch.setattr(typescript_projects, "read_tsconfigs", counted)
    return found


def project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.ts").write_text("export const a = 1;\n")
    (root / "src" / "b.ts").write_text("export const b = 2;\n")
    (root / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}, "include": ["src"]}')
    return root / "tsconfig.json"


def test_nodes_compiled_code_is_kept_in_lspds_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typescript = definitions()["typescript-language-server"].npm_root() / "typescript"
    config = project(tmp_path / "p")
    cache = tmp_path / "cache"
    monkeypatch.setenv("LSPD_CACHE_DIR", str(cache))
    [first] = read_tsconfigs([config], typescript)
    kept = [p for p in (cache / COMPILE_CACHE).rglob("*") if p.is_file()]
    assert kept and all(p.stat().st_size > 0 for p in kept)  # Node 24 of the wheel wrote it
    [again] = read_tsconfigs([config], typescript)  # read back from the cache
    assert again == first
    assert first.files == (config.parent / "src" / "a.ts", config.parent / "src" / "b.ts")


def test_a_cache_node_cannot_make_answers_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typescript = definitions()["typescript-language-server"].npm_root() / "typescript"
    config = project(tmp_path / "p")
    (tmp_path / "cache").write_text("a file where the folder would be\n")
    monkeypatch.setenv("LSPD_CACHE_DIR", str(tmp_path / "cache"))
    [read] = read_tsconfigs([config], typescript)
    assert read.files == (config.parent / "src" / "a.ts", config.parent / "src" / "b.ts")
    assert (tmp_path / "cache").is_file()
