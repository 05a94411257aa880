"""Does `lspd check` say what the project's own gate says, and how much faster when warm?

    .venv/bin/python bench/gate.py [--only NAME ...] [--json FILE]

Real projects at pinned versions, fetched at run time: SQLAlchemy 2.0.36 (the large one),
httpx 0.27.2 with its dependencies in a `.venv` of its own, attrs 24.2.0 (configures pyright
in pyproject.toml) from the Python package index; two TypeScript projects whose only
dependency, `typescript`, comes from npm: one pinned to 5.4.5 (whose `filter` does not
narrow, unlike 5.5+), one built of project references. For each, the project's own checker
(basedpyright's CLI from the project's environment, else lspd's; the project's `tsc`) and
`lspd check`: errors compared as sets of (path, line, code); the gate's time, `lspd check`
cold (no daemon), and warm right after a one-line edit of a leaf module and of a core one.
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

BIN = Path(sys.executable).parent
LSPD = [sys.executable, "-m", "lspd"]
Key = tuple[str, int, str]  # (path relative to the project, line, code)


@dataclass(frozen=True)
class Project:
    """A project, how to get it, what its gate checks, and the two files edited warm."""

    name: str
    make: Callable[[Path], Path]  # builds it under a directory; returns its root
    targets: list[str]  # what the gate checks, relative to the root (lspd check the same)
    leaf: str
    core: str
    language: str = "python"
    build_mode: bool = False  # `tsc -b`: a project of references


def sdist(requirement: str, into: Path) -> Path:
    """The unpacked source distribution of `requirement` (pip from the package index)."""
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
         "--disable-pip-version-check", "-d", str(into), requirement],
        check=True, capture_output=True,
    )  # fmt: skip
    archive = next(into.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return next(p for p in into.iterdir() if p.is_dir())


def pyright_only(root: Path) -> Path:
    """SQLAlchemy configures mypy and pyright both, so lspd would run both on it; these
    benches measure against the basedpyright CLI: its lspd.toml chooses basedpyright."""
    (root / "lspd.toml").write_text('python_checker = "basedpyright"\n')
    return root


def with_venv(root: Path, packages: list[str]) -> Path:
    """A `.venv` in the project holding its dependencies (what its own gate runs with)."""
    subprocess.run([sys.executable, "-m", "venv", str(root / ".venv")], check=True)
    pip = [str(root / ".venv" / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run(
        [*pip, "--disable-pip-version-check", *packages], check=True, capture_output=True
    )
    return root


def typescript_project(root: Path, version: str, files: dict[str, str]) -> Path:
    """A TypeScript project of `files` with `typescript@version` installed from npm."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    package = {"name": root.name, "private": True, "devDependencies": {"typescript": version}}
    (root / "package.json").write_text(json.dumps(package))
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=root, check=True)
    return root


STRICT = '{"compilerOptions": {"strict": true, "noEmit": true, "target": "ES2022"}, '


def pinned(base: Path) -> Path:
    modules = {
        f"src/m{i}.ts": f'import {{ total }} from "./core";\nexport const m{i} = total([{i}]);\n'
        for i in range(30)
    }
    return typescript_project(
        base / "ts-pinned",
        "5.4.5",
        {
            "tsconfig.json": STRICT + '"include": ["src"]}',
            "src/core.ts": "export function total(xs: number[]): number {\n"
            "  return xs.reduce((a, b) => a + b, 0);\n}\n",
            # TypeScript 5.5 infers the type predicate; 5.4 reports TS2322 on the second line.
            "src/filter.ts": 'const xs = [1, "a", 2].filter((x) => typeof x === "number");\n'
            "export const n: number[] = xs;\n",
            "src/leaf.ts": 'import { m0 } from "./m0";\nexport const leaf = m0 + 1;\n',
            **modules,
        },
    )


def references(base: Path) -> Path:
    composite = '{"compilerOptions": {"strict": true, "composite": true, "outDir": "out", '
    return typescript_project(
        base / "ts-refs",
        "5.6.3",
        {
            "tsconfig.json": '{"files": [], "references": [{"path": "packages/a"}, '
            '{"path": "packages/b"}]}',
            "packages/a/tsconfig.json": composite + '"rootDir": "src"}, "include": ["src"]}',
            "packages/a/src/index.ts": "export function greet(name: string): string {\n"
            "  return `hi ${name}`;\n}\n",
            "packages/b/tsconfig.json": composite + '"rootDir": "src"}, "include": ["src"], '
            '"references": [{"path": "../a"}]}',
            "packages/b/src/use.ts": 'import { greet } from "../../a/src/index";\n'
            "export const wrong: number = greet(42);\n",
            "packages/b/src/leaf.ts": 'import { wrong } from "./use";\n'
            "export const leaf = wrong;\n",
        },
    )


PROJECTS = [
    Project(
        "sqlalchemy 2.0.36",
        lambda base: pyright_only(sdist("sqlalchemy==2.0.36", base / "sqlalchemy")),
        ["lib/sqlalchemy"],
        leaf="lib/sqlalchemy/dialects/sqlite/json.py",
        core="lib/sqlalchemy/util/_collections.py",
    ),
    Project(
        "httpx 0.27.2 (.venv)",
        lambda base: with_venv(
            sdist("httpx==0.27.2", base / "httpx"),
            ["anyio==4.6.2.post1", "certifi", "httpcore==1.0.6", "idna", "sniffio"],
        ),
        ["httpx"],
        leaf="httpx/_status_codes.py",
        core="httpx/_models.py",
    ),
    Project(
        "attrs 24.2.0 ([tool.pyright])",
        lambda base: sdist("attrs==24.2.0", base / "attrs"),
        ["src"],
        leaf="src/attr/_version_info.py",
        core="src/attr/_make.py",
    ),
    Project(
        "typescript 5.4.5 pinned",
        pinned,
        ["src"],
        leaf="src/leaf.ts",
        core="src/core.ts",
        language="typescript",
    ),
    Project(
        "project references",
        references,
        ["packages"],
        leaf="packages/b/src/leaf.ts",
        core="packages/a/src/index.ts",
        language="typescript",
        build_mode=True,
    ),
]

_TSC_ERROR = re.compile(r"^(.+?)\((\d+),\d+\): error TS(\d+):", re.M)


def gate(project: Project, root: Path) -> tuple[set[Key], float, str]:
    """The project's own checker: its errors, its time, and which checker it was."""
    began = time.perf_counter()
    if project.language == "typescript":
        tsc = str(root / "node_modules" / ".bin" / "tsc")
        argv = [tsc, "-b", "--pretty", "false"] if project.build_mode else [tsc, "-p", "."]
        done = subprocess.run(
            [*argv, "--pretty", "false"], cwd=root, capture_output=True, text=True
        )
        took = time.perf_counter() - began
        found = {
            (Path(m[1]).as_posix().removeprefix("./"), int(m[2]), m[3])
            for m in _TSC_ERROR.finditer(done.stdout)
        }
        return found, took, f"tsc {_tsc_version(tsc)}"
    venv = root / ".venv" / "bin"
    own = venv / "basedpyright"
    checker = own if own.exists() else BIN / "basedpyright"
    env = {**os.environ}
    if venv.exists():  # the project's environment, as its own gate runs
        env["PATH"] = f"{venv}:{env['PATH']}"
        env["VIRTUAL_ENV"] = str(venv.parent)
    done = subprocess.run(
        [str(checker), "--outputjson", *project.targets],
        cwd=root, env=env, capture_output=True, text=True,
    )  # fmt: skip
    took = time.perf_counter() - began
    report = json.loads(done.stdout)
    found = {
        (Path(d["file"]).relative_to(root).as_posix(),
         d.get("range", {}).get("start", {}).get("line", 0) + 1, d.get("rule", ""))
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    }  # fmt: skip
    where = "the project's" if own.exists() else "lspd's"
    return found, took, f"basedpyright {report.get('version', '')} ({where})"


def _tsc_version(tsc: str) -> str:
    return subprocess.run([tsc, "--version"], capture_output=True, text=True).stdout.split()[-1]


def lspd_check(root: Path, targets: list[str], env: dict[str, str]) -> tuple[set[Key], float]:
    began = time.perf_counter()
    done = subprocess.run(
        [*LSPD, "check", "--root", str(root), "--json", *targets],
        cwd=root, env=env, capture_output=True, text=True,
    )  # fmt: skip
    took = time.perf_counter() - began
    if done.returncode == 2:
        raise SystemExit(f"lspd check failed in {root}: {done.stdout[-500:]}{done.stderr[-500:]}")
    result = json.loads(done.stdout)
    found = {
        (d["path"], d["line"], str(d.get("code") or "").removeprefix("TS"))
        for d in result["diagnostics"]
        if d["severity"] == "error"
    }
    return found, took


def touch(path: Path, language: str) -> None:
    """A one-line edit that changes no diagnostic."""
    line = "export const lspdBench = 0;\n" if language == "typescript" else "lspd_bench = 0\n"
    path.write_text(path.read_text() + line)


def measure(project: Project, base: Path) -> dict[str, object]:
    root = project.make(base)
    env = {**os.environ, "LSPD_STATE_DIR": str(base / f"state-{root.name}")}
    gate_errors, gate_s, checker = gate(project, root)
    cold_errors, cold_s = lspd_check(root, project.targets, env)
    serve = [*LSPD, "serve", str(root), "--detach", "--no-prewarm"]
    subprocess.run(serve, env=env, check=True, stdout=subprocess.DEVNULL)
    try:
        warm_errors, _ = lspd_check(root, project.targets, env)  # the servers load the project
        touch(root / project.leaf, project.language)
        _, leaf_s = lspd_check(root, project.targets, env)
        touch(root / project.core, project.language)
        _, core_s = lspd_check(root, project.targets, env)
    finally:
        subprocess.run([*LSPD, "stop", "--root", str(root)], env=env, capture_output=True)
    return {
        "project": project.name,
        "checker": checker,
        "gate": len(gate_errors),
        "lspd": len(cold_errors),
        "agreed": len(gate_errors & cold_errors),
        "only_gate": sorted(gate_errors - cold_errors),
        "only_lspd": sorted(cold_errors - gate_errors),
        "warm_same": warm_errors == cold_errors,
        "gate_s": gate_s,
        "cold_s": cold_s,
        "leaf_s": leaf_s,
        "core_s": core_s,
    }


def main(only: list[str], json_path: Path | None) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for project in PROJECTS:
            if only and not any(o in project.name for o in only):
                continue
            rows.append(measure(project, Path(temp) / project.name.split()[0]))
    print("lspd check against the project's own gate: errors as (path, line, code)\n")
    head = (
        f"{'project':31} {'gate':>5} {'lspd':>5} {'agree':>5} {'only':>4} {'only':>4}"
        f"  {'gate s':>6} {'cold s':>6} {'leaf s':>6} {'core s':>6} {'leaf×':>5}"
    )
    print(head)
    print(f"{'':31} {'':>5} {'':>5} {'':>5} {'gate':>4} {'lspd':>4}")
    print("-" * len(head))
    for r in rows:
        only_gate, only_lspd = r["only_gate"], r["only_lspd"]
        assert isinstance(only_gate, list) and isinstance(only_lspd, list)
        gate_s, leaf_s = float(r["gate_s"]), float(r["leaf_s"])  # type: ignore[arg-type]
        print(
            f"{r['project']:31} {r['gate']:>5} {r['lspd']:>5} {r['agreed']:>5} "
            f"{len(only_gate):>4} {len(only_lspd):>4}  {gate_s:6.1f} {r['cold_s']:6.1f} "
            f"{leaf_s:6.1f} {r['core_s']:6.1f} {gate_s / leaf_s:5.1f}"
        )
    print()
    for r in rows:
        print(f"{r['project']}: gate = {r['checker']}; warm check same as cold: {r['warm_same']}")
        for side in ("only_gate", "only_lspd"):
            for key in r[side][:5]:  # type: ignore[index]
                print(f"  {side.replace('_', ' ')}: {key}")
    if json_path is not None:
        json_path.write_text(json.dumps({"rows": rows}, indent=1, default=list))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="projects whose name has these")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    main(args.only, args.json)
