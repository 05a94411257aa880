"""Characters an agent reads per answer, before and after the compact answers (issue 13).

    .venv/bin/python bench/answers.py [--before REV] [--json FILE]

24 fixed agent questions on rich 13.9.4 (downloaded from the package index, unpacked into a
temp dir) go to two daemons in turn over MCP with the SDK's client: lspd at REV (default
d5ad243, the last commit before the change; its `src/` exported with `git archive`) and
lspd as checked out. Each runs in the foreground with its own `src/` first on PYTHONPATH,
its own copy of the tree and its own state directory. Counted: the characters of each
answer's text block (what a model reads) and of `tools/list`. Each answer is checked to
hold the facts of the one before it (the locations, the reference counts, the callers, the
symbols, the diagnostic counts, the hover text; a paged answer's facts are read from all its
pages, its characters from the first); "more" marks an answer holding more than before (a
class's members). Target: ≥ 35 % fewer characters in total.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RICH = "rich==13.9.4"

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from mcp import Client  # noqa: E402

Answer = dict[str, Any]


@dataclass(frozen=True)
class Question:
    """One agent question: the tool, its arguments (per version when they differ), and how
    to read its facts from either version's answer."""

    label: str
    tool: str
    arguments: Answer
    facts: Callable[[Answer], Any]
    kept: Callable[[Any, Any], str]  # (before's facts, after's) -> "same", "more" or why not
    after_arguments: Answer | None = None


def position(root: Path, path: str, needle: str, offset: int = 0) -> Answer:
    """`path`/`line`/`column` of the first `needle` in the file (plus `offset` characters)."""
    for number, line in enumerate((root / path).read_text().splitlines(), 1):
        if (index := line.find(needle)) >= 0:
            return {"path": path, "line": number, "column": index + 1 + offset}
    raise SystemExit(f"{needle!r} is not in {path}")


def hover_text(answer: Answer) -> str:
    text = html.unescape(answer.get("contents", "")).replace("\xa0", " ")
    return re.sub(r"[\s\-`]+", " ", text).strip()


def places(answer: Answer) -> set[tuple[str, int]]:
    return {(loc["path"], loc["line"]) for loc in answer.get("locations", [])}


def reference_counts(answer: Answer) -> tuple[int, dict[str, int]]:
    return answer["total"], {f["path"]: f["count"] for f in answer.get("files", [])}


def callers(answer: Answer) -> set[str]:
    names = set()
    for call in answer.get("calls", []):
        name = call["item"]["name"] if "item" in call else call["symbol"]
        names.add(name.rpartition(".")[2])
    return names


def symbol_paths(answer: Answer) -> set[str]:
    found: set[str] = set()

    def walk(symbols: list[Answer]) -> None:
        for s in symbols:
            found.add(s["name_path"])
            walk(s.get("children", []))

    walk(answer.get("symbols", []))
    return found


def counts(answer: Answer) -> tuple[int, int]:
    return answer["errors"], answer["warnings"]


def equal(before: Any, after: Any) -> str:
    return "same" if before == after else f"differs: {before!r:.60} / {after!r:.60}"


def subset(before: set[Any], after: set[Any]) -> str:
    if before == after:
        return "same"
    if before <= after:
        return "more"
    return f"lost {sorted(before - after)[:3]}"


def questions(root: Path) -> list[Question]:
    hover = [
        "rich.console.Console",
        "rich.text.Text.append",
        "rich.style.Style.parse",
        "rich.console.Console.print",
        "rich.table.Table.add_row",
    ]
    out = [Question(f"hover {s}", "hover", {"symbol": s}, hover_text, equal) for s in hover]
    out += [
        Question(
            "definition of Segment( in text.py",
            "definition",
            position(root, "rich/text.py", "Segment("),
            places,
            subset,
        ),
        Question(
            "definition of console.print in progress.py",
            "definition",
            position(root, "rich/progress.py", "console.print(", len("console.")),
            places,
            subset,
        ),
        Question(
            "type_definition of self.console in live.py",
            "type_definition",
            position(root, "rich/live.py", "self.console", len("self.")),
            places,
            subset,
        ),
        Question(
            "implementation of JupyterMixin",
            "implementation",
            {"symbol": "rich.jupyter.JupyterMixin"},
            places,
            subset,
        ),
    ]
    for name in (
        "rich.console.Console",
        "rich.text.Text",
        "rich.style.Style",
        "rich.segment.Segment",
    ):
        out.append(
            Question(
                f"references of {name}", "references", {"symbol": name}, reference_counts, equal
            )
        )
    calls = [
        ("rich.text.Text.append", "incoming"),
        ("rich.console.Console.print", "incoming"),
        ("rich.console.Console.print", "outgoing"),
        ("rich._loop.loop_last", "incoming"),
    ]
    for name, direction in calls:
        out.append(
            Question(
                f"call_hierarchy {direction} {name}",
                "call_hierarchy",
                {"symbol": name, "direction": direction},
                callers,
                subset,
            )
        )
    for path in ("rich/console.py", "rich/text.py"):
        out.append(
            Question(f"symbols of {path}", "document_symbols", {"path": path}, symbol_paths, subset)
        )
    out += [
        Question(
            "members of class Console",
            "document_symbols",
            {"path": "rich/console.py", "depth": 2},
            lambda a: {p for p in symbol_paths(a) if p.startswith("Console.")},
            subset,
            after_arguments={"path": "rich/console.py", "symbol": "Console", "depth": 1},
        ),
        Question(
            "workspace_symbols Console",
            "workspace_symbols",
            {"query": "Console"},
            lambda a: {(s["path"], s["line"]) for s in a["symbols"] if s["name_path"] == "Console"},
            subset,
        ),
        Question(
            "workspace_symbols print",
            "workspace_symbols",
            {"query": "print"},
            lambda a: a["total"],
            equal,
        ),
        Question(
            "diagnostics of console.py", "diagnostics", {"path": "rich/console.py"}, counts, equal
        ),
        Question("workspace_diagnostics", "workspace_diagnostics", {}, counts, equal),
    ]
    return out


def fetch_rich(base: Path) -> Path:
    wheels = base / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
         "--disable-pip-version-check", "-d", str(wheels), RICH],
        check=True,
    )  # fmt: skip
    return next(wheels.glob("rich-*.whl"))


PAGED = {"document_symbols": "symbols", "call_hierarchy": "calls"}


async def rest_of(client: Client, tool: str, arguments: Answer, first: Answer) -> Answer:
    """The answer with the items of its following pages (`next_offset`) added."""
    key, merged = PAGED[tool], dict(first)
    following = first.get("next_offset")
    while following is not None:
        page = await client.call_tool(tool, {**arguments, "offset": following, "limit": 1000})
        more = page.structured_content or {}
        merged[key] = merged.get(key, []) + more.get(key, [])
        following = more.get("next_offset")
    return merged


async def ask(url: str, items: list[Question], after: bool) -> tuple[Answer, dict[str, Any]]:
    """tools/list sizes and each question's (characters, structured answer)."""
    async with Client(url) as client:
        listed = await client.list_tools()
        read = [
            {"name": t.name, "description": t.description, "inputSchema": t.input_schema}
            for t in listed.tools
        ]
        whole = listed.model_dump(mode="json", by_alias=True, exclude_none=True)
        sizes = {
            "read": len(json.dumps(read, separators=(",", ":"))),
            "whole": len(json.dumps(whole, separators=(",", ":"))),
        }
        answers: dict[str, Any] = {}
        for q in items:
            arguments = q.after_arguments if after and q.after_arguments else q.arguments
            result = await client.call_tool(q.tool, arguments)
            text = "".join(getattr(c, "text", "") for c in result.content)
            if result.is_error:
                raise SystemExit(f"{q.label} failed: {text[:300]}")
            data = result.structured_content or {}
            if after and q.tool in PAGED:  # the facts of every page; the first one is counted
                data = await rest_of(client, q.tool, arguments, data)
            answers[q.label] = (len(text), data)
    return sizes, answers


def run_version(src: Path, tree: Path, state: Path, items: list[Question], after: bool) -> Any:
    """Serve `tree` with the lspd in `src` (foreground), ask everything, stop it."""
    env = {**os.environ, "PYTHONPATH": str(src), "LSPD_STATE_DIR": str(state)}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "lspd", "serve", str(tree)],
        env=env, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert daemon.stdout is not None
        url = daemon.stdout.readline().strip()  # printed once it listens
        if not url.startswith("http"):
            raise SystemExit(f"the daemon of {src} did not start: {url!r}")
        return asyncio.run(ask(url, items, after))
    finally:
        os.killpg(daemon.pid, signal.SIGTERM)
        daemon.wait(30)


def main(before_rev: str, json_path: Path | None) -> None:
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        wheel = fetch_rich(base)
        trees = {}
        for version in ("before", "after"):
            trees[version] = base / version / "tree"
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(trees[version])
        old_src = base / "before-src"
        old_src.mkdir()
        exported = subprocess.run(
            ["git", "-C", str(REPO), "archive", before_rev, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(old_src)], input=exported, check=True)
        items = questions(trees["after"])
        before = run_version(old_src / "src", trees["before"], base / "s1", items, False)
        after = run_version(REPO / "src", trees["after"], base / "s2", items, True)
    rows = []
    for q in items:
        (b_chars, b_answer), (a_chars, a_answer) = before[1][q.label], after[1][q.label]
        kept = q.kept(q.facts(b_answer), q.facts(a_answer))
        rows.append((q.label, b_chars, a_chars, kept))
    print(f"characters an agent reads per answer, rich 13.9.4: lspd {before_rev} vs now\n")
    print(f"{'question':46}  {'before':>7}  {'after':>7}  {'change':>7}  facts")
    print(f"{'-' * 46}  {'-' * 7}  {'-' * 7}  {'-' * 7}  -----")
    for label, b, a, kept in rows:
        print(f"{label:46}  {b:7}  {a:7}  {(a - b) / b:+7.0%}  {kept}")
    total_b, total_a = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"{'all answers':46}  {total_b:7}  {total_a:7}  {(total_a - total_b) / total_b:+7.0%}")
    for key, what in (
        ("read", "tools/list: names, descriptions, inputs"),
        ("whole", "tools/list: whole"),
    ):
        b, a = before[0][key], after[0][key]
        print(f"{what:46}  {b:7}  {a:7}  {(a - b) / b:+7.0%}")
    print(f"\n{len(rows)} questions in {time.monotonic() - began:.0f} s")
    if json_path is not None:
        data = {"rows": rows, "tools_list": {"before": before[0], "after": after[0]}}
        json_path.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="d5ad243", help="the lspd commit to compare with")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    main(args.before, args.json)
