#!/usr/bin/env python3
"""How long the cores sit idle while `flick render` makes an output, for one or more flick
binaries run alternately (docs/benchmarks.md, "Short clips").

    idle.py TEMPLATE RUNS FLICK [FLICK ...] [-- RENDER OPTIONS ...]

Each run renders TEMPLATE to an MP4 (or to what the render options ask) in a temporary folder
and reads, around it, the machine's idle time from /proc/stat (idle + iowait, all cores) and the
time stolen by the hypervisor. On an otherwise quiet machine the idle time is what the render
left unused: a core waiting for ffmpeg, or ffmpeg waiting for a frame. The binaries alternate
(A B, B A, ...) so a drift in the machine's speed touches each alike. It prints the median wall
time, CPU time (flick and its ffmpeg), idle core-seconds and the mean stolen time of each.
Linux only.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_counters():
    """Idle and stolen seconds over all cores since boot."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    return (fields[3] + fields[4]) / hz, fields[7] / hz


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, options = argv[:cut], argv[cut + 1:]
    else:
        options = []
    if len(argv) < 3:
        sys.exit(__doc__)
    template, runs, binaries = argv[0], int(argv[1]), argv[2:]
    if not any(o in ("-o", "--output") for o in options):
        options = options + ["-o", "OUT.mp4"]
    results = {b: {"wall": [], "cpu": [], "idle": [], "steal": []} for b in binaries}
    with tempfile.TemporaryDirectory(prefix="flick-idle-") as work:
        args = [os.path.join(work, o) if o.startswith("OUT.") else o for o in options]
        for i in range(runs):
            for binary in binaries if i % 2 == 0 else binaries[::-1]:
                idle0, steal0 = cpu_counters()
                before = os.times()
                start = time.perf_counter()
                subprocess.run([binary, "render", template, *args, "-q"], check=True)
                wall = time.perf_counter() - start
                after = os.times()
                idle1, steal1 = cpu_counters()
                r = results[binary]
                r["wall"].append(wall)
                r["cpu"].append(
                    after.children_user + after.children_system - before.children_user - before.children_system)
                r["idle"].append(idle1 - idle0)
                r["steal"].append(steal1 - steal0)
    print(f"{os.path.basename(template)}, {runs} runs each, {os.cpu_count()} cores (median; steal: mean)")
    for binary, r in results.items():
        print(f"{binary:40s} wall {statistics.median(r['wall']):6.3f} s  cpu {statistics.median(r['cpu']):6.3f} s  "
              f"idle {statistics.median(r['idle']):6.3f} core-s  steal {statistics.mean(r['steal']):6.3f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
