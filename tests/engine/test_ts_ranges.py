"""`typesVersions` ranges against TypeScript 7's releases."""

from __future__ import annotations

import pytest

from lspd.engine.ts_ranges import Sevens, sevens


@pytest.mark.parametrize(
    ("text", "matched"),
    [
        ("<5.4", Sevens.NONE),  # kysely's
        (">=3.1 <4", Sevens.NONE),
        ("3.1 - 4.0", Sevens.NONE),
        ("^6", Sevens.NONE),
        (">7", Sevens.NONE),  # a partial version's next: 8.0.0 and up
        ("*", Sevens.EVERY),
        (">=4.8", Sevens.EVERY),  # jotai's
        (">=7.0.0-beta", Sevens.EVERY),
        ("<=7", Sevens.EVERY),
        ("7.x", Sevens.EVERY),
        ("^6 || ^7", Sevens.EVERY),
        ("6 - 7", Sevens.EVERY),
        ("<7.1", Sevens.SOME),
        ("~7.1", Sevens.SOME),
        ("^7.2.1", Sevens.SOME),
        ("=7.0.2", Sevens.SOME),
        ("latest", Sevens.SOME),  # unread: followed
    ],
)
def test_a_range_matches_the_releases_typescript_gives_it(text: str, matched: Sevens) -> None:
    assert sevens(text) is matched
