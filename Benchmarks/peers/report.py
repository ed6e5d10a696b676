#!/usr/bin/env python3
"""Medians of treepeak.py runs, one row a tool, then each peer's ratio to the first tool.

    report.py CASE LABEL=FILE [LABEL=FILE...]

Each FILE holds one "wall cpu peak_kib" line a run (treepeak.py's output); rows give the medians
of wall, CPU and peak tree memory; the ratio lines divide each other tool's medians by the first's.
"""
import statistics
import sys

case, pairs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
rows = []
for label, path in pairs:
    runs = [list(map(float, line.split())) for line in open(path) if line.strip()]
    rows.append((label, [statistics.median(r[k] for r in runs) for k in range(3)], len(runs)))
for label, (w, c, m), n in rows:
    print(f"{case:<22} {label:<17} {w:7.2f} s {c:7.2f} s {m / 1024:7.0f} MiB   ({n} runs)")
first, (fw, fc, fm), _ = rows[0]
for label, (w, c, m), _ in rows[1:]:
    print(f"{case:<22} {label} / {first}: wall {w / fw:.2f}x, CPU {c / fc:.2f}x, peak memory {m / fm:.2f}x")
