"""mypy stopped before checking any file, at the project's layout: two files of one module
name (`Duplicate module named "tutorial001"`: fastapi 0.165.0's docs_src holds many
tutorial001.py, none in a package) or one file under two names. mypy's own run exits 2
there ("errors prevented further checking") and checks nothing, whatever the change; the
check answered it as one error at line -1 and a stop, so a proof said '0 new' and the stop
gate said to fix a syntax error. It is the configuration's to settle, not the code's: the
check is refused, saying what mypy said, which files lspd gave it and why (`mypy_scope`:
the configuration's `files`, else every Python file of the project), and what makes them
one module each (`files`, `exclude`, packages).

A layout the change made is no configuration's: where a file mypy names is none git tracks
(new since HEAD, or a preview's, not on the disk), mypy's stop is the answer, its error
introduced (`tools/run.py` added beside `scripts/run.py`: check --baseline HEAD was refused,
"nothing of this project can be checked", where mypy's own run at HEAD checked it; now 1
new, `Duplicate module named "run"`, and the stop).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from lspd.engine.revisions import git
from lspd.errors import InvalidInput
from lspd.workspace import Workspace
from lspd.workspace.mypy_config import MypyConfig
from lspd.workspace.mypy_scope import EVERY

# What mypy's module finding says where two sources make one module, or one source two.
LAYOUT = ("Duplicate module named ", "Source file found twice under different module names")
_ALSO_AT = re.compile(r'\(also at "([^"]+)"\)')


class _Error(Protocol):
    @property
    def message(self) -> str: ...


def refuse_layout(
    ws: Workspace,
    config: MypyConfig | None,
    errors: Mapping[Path, Sequence[_Error]],
    chose: Callable[[], str] | None = None,
) -> None:
    """Raise `InvalidInput` where the errors of a stopped run (of the project configured
    by `config`) hold one of the project's layout (`LAYOUT`), saying what mypy said and
    what the configuration can do; not where the change made it (`_tracked`). `chose`:
    what chose the files mypy was given (the scope's note), asked only to refuse."""
    for path, error in ((p, e) for p, said in errors.items() for e in said):
        if error.message.startswith(LAYOUT) and _tracked(ws, config, path, error.message):
            note = None if chose is None else chose()
            raise InvalidInput(refusal(ws, config, path, error.message, note))


def _tracked(ws: Workspace, config: MypyConfig | None, path: Path, message: str) -> bool:
    """Whether the files of a layout error (`path`, and the one it is `also at`, relative
    to the project) are each on the disk and tracked by git: the project's own layout.
    Outside git, whose they are is not known: the project's."""
    directory = config.path.parent if config is not None else ws.root
    files = [path, *(directory / other for other in _ALSO_AT.findall(message))]
    if git(ws.root, "rev-parse", "--show-toplevel") is None:
        return True
    if not all(f.is_file() for f in files):
        return False  # held by a preview alone
    return git(ws.root, "ls-files", "--error-unmatch", "--", *map(str, files)) is not None


def refusal(
    ws: Workspace, config: MypyConfig | None, path: Path, message: str, note: str | None = None
) -> str:
    """The refusal: mypy's error, the files lspd gave it and why (`note`: the scope's, where
    neither its configuration's `files` nor every file chose them), what to write."""
    if config is None:
        where = "a mypy configuration"
        given = "every Python file of the project (it has no mypy configuration)"
    else:
        where = ws.display(config.path)
        label = config.label
        if config.files:
            given = f"the files {label} names (files = {', '.join(config.files)})"
        else:
            given = f"every Python file of the project ({label} names no `files`)"
    if note is not None and not note.startswith(EVERY) and not (config and config.files):
        given = f"the files its gate runs mypy on ({note})"
    return (
        f"mypy stopped before checking any file, at {ws.display(path)}: {message} (mypy's "
        f"own run exits 2 there: errors prevented further checking); lspd gives mypy "
        f"{given}, so nothing of this project can be checked: in {where}, name the files "
        "your own mypy checks (files = [...]: the packages your CI runs it on), leave the "
        "duplicates out (exclude = [...]), or make each a module of its own (an "
        "__init__.py in their directories, or explicit_package_bases with mypy_path)"
    )
