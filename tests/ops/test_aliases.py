"""Hover unfolds the type aliases it names, on real basedpyright and typescript-language-server."""

from __future__ import annotations

import pytest

from lspd.ops import navigation
from tests.conftest import Warm, warm_workspace


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


def _asked(warm: Warm, path: str) -> int:
    """The number of requests sent to the server of `path` so far (its next request id)."""
    session = warm.ws.session_for(warm.ws.resolve(path))
    assert session._server is not None
    ids = session._server.connection._ids  # itertools.count: its repr is the next id
    return int(repr(ids).removeprefix("count(").removesuffix(")"))


def test_a_name_the_file_declares_costs_no_request(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for warm in warm_workspace("aliases_py", tmp_path_factory):
        first = warm.run(navigation.hover(warm.ws, "pkg/auth.py", 13, 5))
        before = _asked(warm, "pkg/auth.py")
        again = warm.run(navigation.hover(warm.ws, "pkg/auth.py", 13, 5))
        # The alias is read from this file's own line, the class is no alias: only the hover.
        assert _asked(warm, "pkg/auth.py") == before + 1
        assert again.contents == first.contents
        assert first.contents.endswith(
            "\n\nAliases:\n```\nAuthTypes = (tuple[str, str] | Callable[[str], str])\n```"
        )


def test_an_imported_alias_is_asked_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    content = "from pkg.auth import AuthTypes\n\n\ndef use(a: AuthTypes) -> None: ...\n"
    for warm in warm_workspace("aliases_py", tmp_path_factory, watch=True):
        path = "pkg/use.py"
        (warm.root / path).write_text(content)
        first = warm.run(navigation.hover(warm.ws, path, 4, 5))
        before = _asked(warm, path)
        again = warm.run(navigation.hover(warm.ws, path, 4, 5))
        assert _asked(warm, path) == before + 1  # the definition of the import: kept
        assert first.contents == again.contents
        assert first.contents.endswith(
            "\n\nAliases:\n```\nAuthTypes = (tuple[str, str] | Callable[[str], str])\n```"
        )
