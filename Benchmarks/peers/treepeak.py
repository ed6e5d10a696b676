#!/usr/bin/env python3
"""Runs a command and prints "wall cpu peak_kib" for its whole process tree: wall seconds, user +
system CPU of the command and every descendant it waited for, and the peak of the summed resident
memory of all processes in the tree (sampled every 20 ms from /proc). Output of the command is
discarded; a failure is reported and exits non-zero."""
import os, subprocess, sys, time


def tree_rss(root):
    children, rss = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            with open(f"/proc/{pid}/statm") as f:
                rss[int(pid)] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
            children.setdefault(ppid, []).append(int(pid))
        except (OSError, ValueError):
            continue
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


start = time.monotonic()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
peak = 0
while proc.poll() is None:
    peak = max(peak, tree_rss(proc.pid))
    time.sleep(0.02)
wall = time.monotonic() - start
usage = os.times()
if proc.returncode != 0:
    sys.stderr.write(proc.stderr.read().decode(errors="replace")[-4000:])
    sys.exit(f"treepeak: {sys.argv[1:]} failed with {proc.returncode}")
print(f"{wall:.2f} {usage.children_user + usage.children_system:.2f} {peak}")
