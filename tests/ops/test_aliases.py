"""Hover unfolds the type aliases it names, on real basedpyright and typescript-language-server."""

from __future__ import annotations

import pytest

from lspd.ops import navigation
from tests.conftest import warm_workspace


@pytest.mark.parametrize(
    ("fixture", "path", "at", "shown", "alias"),
    [
        (
            "aliases_py",
            "pkg/auth.py",
            (13, 10),
            "auth: AuthTypes | UseClientDefault | None",
            "AuthTypes = (tuple[str, str] | Callable[[str], str])",
        ),
        (
            "aliases_ts",
            "src/auth.ts",
            (7, 22),
            "auth: AuthTypes | UseClientDefault | null",
            "export type AuthTypes = [string, string] | ((request: string) => string)",
        ),
    ],
)
def test_hover_adds_the_definition_of_each_alias_it_names(
    tmp_path_factory: pytest.TempPathFactory,
    fixture: str,
    path: str,
    at: tuple[int, int],
    shown: str,
    alias: str,
) -> None:
    for warm in warm_workspace(fixture, tmp_path_factory):
        result = warm.run(navigation.hover(warm.ws, path, *at))
        assert shown in result.contents
        # One line per alias; the class it also names is no alias.
        assert result.contents.endswith(f"\n\nAliases:\n```\n{alias}\n```")


@pytest.mark.parametrize(
    ("fixture", "path", "content", "at", "alias"),
    [
        (
            "aliases_py",
            "pkg/fresh.py",
            "from pkg.auth import send\n\nx = send\n",
            (3, 1),
            "AuthTypes = (tuple[str, str] | Callable[[str], str])",
        ),
        (
            "aliases_ts",
            "src/fresh.ts",
            'import { send } from "./auth";\nexport const x = send;\n',
            (2, 14),
            "export type AuthTypes = [string, string] | ((request: string) => string)",
        ),
    ],
)
def test_an_alias_the_file_does_not_name_is_found_by_the_index(
    tmp_path_factory: pytest.TempPathFactory,
    fixture: str,
    path: str,
    content: str,
    at: tuple[int, int],
    alias: str,
) -> None:
    for warm in warm_workspace(fixture, tmp_path_factory):
        # A file still to come, asked about by its content: nothing is left behind.
        result = warm.run(navigation.hover(warm.ws, path, *at, content=content))
        assert "(auth: AuthTypes | UseClientDefault | " in result.contents
        assert result.contents.endswith(f"\n\nAliases:\n```\n{alias}\n```")
        assert not (warm.root / path).exists()
        assert not warm.ws.holds(warm.ws.resolve(path))
