"""Printing wall-time samples as the benchmark table (p50 and max), and keeping them."""

from __future__ import annotations

import json
import statistics
from pathlib import Path


def print_table(title: str, rows: dict[str, list[float]], json_path: Path | None) -> None:
    """`title`, then one line per row: its p50 and max in ms; the samples into `json_path`."""
    print(f"{title}\n")
    print(f"{'what':34}  {'p50':>6}  {'max':>6}")
    print(f"{'-' * 34}  {'-' * 6}  {'-' * 6}")
    for name, samples in rows.items():
        print(f"{name:34}  {statistics.median(samples):6.0f}  {max(samples):6.0f}")
    if json_path is not None:
        json_path.write_text(json.dumps({"samples_ms": rows}, indent=1))
