"""How fast `lspd check` answers after an edit, beside the project's own watch mode.

Two real projects at pinned versions, fetched at run time:
- effect 3.10.0 from npm (360 TypeScript files of `src/`, 193,000 lines). The package ships
  its sources but no tsconfig: the bench writes one from the options of the repository's
  tsconfig.base.json (strict, exactOptionalPropertyTypes, NodeNext, isolatedModules,
  noUnusedLocals, ...), `paths` for its self-imports (`effect/*`), typescript 5.6.3,
  fast-check 3.21.0 and @types/node 22.7.5 pinned. Its watch mode: `tsc --watch`.
- SQLAlchemy 2.0.36 (the sdist), `pyrightconfig.json` including `lib/sqlalchemy`. Its
  gate: basedpyright's CLI (lspd's), run again after each edit.

Each project: a cold check, an unchanged re-check, a leaf edit (a module nothing imports
but the package index), a body-only edit of a module many files import, a signature
change of it (callers break); lspd's daemon beside the watch mode, in the same run, and the
RSS of both process trees at the end. The errors of each step are compared.

    .venv/bin/python bench/feedback.py [--only effect|sqlalchemy] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.gate import BIN, LSPD, sdist

from lspd.workspace.memory import tree_rss_mb

Edit = tuple[str, str, str]  # (file, text replaced, by)


@dataclass
class Project:
    name: str
    make: Callable[[Path], Path]
    targets: list[str]
    leaf: Edit
    body: Edit
    signature: Edit
    language: str


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
    run(["npm", "install", "--no-audit", "--no-fund", "--silent"], root)
    return root


def sqlalchemy(base: Path) -> Path:
    into = base / "sqlalchemy"
    if archives := sorted(into.glob("*.tar.gz")):  # fetched before (`--keep`): pip builds
        with tarfile.open(archives[0]) as tar:  # Cython to read the sdist's metadata
            tar.extractall(into, filter="data")
        root = next(p for p in into.iterdir() if p.is_dir())
    else:
        root = sdist("sqlalchemy==2.0.36", into)
    (root / "pyrightconfig.json").write_text('{"include": ["lib/sqlalchemy"]}\n')
    return root


CONST_TRUE = "export const constTrue: LazyArg<boolean> = constant(true)"
PROJECTS = [
    Project(
        "effect 3.10.0 (TypeScript 5.6.3)",
        effect,
        ["src/*"],
        leaf=("src/FiberHandle.ts", "", '\nvoid "lspd bench"\n'),
        body=("src/Function.ts", "should be uncallable", "should never be called"),
        signature=("src/Function.ts", CONST_TRUE, CONST_TRUE.replace("boolean", "string")),
        language="typescript",
    ),
    Project(
        "SQLAlchemy 2.0.36",
        sqlalchemy,
        ["lib/sqlalchemy/*"],
        leaf=("lib/sqlalchemy/dialects/sqlite/json.py", "", "\nlspd_bench: int = 0\n"),
        body=(
            "lib/sqlalchemy/util/_collections.py",
            "        return iter(list(self._data.values()))",
            "        values = list(self._data.values())\n        return iter(values)",
        ),
        signature=(
            "lib/sqlalchemy/util/_collections.py",
            "def to_list(x: Any, default: Optional[List[Any]] = None) -> List[Any]:",
            "def to_list(x: Any, default: Optional[List[Any]] = None) -> int:",
        ),
        language="python",
    ),
]
STEPS = ["cold", "unchanged", "leaf", "body", "signature"]


def run(argv: list[str], cwd: Path) -> None:
    subprocess.run(argv, cwd=cwd, check=True, capture_output=True)


def edit(root: Path, change: Edit) -> None:
    path = root / change[0]
    text = path.read_text()
    if change[1]:
        assert change[1] in text, f"{change[1]!r} is not in {path}"
        path.write_text(text.replace(change[1], change[2], 1))
    else:
        path.write_text(text + change[2])


class Lspd:
    """lspd's daemon on the project, asked `lspd check` as a user would."""

    def __init__(self, root: Path, targets: list[str], state: Path) -> None:
        self.root, self.targets = root, targets
        self.env = {**os.environ, "LSPD_STATE_DIR": str(state)}

    def __enter__(self) -> Lspd:
        serve = [*LSPD, "serve", str(self.root), "--detach"]
        subprocess.run(serve, env=self.env, check=True, stdout=subprocess.DEVNULL)
        return self

    def __exit__(self, *_: object) -> None:
        subprocess.run([*LSPD, "stop", "--root", str(self.root)], env=self.env, capture_output=True)

    def check(self) -> tuple[float, int]:
        """One `lspd check`, timed; asked again (the time counting) while a server is still
        loading the project: on a loaded machine basedpyright's first answers come late."""
        began = time.perf_counter()
        while time.perf_counter() - began < 1200:
            done = subprocess.run(
                [*LSPD, "check", "--root", str(self.root), "--json", *self.targets],
                cwd=self.root, env=self.env, capture_output=True, text=True,
            )  # fmt: skip
            if done.returncode != 2 or "timed out" not in done.stdout:
                break
        took = time.perf_counter() - began
        if done.returncode == 2:
            raise SystemExit(f"lspd check failed: {done.stdout[-500:]}{done.stderr[-500:]}")
        return took, int(json.loads(done.stdout)["errors"])

    def rss_mb(self) -> float:
        return sum(tree_rss_mb(pid) or 0.0 for pid in _processes(["serve", str(self.root)]))


class TscWatch:
    """`tsc --watch` with the project's TypeScript: each step is the time from the edit to
    its "Found N errors" line."""

    FOUND = re.compile(r"Found (\d+) errors?\. Watching for file changes")

    def __init__(self, root: Path) -> None:
        tsc = root / "node_modules" / ".bin" / "tsc"
        argv = [str(tsc), "-p", ".", "--watch", "--preserveWatchOutput", "--pretty", "false"]
        self.process = subprocess.Popen(argv, cwd=root, stdout=subprocess.PIPE, text=True)
        self.began = time.perf_counter()

    def found(self, since: float) -> tuple[float, int]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("tsc --watch ended")
            if match := self.FOUND.search(line):
                return time.perf_counter() - since, int(match[1])

    def rss_mb(self) -> float:
        return tree_rss_mb(self.process.pid) or 0.0

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def basedpyright(root: Path) -> tuple[float, int, float]:
    """basedpyright's CLI once: its time, errors and peak RSS (MB)."""
    began = time.perf_counter()
    child = subprocess.Popen(
        [str(BIN / "basedpyright"), "--outputjson"], cwd=root, stdout=subprocess.PIPE, text=True
    )
    out = child.communicate()[0]
    took = time.perf_counter() - began
    peak = _peak_rss_mb()
    report = json.loads(out)
    return took, int(report["summary"]["errorCount"]), peak


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


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


def measure(project: Project, base: Path) -> dict[str, object]:
    root = project.make(base)
    edits = {"leaf": project.leaf, "body": project.body, "signature": project.signature}
    originals = {e[0]: (root / e[0]).read_text() for e in edits.values()}
    rows: dict[str, object] = {"project": project.name}
    with Lspd(root, project.targets, base / f"state-{root.name}") as lspd:
        for step in STEPS:
            if step in edits:
                edit(root, edits[step])
            took, errors = lspd.check()
            rows[f"lspd {step}"] = (took, errors, os.getloadavg()[0])
        rows["lspd rss"] = lspd.rss_mb()
    for name, text in originals.items():
        (root / name).write_text(text)
    time.sleep(2.5)  # older than the checkers' "just written" window
    if project.language == "typescript":
        watch = TscWatch(root)
        try:
            cold = watch.found(watch.began)
            rows["own cold"] = (*cold, os.getloadavg()[0])
            # Nothing changed: tsc --watch has nothing to do (its answer stands).
            rows["own unchanged"] = (0.0, cold[1], os.getloadavg()[0])
            for step in STEPS[2:]:
                began = time.perf_counter()
                edit(root, edits[step])
                rows[f"own {step}"] = (*watch.found(began), os.getloadavg()[0])
            rows["own rss"] = watch.rss_mb()
            rows["own name"] = "tsc --watch"
        finally:
            watch.stop()
    else:
        peak = 0.0
        for step in STEPS:
            if step in edits:
                edit(root, edits[step])
            took, errors, peak = basedpyright(root)
            rows[f"own {step}"] = (took, errors, os.getloadavg()[0])
        rows["own rss"] = peak
        rows["own name"] = "basedpyright CLI (a full run)"
    for name, text in originals.items():
        (root / name).write_text(text)
    return rows


def table(results: list[dict[str, object]]) -> str:
    lines = [
        "| project | step | lspd s (errors) | own s (errors) | load |",
        "|---|---|---|---|---|",
    ]
    for rows in results:
        for step in STEPS:
            mine, own = rows[f"lspd {step}"], rows[f"own {step}"]
            assert isinstance(mine, tuple) and isinstance(own, tuple)
            lines.append(
                f"| {rows['project']} | {step} | {mine[0]:.2f} ({mine[1]}) | "
                f"{own[0]:.2f} ({own[1]}) | {mine[2]:.1f} / {own[2]:.1f} |"
            )
        lines.append(
            f"| {rows['project']} | RSS after | {rows['lspd rss']:.0f} MB | "
            f"{rows['own rss']:.0f} MB ({rows['own name']}) | |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["effect", "sqlalchemy"])
    parser.add_argument("--keep", type=Path, help="work here (kept) instead of a temp dir")
    args = parser.parse_args()
    chosen = [p for p in PROJECTS if args.only is None or args.only in p.name.lower()]
    with tempfile.TemporaryDirectory(prefix="lspd-feedback-") as temp:
        base = args.keep or Path(temp)
        base.mkdir(parents=True, exist_ok=True)
        results = [measure(project, base / project.name.split()[0]) for project in chosen]
    print(table(results))


if __name__ == "__main__":
    main()
