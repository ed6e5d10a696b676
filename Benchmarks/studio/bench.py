"""`make bench-studio`: flick studio's preview against cold `flick still`, for card-swap at 960×540.

1. Scrub latency: request → decoded image (fetch + createImageBitmap in Chromium, the page's own
   path), p50 and p95 over frames in a fixed shuffled order; beside it a cold `flick still` of the
   same frames (a new process each: parse, compile, render, PNG) and the ratio.
2. Sustained playback: the page plays for --play seconds; frames shown per second, and how far
   the frame on screen trails the playback clock (frames), sampled every 0.25 s.
3. Memory: the server's VmRSS while a client scrubs (random frames, back to back) for --minutes,
   the template being saved again (a label changed) every --edit-every seconds (hot reloads).
4. Instructions (valgrind's callgrind, independent of the machine's load): a warm frame served by
   the studio (the server's count with warm-up and --instructions frames served, minus its count
   with the warm-up only, per frame) beside a cold `flick still` of the same frames.

Usage: python3 Benchmarks/studio/bench.py [--minutes M] [--frames N] [--cold N] [--play S] [--edit-every S]
       [--instructions N]
(FLICK=.build/release/flick; the issue's full run is --minutes 10; --instructions 0 skips step 4).
"""

import argparse
import os
import re
import stat
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "StudioBrowser"))
import studio_harness  # noqa: E402
from studio_harness import FLICK, Studio, copy_templates, launch_browser, vm_rss_kb, wait_js  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

TEMPLATE = "card-swap.json5"


def percentile(values, p):
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


SCRUB = """async ({ template, frames }) => {
  const times = [];
  let seq = 0;
  for (const frame of frames) {
    const start = performance.now();
    const url = `/api/frame.png?template=${encodeURIComponent(template)}&frame=${frame}&client=bench&seq=${++seq}`;
    const response = await fetch(url);
    const bitmap = await createImageBitmap(await response.blob());
    times.push(performance.now() - start);
    bitmap.close();
  }
  return times;
}"""


CALLGRIND_COUNT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "callgrind-count")


def callgrind_total(path):
    """The instruction total (Ir) in a callgrind output file."""
    with open(path) as f:
        for line in f:
            m = re.match(r"(summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(2))
    raise RuntimeError(f"no instruction total in {path}")


def studio_instructions(folder, scratch, frames, warmup):
    """Instructions of `flick studio` per warm frame: two servers under callgrind, one serving `warmup`,
    the other `warmup + frames` (PNG requests, back to back), each stopped by SIGTERM; the difference
    per frame. Valgrind 3.19 rejects the Swift toolchain's debug info, so a stripped copy runs."""
    copy = FLICK + ".callgrind"
    subprocess.run(["strip", "--strip-debug", "-o", copy, FLICK], check=True)
    totals = []
    try:
        for served in (warmup, warmup + frames):
            out = os.path.join(scratch, f"studio-{len(served)}.callgrind")
            wrapper = os.path.join(scratch, "flick-callgrind")
            with open(wrapper, "w") as f:
                f.write(f'#!/bin/sh\nexec valgrind -q --tool=callgrind --callgrind-out-file="{out}" "{copy}" "$@"\n')
            os.chmod(wrapper, stat.S_IRWXU)
            studio_harness.FLICK = wrapper
            try:
                studio = Studio(folder)
            finally:
                studio_harness.FLICK = FLICK
            try:
                for seq, frame in enumerate(served):
                    status, _, _ = studio.get("/api/frame.png", template=TEMPLATE, frame=frame, client="bench", seq=seq + 1)
                    if status != 200:
                        raise RuntimeError(f"frame {frame}: HTTP {status}")
            finally:
                studio.stop()
            totals.append(callgrind_total(out))
    finally:
        os.remove(copy)
    return (totals[1] - totals[0]) / len(frames)


def still_instructions(folder, scratch, frames):
    """Instructions of a cold `flick still` (a new process: parse, compile, render, PNG), mean over `frames`."""
    counts = []
    for frame in frames:
        out = os.path.join(scratch, "cold-callgrind.png")
        line = subprocess.run(
            [CALLGRIND_COUNT, "--", FLICK, "still", os.path.join(folder, TEMPLATE), "--frame", str(frame), "-o", out, "-q"],
            check=True, capture_output=True, text=True).stdout
        counts.append(int(line.strip()))
    return sum(counts) / len(counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=1.0, help="scrubbing time for the memory run")
    parser.add_argument("--frames", type=int, default=120, help="frames timed for the scrub latency")
    parser.add_argument("--cold", type=int, default=12, help="frames rendered by cold flick still")
    parser.add_argument("--play", type=float, default=10.0, help="seconds of playback")
    parser.add_argument("--edit-every", type=float, default=10.0,
                        help="seconds between saves of the template during the memory run (0: none)")
    parser.add_argument("--instructions", type=int, default=6,
                        help="warm frames counted with callgrind (0: no instruction counts)")
    args = parser.parse_args()

    folder = copy_templates([TEMPLATE])
    scratch = tempfile.mkdtemp(prefix="flick-studio-bench-")
    studio = Studio(folder)
    rng = random.Random(1592652000)
    try:
        info = studio.get_json("/api/template", template=TEMPLATE)
        canvas = info["canvas"]
        count = canvas["frameCount"]
        order = [rng.randrange(count) for _ in range(args.frames)]
        with sync_playwright() as p:
            browser = launch_browser(p)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(studio.url)
            wait_js(page, "document.body.dataset.ready === 'true' && document.body.dataset.shownFrame", timeout=30000)
            page.evaluate(SCRUB, {"template": TEMPLATE, "frames": order[:10]})  # warm-up
            warm = page.evaluate(SCRUB, {"template": TEMPLATE, "frames": order})

            cold = []
            for frame in order[: args.cold]:
                out = os.path.join(scratch, "cold.png")
                start = time.perf_counter()
                subprocess.run([FLICK, "still", os.path.join(folder, TEMPLATE), "--frame", str(frame), "-o", out, "-q"],
                               check=True)
                cold.append((time.perf_counter() - start) * 1000)

            page.evaluate("window.studio.seekFrame(0)")
            before = page.evaluate("window.studio.playback.total")
            page.evaluate("window.studio.playback.play(0)")
            lags = []
            started = time.monotonic()
            while time.monotonic() - started < args.play:
                page.wait_for_timeout(250)
                due, seen = page.evaluate(
                    "[window.studio.playback.current, Number(document.body.dataset.shownFrame)]")
                lags.append((due - seen) % count)
            shown = page.evaluate("window.studio.playback.total") - before
            page.evaluate("window.studio.playback.pause()")
            playback_fps = shown / (time.monotonic() - started)

            rss = [(0.0, vm_rss_kb(studio.pid))]
            deadline = time.monotonic() + args.minutes * 60
            start = time.monotonic()
            requests = 0
            edits = 0
            path = os.path.join(folder, TEMPLATE)
            with open(path) as f:
                original = f.read()
            labels = ["Next week", "Last week", "This month", "This week"]
            next_edit = start + args.edit_every if args.edit_every > 0 else float("inf")
            while time.monotonic() < deadline:
                batch = [rng.randrange(count) for _ in range(30)]
                page.evaluate(SCRUB, {"template": TEMPLATE, "frames": batch})
                requests += len(batch)
                if time.monotonic() >= next_edit:
                    # Saved as editors save: a new file renamed over the template.
                    label = labels[edits % len(labels)]
                    with open(path + ".tmp~", "w") as f:
                        f.write(original.replace('default: "This week"', f'default: "{label}"'))
                    os.replace(path + ".tmp~", path)
                    edits += 1
                    next_edit += args.edit_every
                rss.append((time.monotonic() - start, vm_rss_kb(studio.pid)))
            revision = studio.get_json("/api/template", template=TEMPLATE)["revision"]
            browser.close()
        warm_ir = cold_ir = None
        if args.instructions > 0:
            counted = order[: args.instructions]
            warm_ir = studio_instructions(folder, scratch, counted, warmup=order[-3:])
            cold_ir = still_instructions(folder, scratch, counted[:2])
    finally:
        status = studio.stop()
        shutil.rmtree(os.path.dirname(folder), ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)

    w50, w95 = percentile(warm, 50), percentile(warm, 95)
    c50, c95 = percentile(cold, 50), percentile(cold, 95)
    first_minute = [kb for t, kb in rss if t <= 60] or [rss[0][1]]
    print(f"flick studio, {TEMPLATE} at {canvas['width']}×{canvas['height']}, {canvas['fps']} fps ({FLICK})")
    print()
    print("| measure | studio (warm) | cold `flick still` | ratio |")
    print("|---|---|---|---|")
    print(f"| frame p50, request → decoded image | {w50:.1f} ms | {c50:.0f} ms | {w50 / c50:.2f} |")
    print(f"| frame p95 | {w95:.1f} ms | {c95:.0f} ms | {w95 / c95:.2f} |")
    if warm_ir is not None:
        print(f"| instructions per frame (callgrind) | {warm_ir / 1e6:.1f} M | {cold_ir / 1e6:.1f} M | "
              f"{warm_ir / cold_ir:.2f} |")
    print(f"| sustained playback | {playback_fps:.1f} fps (of {canvas['fps']}) | | |")
    print(f"| frame on screen behind the playback clock | median {statistics.median(lags):.0f}, "
          f"max {max(lags)} frames | | |")
    print(f"| server RSS, after 1st minute → end ({args.minutes:g} min, {requests} frames, {edits} saves) | "
          f"{max(first_minute) / 1024:.0f} MB → {rss[-1][1] / 1024:.0f} MB (max {max(kb for _, kb in rss) / 1024:.0f} MB) | | |")
    print()
    by_minute = {}
    for t, kb in rss:
        by_minute[int(t // 60)] = kb
    print("server RSS at the end of each minute: " + ", ".join(f"{m + 1}: {kb / 1024:.0f} MB" for m, kb in sorted(by_minute.items())))
    print(f"warm frames: {len(warm)}, cold stills: {len(cold)}, {edits} saves, template revision at the end "
          f"{revision} (each save seen reloads once), server exit status {status}")


if __name__ == "__main__":
    main()
