"""The daemon's kept copy (`kept_copy`) tells its basedpyright of a module a preview adds in
a folder of the configuration's `exclude` so that its importer resolves it, as the CLI
does once the patch is written: the server drops a watched-file event of a file it does not
track (`pyright_watch`), so a second preview's new module there was `could not be
resolved`, its use's error unsaid. Real basedpyright against its CLI."""

from __future__ import annotations

from pathlib import Path

from tests.engine.test_affected import watched, written
from tests.engine.test_python_mirror import cli, preview, rows
from tests.workspace.test_sync_excluded import CHECKS, EXCLUDED, MODULE, USE


def test_a_second_preview_adding_a_module_in_an_excluded_folder_resolves_it(
    tmp_path: Path,
) -> None:
    root = written(tmp_path / "p", EXCLUDED)
    for warm in watched(root, tmp_path / "logs"):
        for name in ("a", "b"):  # the first makes the copy, cold; the second is told
            change = {
                f"tools/scratch/{name}.py": MODULE,
                "tools/checks.py": CHECKS + USE.replace("scratch.mod", f"scratch.{name}"),
            }
            truth = cli(written(tmp_path / name, {**EXCLUDED, **change}))
            assert [(r[0], r[1], r[3]) for r in truth] == [
                ("tools/checks.py", 11, "reportOperatorIssue")
            ]
            changes = preview(warm, change)
            assert (rows(changes.introduced), changes.fixed) == (truth, [])
