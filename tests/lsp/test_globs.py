"""LSP glob patterns, as servers register them for watched files."""

from __future__ import annotations

from pathlib import Path

import pytest

from lspd.lsp.globs import WATCH_CHANGE, WATCH_CREATE, WATCH_DELETE, compile_glob, file_watchers

ROOT = Path("/work/project")


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**/*.py", "pkg/app.py", True),
        ("**/*.py", "app.py", True),
        ("**/*.py", "pkg/app.pyi", False),
        ("**/*.{py,pyi}", "pkg/app.pyi", True),
        ("*.py", "pkg/app.py", False),  # `*` stays inside one segment
        ("src/**", "src/a/b/c.ts", True),
        ("**/pyrightconfig.json", "pyrightconfig.json", True),
        ("**/?.go", "cmd/a.go", True),
        ("**/[!_]*.py", "pkg/_private.py", False),
        ("**/[a-c]*.py", "pkg/b.py", True),
        ("**", "anything/at/all", True),
    ],
)
def test_glob_dialect(pattern: str, path: str, matches: bool) -> None:
    assert (compile_glob(pattern).match(path) is not None) is matches


def test_watchers_of_a_registration_with_plain_and_relative_patterns() -> None:
    registration = {
        "id": "1",
        "method": "workspace/didChangeWatchedFiles",
        "registerOptions": {
            "watchers": [
                {"globPattern": "**/*.py"},
                {
                    "globPattern": {"baseUri": "file:///usr/lib/python3", "pattern": "**"},
                    "kind": WATCH_CREATE | WATCH_DELETE,
                },
            ]
        },
    }
    plain, library = file_watchers(registration, ROOT)
    assert plain.matches(ROOT / "pkg" / "app.py", WATCH_CHANGE)
    assert not plain.matches(Path("/elsewhere/app.py"), WATCH_CHANGE)  # outside its base
    # a plain glob is the server's for each of its workspace folders (a second one, svc/)
    assert plain.matches(Path("/elsewhere/app.py"), WATCH_CHANGE, [Path("/elsewhere")])
    assert not library.matches(Path("/srv/os.py"), WATCH_CREATE, [Path("/srv")])
    assert library.matches(Path("/usr/lib/python3/os.py"), WATCH_CREATE)
    assert not library.matches(Path("/usr/lib/python3/os.py"), WATCH_CHANGE)  # kind says no


def test_other_registrations_have_no_watchers() -> None:
    assert file_watchers({"id": "2", "method": "textDocument/diagnostic"}, ROOT) == []
