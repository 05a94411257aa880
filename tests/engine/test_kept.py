"""A kept result saved and read back: the same records, their texts one object per distinct
text (a large result repeats its messages by the thousand), and a corrupt row not trusted."""

from __future__ import annotations

import json
from pathlib import Path

from lspd.engine import kept
from lspd.engine.kept import KeptState, StateKey
from lspd.engine.seen import FileSeen, Seen

KEY = StateKey("0" * 40, "toolchain", "config")
UNKNOWN = 'Type of "x" is unknown'


def _seen(line: int, snippet: str) -> Seen:
    return Seen(
        "warning", "reportUnknownVariableType", UNKNOWN, line, 1, line, 2, "basedpyright", snippet
    )


def test_a_saved_result_reads_back_with_its_texts_shared(tmp_path: Path) -> None:
    files = {
        "a.py": FileSeen("a.py", (_seen(1, "x"), _seen(300, "x"))),
        "b.py": FileSeen("b.py", (_seen(7, "y = x"),)),
    }
    state = KeptState(KEY, files, 1.5, 2, frozenset({("basedpyright", "1.29")}))
    kept.save(tmp_path, state)
    read = kept.load(tmp_path, KEY)
    assert read == state
    assert read is not None
    first, second = read.files["a.py"].diagnostics
    other = read.files["b.py"].diagnostics[0]
    assert first.message is second.message is other.message
    assert first.code is other.code and first.snippet is second.snippet
    assert first.snippet is not other.snippet


def test_a_row_of_another_shape_is_not_trusted(tmp_path: Path) -> None:
    saved = kept.save(
        tmp_path, KeptState(KEY, {"a.py": FileSeen("a.py", (_seen(1, "x"),))}, 1.0, 1)
    )
    whole = json.loads(saved.read_text())
    body = json.loads(whole["body"])
    body["files"][0][1][0].pop()  # a row without its snippet
    whole["body"] = json.dumps(body, separators=(",", ":"))
    whole["checksum"] = kept._sum(whole["body"])
    saved.write_text(json.dumps(whole))
    assert kept.load(tmp_path, KEY) is None
