"""What unfolding a hover's type aliases adds to a hover, on a real project (issue 30).

    .venv/bin/python bench/hover_aliases.py [--rounds 30] [--json FILE]

httpx 0.28.1 (its source distribution, from the package index) on basedpyright, warm. The
position: the `auth` parameter of `Client.request`, whose hover is `auth: AuthTypes |
UseClientDefault | None` and names two aliases. Each round asks, interleaved:
`navigation.hover` (the whole answer: the server's hover, then the aliases unfolded), the
server's hover alone (the same request `navigation.hover` sends), and the unfolding alone
(`aliases.unfolded` on that hover). Every answer is checked: the unfolded lines must say
what `AuthTypes` is. The added cost is the unfolding's p50.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from lspd.lsp import answers
from lspd.ops import aliases, navigation
from lspd.ops.markdown import clean, markdown
from lspd.ops.target import resolve_target
from lspd.workspace import Workspace

# This directory goes last on the path, so `import mcp` is the SDK, not bench/mcp.py.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != HERE] + [HERE]

from gate import sdist  # noqa: E402
from latency import print_table  # noqa: E402

PROJECT = "httpx==0.28.1"
FILE = "httpx/_client.py"
PARAMETER = "        auth: AuthTypes | UseClientDefault | None = USE_CLIENT_DEFAULT,"


def position(root: Path) -> tuple[int, int]:
    """The line and column (1-based) of the first `auth` parameter of the signature above."""
    lines = (root / FILE).read_text().splitlines()
    line = lines.index(PARAMETER) + 1
    return line, PARAMETER.index("auth") + 1


async def measure(root: Path, rounds: int) -> dict[str, list[float]]:
    ws = Workspace(root, log_dir=root.parent / "logs")
    rows: dict[str, list[float]] = {"hover (server + aliases)": [], "server hover alone": []}
    rows["alias unfolding alone"] = []
    line, column = position(root)
    try:
        await navigation.hover(ws, FILE, line, column)  # warm: the project loaded
        for _ in range(rounds):
            start = time.perf_counter()
            whole = await navigation.hover(ws, FILE, line, column)
            rows["hover (server + aliases)"].append((time.perf_counter() - start) * 1000)
            assert "AuthTypes = " in whole.contents, whole.contents
            start = time.perf_counter()
            target = await resolve_target(ws, FILE, line, column, None)
            answer = await target.session.request(answers.HOVER, target.params())
            rows["server hover alone"].append((time.perf_counter() - start) * 1000)
            contents = clean(markdown(answer["contents"])) if answer else ""
            start = time.perf_counter()
            unfolded = await aliases.unfolded(ws, target, contents)
            rows["alias unfolding alone"].append((time.perf_counter() - start) * 1000)
            assert any(u.startswith("AuthTypes = ") for u in unfolded), unfolded
    finally:
        await ws.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lspd-bench-aliases-") as tmp:
        root = sdist(PROJECT, Path(tmp) / "src")
        rows = asyncio.run(measure(root, args.rounds))
    title = f"hover with aliases unfolded: {PROJECT} {FILE} `auth`, {args.rounds} rounds (ms)"
    print_table(title, rows, args.json)


if __name__ == "__main__":
    main()
