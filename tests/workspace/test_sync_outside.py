"""A module outside `include` that an import reaches (an `executionEnvironments` entry's
`extraPaths` folder, or the execution root itself), edited in place or replaced (`git
apply`: told created, and the server kept its old text) while the daemon runs,
is taken in at once, as the CLI reads it: basedpyright's server watches only its `include`
folders as sources; it hears of an `extraPaths` folder's change by its library watcher,
5 s later, and of another folder's never, so a check asking right after the edit kept the
importer's errors of the old text, and every check after reused them (the examiner's F5:
shared2/helpers.py's `bump(v: str) -> str`, `check --baseline HEAD` and `lspd check` said
the 3 errors of its old text in tools/release.py where the CLI says none). Real
basedpyright against its CLI on the same disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import warm_root
from tests.engine.test_affected import written
from tests.engine.test_python_mirror import cli
from tests.ops.test_baseline import committed
from tests.workspace.test_sync_excluded import said

RELEASE = (
    "from helpers import bump\n\n\n"
    "def next_version(current: str) -> str:\n    return bump(current)\n"
)
OLD = "def bump(v: int) -> int:\n    return v + 1\n"
NEW = 'def bump(v: str) -> str:\n    return v + ".1"\n'
EXTRA = {  # the examiner's shape: the tools environment's extraPaths outside `include`
    "pyrightconfig.json": '{"include": ["tools"], "typeCheckingMode": "standard",'
    ' "executionEnvironments": [{"root": "tools", "extraPaths": ["shared2"]}]}\n',
    "tools/release.py": RELEASE,
    "shared2/helpers.py": OLD,
}
ROOTED = {  # a module beside `include`, found from the project's root (the execution root)
    "pyrightconfig.json": '{"include": ["tools"], "typeCheckingMode": "standard"}\n',
    "tools/__init__.py": "",
    "tools/release.py": RELEASE.replace("from helpers", "from shared2.helpers"),
    "shared2/helpers.py": OLD,
}
FILED = {  # `include` naming a file: told created, no folder's imports are resolved again
    **ROOTED,
    "pyrightconfig.json": '{"include": ["tools/release.py"], "typeCheckingMode": "standard"}\n',
}
CASES = {"extra_paths": EXTRA, "rooted": ROOTED, "filed": FILED}


def put(path: Path, text: str, replaced: bool) -> None:
    """`text` written in place (the watcher says changed), or replaced as `git apply` and
    `git checkout` write a file: deleted, written again (the watcher says created)."""
    if replaced:
        path.unlink()
        path.write_text(text)
        return
    with path.open("r+") as edited:
        edited.truncate(0)
        edited.write(text)


@pytest.mark.parametrize("replaced", [False, True], ids=["in place", "replaced"])
@pytest.mark.parametrize("case", CASES)
def test_a_module_outside_include_edited_in_place_is_read_as_the_cli_reads_it(
    tmp_path: Path, case: str, replaced: bool
) -> None:
    root = committed(written(tmp_path / "p", CASES[case]))
    before = cli(root)
    assert [(r[0], r[1], r[3]) for r in before] == [
        ("tools/release.py", 5, "reportReturnType"),
        ("tools/release.py", 5, "reportArgumentType"),
    ]
    for warm in warm_root(root, tmp_path / "logs", watch=True):
        assert said(warm) == (before, [], [])
        helpers = root / "shared2/helpers.py"
        put(helpers, NEW, replaced)
        now = said(warm)  # at once: before the server's library watcher would hear of it
        assert cli(root) == []
        assert now == ([], [], before)
        assert said(warm) == ([], [], before)  # the next check as well
        put(helpers, OLD, replaced)
        assert said(warm) == (before, [], [])
