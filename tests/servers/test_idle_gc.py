"""servers/idle_gc.cjs in a real Node process: after work that left garbage, once idle,
the heap is given back; the server's own global scope gets no `gc`."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import lspd.servers
from lspd.servers.registry import node_executable

COLLECTOR = Path(lspd.servers.__file__).parent / "idle_gc.cjs"

# Work leaving ~400 MB of garbage and a little live data, then idle: the heap's committed
# size printed every 250 ms.
SCRIPT = """
const v8 = require('v8');
const live = [];
let garbage = [];
for (let i = 0; i < 4e6; i++) garbage.push({ i, s: 'x' + i });
for (let i = 0; i < 1e5; i++) live.push({ i });
garbage = null;
const say = () => console.log(JSON.stringify({
  heap: v8.getHeapStatistics().total_heap_size, gc: typeof gc, live: live.length }));
say();
setInterval(say, 250);
"""


def test_an_idle_node_gives_back_the_garbage_of_its_work(tmp_path: Path) -> None:
    script = tmp_path / "work.js"
    script.write_text(SCRIPT)
    env = {"NODE_OPTIONS": f'--require "{COLLECTOR}"', "PATH": "/usr/bin:/bin"}
    node = subprocess.Popen(
        [node_executable(), str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert node.stdout is not None
        first = json.loads(node.stdout.readline())
        assert first["gc"] == "undefined"  # exposed to the collector's context only
        assert first["heap"] > 200 * 2**20  # the work's garbage, not collected yet
        deadline = time.monotonic() + 60  # idle 8 s, then the collection (slow when loaded)
        heap = first["heap"]
        while heap > first["heap"] / 4 and time.monotonic() < deadline:
            heap = json.loads(node.stdout.readline())["heap"]
        assert heap < first["heap"] / 4, (first, heap)
    finally:
        node.kill()
        node.wait()
