"""How fast `lspd check` answers after an edit, beside the project's own watch mode.

    .venv/bin/python bench/feedback.py [--only effect|ts7|sqlalchemy] [--rounds N]
                                       [--keep DIR] [--json FILE]

Three real projects at pinned versions, fetched at run time:
- effect 3.10.0 from npm (360 TypeScript files of `src/`, 193,000 lines) on TypeScript
  5.6.3. The package ships its sources but no tsconfig: the bench writes one from the
  options of the repository's tsconfig.base.json (strict, exactOptionalPropertyTypes,
  NodeNext, isolatedModules, noUnusedLocals, ...), `paths` for its self-imports
  (`effect/*`), fast-check 3.21.0 and @types/node 22.7.5 pinned. Its watch mode:
  `tsc --watch`; lspd checks it with the project's TypeScript builder.
- effect 4.1.0 from npm (572 files, 523,000 lines) on `typescript@7.0.2`, the native
  compiler (issue 29): lspd runs the project's own `tsc --lsp`; beside it the project's
  `tsc -p` (cold) and `tsc -w`.
- SQLAlchemy 2.0.36 (the sdist), its own `[tool.pyright]` in pyproject.toml given
  `include = ["lib/sqlalchemy"]` (a pyrightconfig.json would replace its settings: 4,040
  errors instead of 2,535). Its gate: basedpyright's CLI (lspd's), run again after each
  edit; it has no watch mode.

Each project: a cold check, an unchanged re-check, then `--rounds` rounds of three edits,
each checked, undone and checked again: a leaf edit (a module only the package index
imports), a body-only edit of a module many files import (a comment or a string), a
signature change of it (an export added or a type changed); SQLAlchemy two more, a comment
in `Session.get` (orm/session.py, a module of its 172-module import cycle: its body edit is
code) and a parameter of the core function made keyword-only (the issue's). lspd's daemon
(`lspd check` as a user runs it) beside the watch mode, in the same run, the same edits; the
errors of each step side by side; the resident memory of both process trees after the cold
check and after the edits, and the largest seen during the checks (every 0.5 s; TypeScript
only); lspd's again after `SETTLE_S` idle; after the cold check, each once its tree has gone
quiet. Edit times are the median over the rounds (every time in `--json`).

The proof of each edit (issue 40), in the first round: `lspd preview` of the edit before it
is written (`--file`/`--content-file`), then, once written and checked, `lspd check
--baseline HEAD` (the project is made a git repository, its sources committed, before the
daemon starts); each printed beside `lspd check`'s and the watch mode's time for the same
edit, with what it introduced. And the body-only edit once more right after the cold check
(before the helper's idle work: `body at once`), as an agent editing at once makes it.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.gate import BIN, LSPD, pyright_only, sdist

from lspd.workspace.memory import tree_rss_mb
from lspd.workspace.tsc_native import platform_package

PEAK_EVERY_S = 0.5
SETTLE_S = 15.0  # idle before the last reading of lspd's memory (idle_gc.cjs: 8 s)
Edit = tuple[str, str, str]  # (file, text replaced, by); "" replaced: appended
# A project has the first two and "signature"; SQLAlchemy all (its body edit is code: a
# comment in a module of its import cycle is the "comment" row).
EDITS = ["leaf", "body", "comment", "signature", "keyword"]


@dataclass
class Project:
    name: str
    key: str  # --only
    make: Callable[[Path], Path]
    targets: list[str]  # `lspd check` arguments
    edits: dict[str, Edit]
    language: str
    tsc: Callable[[Path], str] | None = None  # the project's tsc (TypeScript)
    gate_cold: bool = False  # also time `tsc -p` once


EFFECT_CONFIG = {
    "compilerOptions": {
        "strict": True,
        "exactOptionalPropertyTypes": True,
        "moduleDetection": "force",
        "downlevelIteration": True,
        "resolveJsonModule": True,
        "skipLibCheck": True,
        "experimentalDecorators": True,
        "moduleResolution": "NodeNext",
        "module": "NodeNext",
        "target": "ES2022",
        "lib": ["ES2022", "DOM", "DOM.Iterable"],
        "types": ["node"],
        "isolatedModules": True,
        "noUnusedLocals": True,
        "noFallthroughCasesInSwitch": True,
        "forceConsistentCasingInFileNames": True,
        "noEmit": True,
        "paths": {"effect": ["./src/index.js"], "effect/*": ["./src/*.js"]},
    },
    "include": ["src"],
}
EFFECT_PACKAGES = {"typescript": "5.6.3", "fast-check": "3.21.0", "@types/node": "22.7.5"}
EFFECT7_CONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "allowImportingTsExtensions": True,
        "target": "es2022",
        "lib": ["es2022", "dom"],
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "exactOptionalPropertyTypes": True,
        "noUnusedLocals": True,
        "noUnusedParameters": True,
        "skipLibCheck": True,
        "types": [],
    },
    "include": ["src"],
}
NPM = ["--no-audit", "--no-fund", "--loglevel=error"]


def effect(base: Path) -> Path:
    """effect 3.10.0's sources with a tsconfig written here (the package ships none)."""
    root = base / "effect"
    (root / "pack").mkdir(parents=True)
    run(["npm", "pack", "effect@3.10.0", "--silent"], root / "pack")
    run(["tar", "xzf", "effect-3.10.0.tgz"], root / "pack")
    (root / "pack" / "package" / "src").rename(root / "src")
    (root / "package.json").write_text(
        json.dumps({"name": "effect-bench", "private": True, "devDependencies": EFFECT_PACKAGES})
    )
    (root / "tsconfig.json").write_text(json.dumps(EFFECT_CONFIG, indent=2))
    run(["npm", "install", *NPM], root)
    return root


def effect7(base: Path) -> Path:
    """effect 4.1.0's sources as a project of their own, on its own TypeScript 7."""
    (base / "pack").mkdir(parents=True)
    run(["npm", "pack", "effect@4.1.0", "--silent"], base / "pack")
    run(["tar", "xzf", "effect-4.1.0.tgz"], base / "pack")
    root = base / "effect7"
    root.mkdir()
    (base / "pack" / "package" / "src").rename(root / "src")
    (root / "tsconfig.json").write_text(json.dumps(EFFECT7_CONFIG, indent=1))
    manifest = {"name": "effect-src", "private": True, "type": "module"}
    (root / "package.json").write_text(json.dumps(manifest))
    run(["npm", "install", *NPM, "typescript@7.0.2"], root)
    return root


def sqlalchemy(base: Path) -> Path:
    """SQLAlchemy's sdist, its own [tool.pyright] told to check `lib/sqlalchemy`."""
    into = base / "sqlalchemy"
    root = sdist("sqlalchemy==2.0.36", into)
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text()
    assert "\n[tool.pyright]\n" in text, "SQLAlchemy's pyproject.toml has no [tool.pyright]"
    include = '\n[tool.pyright]\ninclude = ["lib/sqlalchemy"]\n'
    pyproject.write_text(text.replace("\n[tool.pyright]\n", include, 1))
    return pyright_only(root)  # its [tool.mypy] too: basedpyright alone, as the CLI compared


CONST_TRUE = "export const constTrue: LazyArg<boolean> = constant(true)"
PROJECTS = [
    Project(
        "effect 3.10.0 (TypeScript 5.6.3)",
        "effect",
        effect,
        [],
        {
            "leaf": ("src/FiberHandle.ts", "", '\nvoid "lspd bench"\n'),
            "body": ("src/Function.ts", "should be uncallable", "should never be called"),
            "signature": (
                "src/Function.ts",
                CONST_TRUE,
                CONST_TRUE.replace("boolean", "string"),
            ),
        },
        "typescript",
        tsc=lambda root: str(root / "node_modules" / ".bin" / "tsc"),
    ),
    Project(
        "effect 4.1.0 (TypeScript 7.0.2)",
        "ts7",
        effect7,
        [],
        {
            "leaf": ("src/Glob.ts", "", "\nexport const __leaf: number = 'no';\n"),
            "body": ("src/Function.ts", "", "\n// a comment\n"),
            "signature": ("src/Function.ts", "", "\nexport const __core: number = 1;\n"),
        },
        "typescript",
        tsc=lambda root: str(root / "node_modules" / platform_package() / "lib" / "tsc"),
        gate_cold=True,
    ),
    Project(
        "SQLAlchemy 2.0.36",
        "sqlalchemy",
        sqlalchemy,
        [],
        {
            "leaf": ("lib/sqlalchemy/dialects/sqlite/json.py", "", "\nlspd_bench: int = 0\n"),
            "body": (
                "lib/sqlalchemy/util/_collections.py",
                "        return iter(list(self._data.values()))",
                "        values = list(self._data.values())\n        return iter(values)",
            ),
            "signature": (
                "lib/sqlalchemy/util/_collections.py",
                "def to_list(x: Any, default: Optional[List[Any]] = None) -> List[Any]:",
                "def to_list(x: Any, default: Optional[List[Any]] = None) -> int:",
            ),
            "comment": (
                "lib/sqlalchemy/orm/session.py",
                "        return self._get_impl(",
                "        # lspd bench: a comment\n        return self._get_impl(",
            ),
            # the issue's: a core helper's parameter made keyword-only
            "keyword": (
                "lib/sqlalchemy/util/_collections.py",
                "def to_list(x: Any, default: Optional[List[Any]] = None) -> List[Any]:",
                "def to_list(x: Any, *, default: Optional[List[Any]] = None) -> List[Any]:",
            ),
        },
        "python",
    ),
]


def run(argv: list[str], cwd: Path) -> None:
    subprocess.run(argv, cwd=cwd, check=True, capture_output=True)


def edit(root: Path, change: Edit) -> str:
    """Make the edit; returns the file's text before it."""
    path = root / change[0]
    text = path.read_text()
    if change[1]:
        assert change[1] in text, f"{change[1]!r} is not in {path}"
        path.write_text(text.replace(change[1], change[2], 1))
    else:
        path.write_text(text + change[2])
    return text


Step = tuple[float, int, float]  # (seconds, errors, load)
Key = tuple[str, int, str]  # an error: (path from the root, line, rule)


class Lspd:
    """lspd's daemon on the project, asked `lspd check` as a user would."""

    def __init__(self, root: Path, targets: list[str], state: Path) -> None:
        self.root, self.targets = root, targets
        self.env = {**os.environ, "LSPD_STATE_DIR": str(state)}
        self.unanswered = 0  # files a check named "not answered" (a server's timeout)
        self.peak = 0.0  # the largest resident MB of its tree seen during a check
        self.errors: Counter[Key] = Counter()  # the last check's errors

    def __enter__(self) -> Lspd:
        serve = [*LSPD, "serve", str(self.root), "--detach"]
        subprocess.run(serve, env=self.env, check=True, stdout=subprocess.DEVNULL)
        return self

    def __exit__(self, *_: object) -> None:
        subprocess.run([*LSPD, "stop", "--root", str(self.root)], env=self.env, capture_output=True)

    def check(self) -> Step:
        """One `lspd check`, timed. It must answer every file: a file a server did not
        answer is counted (and shown), never asked again here."""
        began = time.perf_counter()
        with tempfile.TemporaryFile("w+") as out:
            child = subprocess.Popen(
                [*LSPD, "check", "--root", str(self.root), "--json", *self.targets],
                cwd=self.root, env=self.env, stdout=out, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            # its servers' memory while it checks (a second server: engine/second_server.py)
            took = wait_sampling(child, began, self._sample)
            out.seek(0)
            done = subprocess.CompletedProcess(child.args, child.returncode, out.read(), "")
        if done.returncode == 2:
            assert child.stderr is not None
            raise SystemExit(f"lspd check failed: {done.stdout[-500:]}{child.stderr.read()[-500:]}")
        answer = json.loads(done.stdout)
        self.errors = Counter(
            (d["path"], d["line"], d.get("code") or "")
            for d in answer.get("diagnostics", [])
            if d["severity"] == "error"
        )
        self.unanswered += sum(
            s["reason"].startswith("not answered") for s in answer.get("skipped", [])
        )
        return took, int(answer["errors"]), os.getloadavg()[0]

    def baseline(self) -> Step:
        """`lspd check --baseline HEAD`, timed: the errors the edit introduced."""
        return self._proof(["check", "--baseline", "HEAD", *self.targets])

    def preview(self, change: Edit) -> Step:
        """`lspd preview` of `change` before it is written, timed: the errors it would
        introduce (the file is left as it is)."""
        path = self.root / change[0]
        text = path.read_text()
        after = text.replace(change[1], change[2], 1) if change[1] else text + change[2]
        with tempfile.NamedTemporaryFile("w", suffix=path.suffix) as content:
            content.write(after)
            content.flush()
            step = self._proof(["preview", "--file", change[0], "--content-file", content.name])
        assert path.read_text() == text, f"preview wrote {path}"
        return step

    def _proof(self, argv: list[str]) -> Step:
        began = time.perf_counter()
        done = subprocess.run(
            [*LSPD, argv[0], "--root", str(self.root), "--json", *argv[1:]],
            cwd=self.root, env=self.env, capture_output=True, text=True,
        )  # fmt: skip
        took = time.perf_counter() - began
        if done.returncode not in (0, 1):
            raise SystemExit(f"lspd {argv[0]} failed: {done.stdout[-500:]}{done.stderr[-500:]}")
        self._sample()
        answer = json.loads(done.stdout)
        if "errors" not in answer:  # the changes alone: their introduced errors
            found = answer["changes"]["introduced"]
            answer["errors"] = sum(d["severity"] == "error" for d in found)
        return took, int(answer["errors"]), os.getloadavg()[0]

    def rss_mb(self) -> float:
        return sum(tree_rss_mb(pid) or 0.0 for pid in _processes(["serve", str(self.root)]))

    def _sample(self) -> None:
        self.peak = max(self.peak, self.rss_mb())

    def parts(self) -> dict[str, float]:
        """The resident MB of each process of the daemon's tree, by what it runs."""
        found: dict[str, float] = {}
        todo = _processes(["serve", str(self.root)])
        while todo:
            pid = todo.pop()
            try:
                argv = (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            todo += [int(child) for child in children]
            name = _part(argv)
            found[name] = (
                found.get(name, 0.0)
                + (tree_rss_mb(pid) or 0.0)
                - sum(tree_rss_mb(int(child)) or 0.0 for child in children)
            )
        return {name: round(mb) for name, mb in sorted(found.items(), key=lambda kv: -kv[1])}


PARTS = {
    "tsbuilder.cjs": "builder",
    "cli.mjs": "typescript-language-server",
    "typingsInstaller.js": "typingsInstaller",
    "lspd": "daemon",
}


def _part(argv: list[str]) -> str:
    """What a process of the daemon's tree runs, in a word."""
    if any(word.endswith("tsserver.js") for word in argv):
        return "tsserver (syntax)" if "partialSemantic" in argv else "tsserver"
    for word in argv:
        if (name := PARTS.get(Path(word).name)) is not None:
            return name
    return " ".join(Path(word).name for word in argv[:2])


class TscWatch:
    """`tsc --watch` with the project's TypeScript: each step is the time from the edit to
    the last "Found N errors" line it caused. One write may make it compile twice (it saw
    the file emptied, then written): a step ends when no other compilation ends within
    `QUIET` s of the last (that wait is not counted); a "Found" line left over from a
    step never ends the next one."""

    FOUND = re.compile(r"Found (\d+) errors?\.")
    QUIET = 2.0

    def __init__(self, root: Path, tsc: str) -> None:
        argv = [tsc, "-p", ".", "--noEmit", "--watch", "--preserveWatchOutput", "--pretty", "false"]
        self.process = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, text=True)
        self.began = time.perf_counter()
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.peak = 0.0  # the largest resident MB seen, looked at every PEAK_EVERY_S
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._watch_peak, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), ""))

    def found(self, since: float) -> Step:
        last: Step | None = None
        while True:
            try:
                at, line = self.lines.get(timeout=None if last is None else self.QUIET)
            except queue.Empty:
                assert last is not None
                return last
            if not line:
                raise SystemExit("tsc --watch ended")
            if match := self.FOUND.search(line):
                last = (at - since, int(match[1]), os.getloadavg()[0])

    def rss_mb(self) -> float:
        return tree_rss_mb(self.process.pid) or 0.0

    def _watch_peak(self) -> None:
        while self.process.poll() is None:
            self.peak = max(self.peak, self.rss_mb())
            time.sleep(PEAK_EVERY_S)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def wait_sampling(
    child: subprocess.Popen[str],
    began: float,
    sample: Callable[[], None],
    every: float = PEAK_EVERY_S,
) -> float:
    """Seconds from `began` to the child's exit, `sample()` called every `every` s while it
    runs: the wait ends when the child does (a sleep between looks rounded every step up to
    the next 0.5 s: a 0.1 s check read 0.50)."""
    while True:
        try:
            child.wait(timeout=every)
            return time.perf_counter() - began
        except subprocess.TimeoutExpired:
            sample()


def tsc_once(root: Path, tsc: str) -> Step:
    """`tsc -p . --noEmit` once: the gate's own cold time."""
    began = time.perf_counter()
    done = subprocess.run(
        [tsc, "-p", ".", "--noEmit", "--pretty", "false"], cwd=root, capture_output=True, text=True
    )
    errors = len(re.findall(r"^\S+\(\d+,\d+\): error TS\d+:", done.stdout, re.MULTILINE))
    return time.perf_counter() - began, errors, os.getloadavg()[0]


def basedpyright(root: Path, peak: list[float], errors: Counter[Key] | None = None) -> Step:
    """basedpyright's CLI once: its time and errors (each added to `errors`); its process
    tree's largest resident size (looked at every 0.2 s) is added to `peak`."""
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen(
            [str(BIN / "basedpyright"), "--outputjson"], cwd=root, stdout=out, text=True
        )
        largest = [0.0]

        def sample() -> None:
            largest[0] = max(largest[0], tree_rss_mb(child.pid) or 0.0)

        took = wait_sampling(child, began, sample, every=0.2)
        out.seek(0)
        report = json.loads(out.read())
    peak.append(largest[0])
    if errors is not None:
        errors.update(
            (Path(d["file"]).relative_to(root).as_posix(),
             d["range"]["start"]["line"] + 1 if "range" in d else 1,  # an import cycle: none
             d.get("rule") or "")
            for d in report["generalDiagnostics"]
            if d["severity"] == "error"
        )  # fmt: skip
    return took, int(report["summary"]["errorCount"]), os.getloadavg()[0]


def _processes(words: list[str]) -> list[int]:
    """The pids whose command line holds every word (the bench's own daemon)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if all(w.encode() in argv for w in words):
                found.append(int(entry.name))
    return found


def _tree_cpu_s(roots: list[int]) -> float:
    """CPU seconds used so far by `roots` and every process below them."""
    total, todo = 0.0, list(roots)
    while todo:
        pid = todo.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            todo += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def settle(roots: list[int], quiet_s: float = 2.5, limit_s: float = 90.0) -> None:
    """Wait until the trees below `roots` have been quiet (under 5 % of a core) for
    `quiet_s`: the memory after the cold check is read once the work after the answer is
    done (lspd's TypeScript builder gives memory back after 1 s without a request), on both
    sides alike."""
    deadline, last = time.monotonic() + limit_s, _tree_cpu_s(roots)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = _tree_cpu_s(roots)
        if now - last < 0.05 * quiet_s:
            return
        last = now


Rows = dict[str, object]
Errors = dict[str, Counter[Key]]  # each step's errors, by "lspd STEP" / "own STEP"


def kinds(project: Project) -> list[str]:
    """The edits made to `project`, in `EDITS`' order."""
    return [kind for kind in EDITS if kind in project.edits]


def lspd_side(
    project: Project, root: Path, state: Path, rounds: int, rows: Rows, errors: Errors
) -> None:
    with Lspd(root, project.targets, state) as lspd:
        rows["lspd cold"] = lspd.check()
        errors["lspd cold"] = lspd.errors
        if "body" in project.edits:  # a body-only edit at once, before the builder's idle work
            before = edit(root, project.edits["body"])
            rows["lspd body at once"] = lspd.check()
            (root / project.edits["body"][0]).write_text(before)
            rows["lspd body at once undone"] = lspd.check()
        settle(_processes(["serve", str(root)]))
        rows["lspd rss cold"] = lspd.rss_mb()
        rows["lspd parts cold"] = lspd.parts()
        rows["lspd unchanged"] = lspd.check()
        for round in range(rounds):
            for kind in kinds(project):
                if round == 0:
                    rows[f"lspd preview {kind}"] = lspd.preview(project.edits[kind])
                before = edit(root, project.edits[kind])
                _add(rows, f"lspd {kind}", lspd.check())
                errors.setdefault(f"lspd {kind}", lspd.errors)  # the first round's
                if round == 0:
                    rows[f"lspd baseline {kind}"] = lspd.baseline()
                (root / project.edits[kind][0]).write_text(before)
                _add(rows, f"lspd {kind} undone", lspd.check())
        rows["lspd rss after"] = lspd.rss_mb()
        rows["lspd parts after"] = lspd.parts()
        # And once idle: a Node server's idle collection (servers/idle_gc.cjs) waits for
        # 8 s without work, as an agent reading an answer leaves it.
        time.sleep(SETTLE_S)
        rows["lspd rss settled"] = lspd.rss_mb()
        rows["lspd parts settled"] = lspd.parts()
        rows["lspd unanswered"] = lspd.unanswered
        rows["lspd rss peak"] = lspd.peak


def tsc_side(project: Project, root: Path, rounds: int, rows: Rows) -> None:
    assert project.tsc is not None
    tsc = project.tsc(root)
    if project.gate_cold:
        rows["own gate"] = tsc_once(root, tsc)
    watch = TscWatch(root, tsc)
    try:
        rows["own cold"] = watch.found(watch.began)
        settle([watch.process.pid])
        rows["own rss cold"] = watch.rss_mb()
        # Nothing changed: tsc --watch has nothing to do (its answer stands).
        rows["own unchanged"] = (0.0, rows["own cold"][1], os.getloadavg()[0])  # type: ignore[index]
        for _ in range(rounds):
            for kind in kinds(project):
                time.sleep(1.0)  # its watcher polls: a write right after the last is one change
                began = time.perf_counter()
                before = edit(root, project.edits[kind])
                _add(rows, f"own {kind}", watch.found(began))
                time.sleep(1.0)
                began = time.perf_counter()
                (root / project.edits[kind][0]).write_text(before)
                _add(rows, f"own {kind} undone", watch.found(began))
        rows["own rss after"] = watch.rss_mb()
        rows["own rss peak"] = watch.peak
        rows["own name"] = "tsc --watch"
    finally:
        watch.stop()


def cli_side(project: Project, root: Path, rows: Rows, errors: Errors) -> None:
    """basedpyright's CLI: a whole run for the cold state and after each edit (an undo
    gives the cold state back: not run again)."""
    peak: list[float] = []
    rows["own cold"] = basedpyright(root, peak, errors.setdefault("own cold", Counter()))
    rows["own unchanged"] = basedpyright(root, peak)
    for kind in kinds(project):
        before = edit(root, project.edits[kind])
        _add(
            rows,
            f"own {kind}",
            basedpyright(root, peak, errors.setdefault(f"own {kind}", Counter())),
        )
        (root / project.edits[kind][0]).write_text(before)
    rows["own rss cold"], rows["own rss after"] = peak[0], max(peak)
    rows["own name"] = "basedpyright CLI (a full run; peak RSS)"


def _add(rows: Rows, key: str, step: Step) -> None:
    steps = rows.setdefault(key, [])
    assert isinstance(steps, list)
    steps.append(step)


def measure(project: Project, base: Path, rounds: int) -> Rows:
    base.mkdir(parents=True, exist_ok=True)
    root = project.make(base)
    committed(root)
    rows: Rows = {"project": project.name}
    errors: Errors = {}
    lspd_side(project, root, base / "state", rounds, rows, errors)
    time.sleep(2.5)  # older than the checkers' "just written" window
    if project.tsc is not None:
        tsc_side(project, root, rounds, rows)
    else:
        cli_side(project, root, rows, errors)
        # The errors themselves, not only their count: (path, line, rule) lspd and the CLI
        # do not share, per step (the first round's).
        rows["errors differing"] = {
            step: (errors[f"lspd {step}"] - errors[f"own {step}"]).total()
            + (errors[f"own {step}"] - errors[f"lspd {step}"]).total()
            for step in ["cold", *kinds(project)]
        }
    return rows


def committed(root: Path) -> None:
    """`root` made a git repository with its sources committed (not node_modules): the
    baseline `check --baseline HEAD` compares with."""
    (root / ".gitignore").write_text("node_modules/\n")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    run([*git, "init", "-q"], root)
    run([*git, "add", "-A"], root)
    run([*git, "commit", "-q", "-m", "the bench's project"], root)


def _median(value: object) -> Step:
    if isinstance(value, tuple):
        return value  # type: ignore[return-value]
    assert isinstance(value, list) and value
    return (
        statistics.median(s[0] for s in value),
        value[-1][1],
        statistics.median(s[2] for s in value),
    )


def table(results: list[Rows]) -> str:
    lines = [
        "| project | step | lspd s (errors) | own s (errors) | load lspd / own |",
        "|---|---|---|---|---|",
    ]
    for rows in results:
        name = rows["project"]
        if "own gate" in rows:
            gate = _median(rows["own gate"])
            lines.append(f"| {name} | cold, tsc -p | | {gate[0]:.2f} ({gate[1]}) | {gate[2]:.1f} |")
        for step in ["cold", "unchanged", *EDITS]:
            if f"lspd {step}" not in rows:
                continue
            mine, own = _median(rows[f"lspd {step}"]), _median(rows[f"own {step}"])
            lines.append(
                f"| {name} | {step} | {mine[0]:.2f} ({mine[1]}) | {own[0]:.2f} ({own[1]}) | "
                f"{mine[2]:.1f} / {own[2]:.1f} |"
            )
        if "lspd body at once" in rows:
            mine, undone = (
                _median(rows["lspd body at once"]),
                _median(rows["lspd body at once undone"]),
            )
            lines.append(
                f"| {name} | body at once (right after the cold check), undone | "
                f"{mine[0]:.2f} ({mine[1]}), {undone[0]:.2f} ({undone[1]}) | | {mine[2]:.1f} |"
            )
        for when in ("cold", "after"):
            lines.append(
                f"| {name} | RSS {'after the cold check' if when == 'cold' else 'after the edits'}"
                f" | {rows[f'lspd rss {when}']:.0f} MB | {rows[f'own rss {when}']:.0f} MB "
                f"({rows['own name']}) | |"
            )
        if "own rss peak" in rows:
            lines.append(
                f"| {name} | RSS peak during the checks | {rows['lspd rss peak']:.0f} MB | "
                f"{rows['own rss peak']:.0f} MB | |"
            )
        if isinstance(differing := rows.get("errors differing"), dict):
            shown = ", ".join(f"{step} {count}" for step, count in differing.items())
            lines.append(f"| {name} | errors not shared with the gate's | {shown} | | |")
        if "lspd rss settled" in rows:
            lines.append(
                f"| {name} | RSS after the edits, then {SETTLE_S:.0f} s idle | "
                f"{rows['lspd rss settled']:.0f} MB | {rows['own rss after']:.0f} MB | |"
            )
        for when in ("cold", "after", "settled"):
            parts = rows.get(f"lspd parts {when}")
            if isinstance(parts, dict):
                said = ", ".join(f"{part} {mb}" for part, mb in parts.items())
                lines.append(f"| {name} | lspd's processes, MB, {when} | {said} | | |")
        if rows.get("lspd unanswered"):
            lines.append(f"| {name} | files not answered | {rows['lspd unanswered']} | | |")
    return "\n".join(lines)


def proofs(results: list[Rows]) -> str:
    """The proof steps of each edit beside `lspd check` and the watch mode for it: seconds
    (errors: introduced for a proof, all for a check)."""
    lines = [
        "| project | edit | preview s (introduced) | lspd check s (errors) | "
        "check --baseline HEAD s (introduced) | own s (errors) | load |",
        "|---|---|---|---|---|---|---|",
    ]
    for rows in results:
        for kind in EDITS:
            if f"lspd preview {kind}" not in rows:
                continue
            preview, baseline = rows[f"lspd preview {kind}"], rows[f"lspd baseline {kind}"]
            check, own = _median(rows[f"lspd {kind}"]), _median(rows[f"own {kind}"])
            assert isinstance(preview, tuple) and isinstance(baseline, tuple)
            lines.append(
                f"| {rows['project']} | {kind} | {preview[0]:.2f} ({preview[1]}) | "
                f"{check[0]:.2f} ({check[1]}) | {baseline[0]:.2f} ({baseline[1]}) | "
                f"{own[0]:.2f} ({own[1]}) | {preview[2]:.1f}-{baseline[2]:.1f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=[p.key for p in PROJECTS], action="append")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the three edits")
    parser.add_argument("--keep", type=Path, help="work here (kept) instead of a temp dir")
    parser.add_argument("--json", type=Path, help="write every figure here too")
    parser.add_argument("--edit", choices=EDITS, action="append", help="only these edits")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if args.only is None or p.key in args.only]
    if args.edit:  # the other edits are neither made nor timed, on either side
        chosen = [
            replace(p, edits={k: e for k, e in p.edits.items() if k in args.edit}) for p in chosen
        ]
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="lspd-feedback-") as temp:
        base = args.keep or Path(temp)
        results = [measure(project, base / project.key, args.rounds) for project in chosen]
    print(table(results))
    print()
    print(proofs(results))
    print(f"\nload average {load:.1f} at start, {os.getloadavg()[0]:.1f} at the end (2 cores)")
    if args.json:
        args.json.write_text(json.dumps({"rounds": args.rounds, "results": results}, indent=1))


if __name__ == "__main__":
    main()
