"""A held state whose Python files are not the disk's files, asked of a server rooted at a
copy of the project that holds them.

basedpyright resolves imports from the disk only, whatever documents it holds (no LSP
message makes its resolver see a file that is not on the disk, or not see one that is). So
in a state where a Python file exists that the disk lacks, or lacks one the disk has, its
importers were judged wrong: a preview of `pkg/helper.py`'s deletion held it empty, and
its importers got `"helper" is unknown import symbol` where the checker, once it is gone,
says `Import "pkg.helper" could not be resolved`; HEAD's result made after the file was
deleted held HEAD's text of it, which no import resolved, so the importers' new
reportMissingImports stood in HEAD's result too and `check --baseline HEAD` called nothing
introduced. Such a state is asked of a second server of the same definition (its settings,
its interpreter) rooted at a copy of the project made in lspd's state directory for the
question: every Python file and pyright configuration (the paths it names leaving the
project written absolute: `copied_config`), basedpyright's baseline and the files a
configuration names inside the project (`_named`), environments linked, the held
texts written in and the files held absent left out (`wanted`). lspd never writes into the
repository. A one-shot command's copy and its server are gone when the question is
answered; a daemon's are kept warm for the next question (`workspace/kept_copy.py`: its
cold start and cold check were most of a preview deleting a stub). A cold server costs a
cold check of the files asked (its own start included), so only the files importing such
a file are asked there.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from lspd.dirs import state_dir
from lspd.engine.check_files import Said
from lspd.engine.config_parts import same_settings
from lspd.engine.python_imports import importers, touched
from lspd.engine.python_mirror_site import copy_definition, site_gone
from lspd.engine.second_server import ask_all
from lspd.errors import InvalidInput
from lspd.lsp import shapes
from lspd.lsp.session import Session
from lspd.workspace import Workspace
from lspd.workspace.files import read_source, read_text
from lspd.workspace.kept_copy import Kept, Wanted, brought, told
from lspd.workspace.mypy_mirror import PYTHON, SKIPPED  # what a Python copy holds, skips
from lspd.workspace.pyright_baseline import BASELINE, is_baseline
from lspd.workspace.pyright_scope import paths_named
from lspd.workspace.python_links import aliases, copy_link, linked, real_place

CONFIGS = ("pyproject.toml", "pyrightconfig.json")  # what pyright reads beside the code

Asked = tuple[Said, list[shapes.Diagnostic], list[str]]  # who said it, its items, its lines


def mirrored(ws: Workspace, files: list[Path], texts: Mapping[Path, str | None]) -> list[Path]:
    """The files of `files` to ask of a copy: those answered by a server resolving imports
    from the disk only (servers.toml's `disk_imports`) that import, by the import statements
    of their text here (transitively through the others), a Python file of the workspace
    that `texts` make exist while the disk lacks it, or lack while the disk has it. A new
    module nothing imports yet is asked of the project's own server (a copy's cold start
    for nothing). Where `texts` hold a pyright configuration at another text than the
    disk's (a commit's, `engine/configured.py`), every file such a server answers."""
    links = linked(ws.root)  # a held text under a folder a symlink leads to: read by its
    differ = [  # name through the link from the disk (a server holds the real path's)
        path
        for path, text in texts.items()
        if path.suffix.lower() in PYTHON
        and path.is_relative_to(ws.root)
        and ((text is None) == path.is_file() or aliases(ws.root, path, links))
    ]
    # A pyright configuration (or baseline) held at other settings (a commit's, a preview's):
    # the server reads the disk's, so every file it answers is asked of the copy (not for
    # a pyproject.toml whose checkers' tables are the disk's: a version bump).
    configured = any(
        (path.name in CONFIGS or is_baseline(path))
        and path.is_relative_to(ws.root)
        and not same_settings(path, text, read_text(path), ws.root)
        for path, text in texts.items()
    )
    if not differ and not configured:
        return []
    names = {}
    for path in files:
        if ws.handler(path) is None:
            continue
        session = ws.session_for(path)
        if session.definition.disk_imports and session.root.is_relative_to(ws.root):
            text = texts[path] if path in texts else read_text(path)
            names[path] = touched(ws.root, path, text or "")
    seeing = names.keys() if configured else importers(ws.root, differ, names)
    return [path for path in files if path in seeing]


async def mirror_asked(
    ws: Workspace, files: list[Path], texts: Mapping[Path, str | None], timeout: float
) -> dict[Path, Asked]:
    """What a server rooted at a copy holding `texts` (the disk's for the rest) says of
    `files`, each asked in the list's order (pyright's answers can depend on it), a few at
    a time and shared with a second server when many, as a whole check asks
    (`engine/second_server.ask_all`); per session of the workspace that answers them. In a
    daemon the copy and its servers are kept warm for the next question
    (`workspace/kept_copy.py`)."""
    by_session: dict[Session, list[Path]] = {}
    for path in files:
        by_session.setdefault(ws.session_for(path), []).append(path)
    found: dict[Path, Asked] = {}
    if ws.changes_seen is None:  # a one-shot command: nothing would stop a kept server
        want = await asyncio.to_thread(wanted, ws.root, texts)
        async with _copy(ws.root, want) as copy:
            for session, paths in by_session.items():
                helper = _helper(ws, session, copy, want)
                found |= await _asked(ws, session, copy, paths, texts, timeout, helper, False)
        return found
    kept = ws.kept_copy
    async with kept.lock:
        kept.taken()
        try:
            want = await asyncio.to_thread(wanted, ws.root, texts)
            changes = await asyncio.to_thread(brought, kept, want)
            if changes is None:  # made anew: its servers too
                await asyncio.gather(*(h.stop() for h in kept.helpers.values()))
                kept.helpers.clear()
            for session, paths in by_session.items():
                key = (session.name, str(session.root), session.toolchain or "")
                running = kept.helpers.get(key)
                if running is not None and changes is not None:
                    told(running, kept.copy, changes)
                else:
                    running = kept.helpers[key] = _helper(ws, session, kept.copy, want)
                found |= await _asked(ws, session, kept.copy, paths, texts, timeout, running)
        except BaseException:  # its state unknown: made again by the next question
            dropped = asyncio.ensure_future(kept.dropped())
            try:  # done before the lock is let go, also when cancelled again
                await asyncio.shield(dropped)
            except asyncio.CancelledError:
                await dropped
            raise
    kept.released()
    return found


def _helper(ws: Workspace, session: Session, copy: Path, want: Wanted) -> Session:
    """A server like `session`, rooted at its project in `copy` (`want`: what it holds)."""
    helper = Session(
        copy_definition(session.definition, ws.root, copy, want),
        copy / session.root.relative_to(ws.root),
        session.log_path.parent / "mirror",
        request_timeout=session.request_timeout,
        toolchain=session.toolchain,
    )
    for folder in session.folders:
        if folder.is_relative_to(ws.root):
            helper.add_folder(copy / folder.relative_to(ws.root))
    return helper


async def _asked(
    ws: Workspace,
    session: Session,
    copy: Path,
    paths: list[Path],
    texts: Mapping[Path, str | None],
    timeout: float,
    helper: Session,
    kept: bool = True,
) -> dict[Path, Asked]:
    """`paths` asked of `helper`, a server like `session` rooted at its project in `copy`
    (`kept`: the copy's kept server, left running; else stopped here)."""
    # The first files of a server wait for its start and its load of the project, cold.
    first = max(timeout, helper.start_timeout + timeout)

    async def ask(server: Session, path: Path, wait: float) -> Asked:
        text = texts.get(path)
        if text is None:  # not held: the disk's, as the copy holds it
            text = read_source(path, ws.display(path))
        there = copy / path.relative_to(ws.root)
        language_id = server.definition.extensions[path.suffix.lower()]
        document = await server.sync_document(there, text, language_id)
        items = await server.diagnostics(document, wait)
        return Said.by(server), [_here(i, copy, ws.root) for i in items], document.lines

    try:  # many files: shared with a second server of the copy, as a whole check's
        sessions = dict.fromkeys(paths, helper)
        return await ask_all(paths, sessions, ask, (timeout, first), lambda: None, False)
    finally:
        if not kept:
            await helper.stop()


def _here(item: shapes.Diagnostic, copy: Path, root: Path) -> shapes.Diagnostic:
    """`item` naming the project's files where it names the copy's (an import cycle's
    message lists the files of the chain)."""
    message = item.get("message", "")
    if str(copy) not in message:
        return item
    named = item.copy()
    named["message"] = message.replace(str(copy), str(root))
    return named


@asynccontextmanager
async def _copy(root: Path, want: Wanted) -> AsyncIterator[Path]:
    """A copy of `root` holding `want` (`wanted`), in lspd's state directory for `root`;
    removed afterwards."""
    base = state_dir(root)
    base.mkdir(parents=True, exist_ok=True)
    copy = Path(tempfile.mkdtemp(prefix="python-copy-", dir=base))
    try:
        await asyncio.to_thread(brought, Kept(copy), want)
        yield copy
    finally:
        await asyncio.to_thread(shutil.rmtree, copy, True)
        await asyncio.to_thread(site_gone, copy)


def copied_config(root: Path, source: Path) -> bytes:
    """A pyright configuration of `root` as its copy holds it: each path it names whose way
    from the configuration's directory leaves `root` (`extraPaths = ["../shared"]`,
    `venvPath = ".."`, an execution environment's root, `extends` of a file beside the
    project) written absolute, to where it leads from the project, or relative again when
    it comes back inside (the copy has another name). Read from the copy, they led beside
    the copy, to nothing: the importers of a preview's deleted module had every import of
    `../shared` unresolved. An absolute path into the project is written relative (the
    copy's): `extraPaths = ["/abs/project/src"]` read the disk's src/, and a preview of a
    module's deletion said 0 new where the CLI says 7. One the checker cannot read is
    copied as it is (its answer says so)."""
    data = source.read_bytes()
    try:
        named = paths_named(source)
    except InvalidInput:
        return data
    text = data.decode("utf-8")
    for entry in dict.fromkeys(named):
        real = os.path.normpath(source.parent / entry)  # an absolute entry: itself
        inside = Path(real).is_relative_to(root)
        if not (inside if os.path.isabs(entry) else _leaves(root, source.parent, entry)):
            continue
        there = os.path.relpath(real, source.parent) if inside else real
        quoted = json.dumps(entry, ensure_ascii=False)  # JSON's, TOML's "..."
        text = text.replace(quoted, json.dumps(there, ensure_ascii=False))
        text = text.replace(f"'{entry}'", f"'{there}'")  # TOML's literal '...'
    return text.encode("utf-8")


def _leaves(root: Path, directory: Path, entry: str) -> bool:
    """Whether `entry`, a path relative to `directory` (inside `root`), steps out of `root`
    on its way (`..` past it), wherever it ends."""
    depth = len(directory.relative_to(root).parts)
    for part in Path(entry).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return True
    return False


def wanted(root: Path, texts: Mapping[Path, str | None]) -> Wanted:
    """What a copy of `root` holding `texts` (None: absent) holds (`kept_copy.brought` makes
    it): the files pyright reads copied, each pyright configuration as `copied_config`
    writes it and the files it names inside `root` (`_named`: a `baselineFile` of its own,
    a base configuration it `extends`), basedpyright's baseline, every folder made, its
    environments (a `pyvenv.cfg`) and linked folders linked (one leading inside `root` to
    its place in the copy: `python_links.copy_link`), then `texts` over them (one under
    such a link at its real place); the configurations, the files they name, the baseline
    and the links marked as what a server reads at its start alone."""
    want = Wanted()
    held = [path.relative_to(root) for path in texts if path.is_relative_to(root)]
    for top, dirs, files in os.walk(root):
        here = Path(top)
        rel = here.relative_to(root)
        want.folders.add(rel)
        kept = []
        for name in dirs:
            if name in SKIPPED:
                continue
            link = (here / name).is_symlink()
            if not link and (here / name / "pyvenv.cfg").exists():
                _environment(root, rel / name, held, want)
                continue
            if link:  # to its folder in the copy where it leads inside `root`
                want.links[rel / name] = copy_link(root, rel / name)
                continue
            kept.append(name)
        dirs[:] = kept
        for name in files:
            source = here / name
            if name in CONFIGS:
                want.files[rel / name] = copied_config(root, source)
                want.settings.add(rel / name)
                for named in _named(root, source):
                    want.files[named.relative_to(root)] = named
                    want.settings.add(named.relative_to(root))
            elif name.endswith(PYTHON):
                want.files[rel / name] = source
            elif (here.name, name) == BASELINE:  # without it, its errors said: called new
                want.files[rel / name] = source
                want.settings.add(rel / name)
    for path, text in texts.items():
        if not path.is_relative_to(root):
            continue
        rel = real_place(path.relative_to(root), linked(root))  # by its place in the copy
        if any(rel.is_relative_to(link) for link in want.links):  # written: in the repository
            raise InvalidInput(
                f"{rel} is in a folder the copy links to the project's (a symlinked folder), "
                "so no state holding it is made; write the change, then ask "
                "`check --baseline HEAD`"
            )
        if text is None:
            want.files.pop(rel, None)
        else:
            want.folders.update(rel.parents)
            want.files[rel] = text.encode("utf-8")
    gone = {p.relative_to(root) for p, t in texts.items() if t is None and p.is_relative_to(root)}
    written = {folder for rel in want.files for folder in rel.parents}  # a rename in it
    want.folders -= _emptied(root, gone) - written
    return want


def _emptied(root: Path, gone: set[Path]) -> set[Path]:
    """The folders under `root` that the deletion of `gone` (relative paths) empties: no
    other entry left in them, as `git apply` leaves the tree. Kept in the copy, such a
    folder was a namespace package to basedpyright (a preview deleting aiosignal/'s files
    said `"Signal" is unknown import symbol` where the CLI says `Import "aiosignal" could
    not be resolved`)."""
    emptied: set[Path] = set()
    for rel in sorted(gone, key=lambda r: len(r.parts), reverse=True):
        for folder in list(rel.parents)[:-1]:  # up to the root, not it
            if folder in emptied:
                continue
            try:
                entries = [folder / name for name in os.listdir(root / folder)]
            except OSError:
                break
            if not all(e in gone or e in emptied for e in entries):
                break
            emptied.add(folder)
    return emptied


def _environment(root: Path, rel: Path, held: list[Path], want: Wanted) -> None:
    """An environment of the project (a `pyvenv.cfg`) in the copy: linked to the project's,
    or, where a held text is in it (a module added to an installed package), made of
    folders down to each held file, their other entries linked (the rest of site-packages,
    the package's other files, `bin/`: the copy's interpreter is the environment's, with
    the copy's site-packages: `python_mirror_site`)."""
    inside = [path for path in held if path.is_relative_to(rel) and path != rel]
    if not inside:
        want.links[rel] = os.path.realpath(root / rel)
        return
    want.folders.add(rel)
    try:
        entries = sorted(os.scandir(root / rel), key=lambda e: e.name)
    except OSError:
        entries = []
    for entry in entries:
        there = rel / entry.name
        if there in inside:
            continue  # held: written, or left out (`wanted`)
        if any(path.is_relative_to(there) for path in inside) and not entry.is_symlink():
            _environment(root, there, held, want)
        else:
            want.links[there] = os.path.realpath(entry.path)


def _named(root: Path, source: Path) -> list[Path]:
    """The files of `root` the configuration `source` names: without its own `baselineFile`
    a preview called an importer's baselined error new."""
    try:
        named = paths_named(source)
    except InvalidInput:
        return []
    found = []
    for entry in dict.fromkeys(named):
        path = Path(os.path.normpath(source.parent / entry))  # absolute: written relative
        if path.is_relative_to(root) and path.is_file():
            found.append(path)
    return found
