"""The project's folders on its interpreter's `sys.path`, made the copy's for the mypy lspd
runs in its copy (`mypy_mirror`): every Python file mypy reads from under the project is
then the copy's, however mypy reaches it.

mypy searches, in order, the folder of the files it is given (`python_path`), `MYPYPATH`
and `mypy_path`, then its package path: the interpreter's `sys.path` after its first entry
(`pyinfo.getsearchdirs`, in mypy's own process unless `python_executable` names another),
site-packages and what their `.pth` files add among it. An editable install of the project
(`pip install -e .`, `uv sync`; hatchling's `_editable_impl_<name>.pth` naming `src/`) is
such a `.pth` entry, and it named the project on the disk: mypy in the copy found a module
the copy held deleted there (a preview of `exceptions.py`'s deletion said 0 new where mypy
says 1 import-not-found), and read the disk's text of a module the copy held edited.
Pointing `MYPYPATH` at the copy's `src/` ahead of it would not do: mypy looks for a
submodule in every base folder holding its package, so a module missing from the copy is
found in the next one, the disk's. So each mypy and dmypy lspd starts runs with this
folder first on its `PYTHONPATH` (`mypy_server.tool_env`): its `sitecustomize`
(`mypy_site_script`) moves every such entry to the same folder in the copy, in its place
in `sys.path`, and takes its own folder out: mypy's search order is the project's own, the
copy's folders in place of the disk's.
"""

from __future__ import annotations

import json
from pathlib import Path

SCRIPT = Path(__file__).with_name("mypy_site_script.py")
SITE = "site"  # beside the `users` folder (XDG_CONFIG_HOME) of the project's mypy state


def site_of(users: Path | None) -> Path | None:
    """The folder of the `sitecustomize` of the mypy state whose `users` folder is given
    (`Dmypy.users`), when `placed` wrote it; None otherwise."""
    if users is None:
        return None
    site = users.parent / SITE
    return site if (site / "sitecustomize.py").is_file() else None


def placed(users: Path, base: Path, copy: Path) -> None:
    """The `sitecustomize` moving `base`'s folders to `copy`'s, written beside `users`."""
    written(users.parent / SITE, base, copy)


def written(site: Path, base: Path, copy: Path) -> None:
    """The `sitecustomize` moving `base`'s folders to `copy`'s, written in `site` (again
    only where it differs: a server started meanwhile reads it at its start). Also the
    basedpyright of lspd's Python copy (`engine/python_mirror_site`)."""
    site.mkdir(parents=True, exist_ok=True)
    wanted = {
        "sitecustomize.py": SCRIPT.read_bytes(),
        "copy.json": json.dumps([str(base), str(copy)]).encode(),
    }
    for name, data in wanted.items():
        path = site / name
        try:
            if path.read_bytes() == data:
                continue
        except OSError:
            pass
        partial = path.with_suffix(".partial")
        partial.write_bytes(data)
        partial.replace(path)
