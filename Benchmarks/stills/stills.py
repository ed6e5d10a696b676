#!/usr/bin/env python3
"""`flick still` of every bundled template, process start to PNG on disk.

Wall and CPU time (user + system of the process and its threads) in milliseconds, the median of
RUNS runs of each build, the builds alternating run by run (BASELINE first on even runs) so that
the VM's drift falls on both alike; each still is written into an empty folder. With --baseline,
every still's PNG of both builds is compared byte for byte at 0, 50 % and 100 % of its template,
and with --callgrind each build's instructions (all threads, one run, debug info stripped) are
counted too. Prints a Markdown table.

    scripts/swift-release --product flick
    python3 Benchmarks/stills/stills.py --runs 15 --baseline /path/to/older/flick
    make bench-stills BASELINE=/path/to/older/flick          # the same, 15 runs
"""
import argparse, glob, os, re, shutil, statistics, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument('--flick', default='.build/release/flick')
parser.add_argument('--baseline')
parser.add_argument('--runs', type=int, default=15)
parser.add_argument('--callgrind', action='store_true')
parser.add_argument('templates', nargs='*')
args = parser.parse_args()
templates = args.templates or sorted(glob.glob('Templates/*.json5'))
builds = [b for b in (args.baseline, args.flick) if b]
folder = tempfile.mkdtemp(prefix='flick-stills-')


def still(build, template, out, *extra):
    start = time.perf_counter()
    p = subprocess.Popen([build, 'still', template, '-o', out, '-q', *extra], stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    if status != 0:
        sys.exit(f'{build} still {template} failed ({status}): {err}')
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def instructions(build, template):
    stripped = os.path.join(folder, 'flick-' + str(builds.index(build)))
    if not os.path.exists(stripped):
        subprocess.run(['strip', '--strip-debug', '-o', stripped, build], check=True)
    out = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', stripped, 'still',
                          template, '-o', os.path.join(folder, 'cg.png'), '-q'], capture_output=True, text=True)
    if out.returncode != 0:
        # A still that failed under valgrind (the stripped copy lives in a temporary folder, so
        # a bundled template's bare name does not resolve there) measured nothing.
        sys.exit(f'stills.py: {template} failed under callgrind (exit {out.returncode}): {out.stderr[-400:]}')
    m = re.search(r'I\s+refs:\s+([\d,]+)', out.stderr)
    return int(m.group(1).replace(',', '')) / 1e6 if m else float('nan')


same = True
header = ['template']
for b in builds:
    tag = 'before' if len(builds) == 2 and b == args.baseline else 'after' if len(builds) == 2 else ''
    header += [f'wall {tag}'.strip(), f'CPU {tag}'.strip()] + ([f'M instr. {tag}'.strip()] if args.callgrind else [])
if len(builds) == 2:
    header += ['wall after / before', 'same bytes']
print('| ' + ' | '.join(header) + ' |')
print('|' + '---|' + '---:|' * (len(header) - 2) + ('---|' if len(builds) == 2 else '---:|'))
for t in templates:
    wall = {b: [] for b in builds}
    cpu = {b: [] for b in builds}
    for r in range(args.runs):
        for b in (builds if r % 2 == 0 else builds[::-1]):
            out = os.path.join(folder, 'run.png')
            w, c = still(b, t, out)
            os.remove(out)
            wall[b].append(w)
            cpu[b].append(c)
    row = [os.path.basename(t).removesuffix('.json5')]
    for b in builds:
        row += [f'{statistics.median(wall[b]):.1f}', f'{statistics.median(cpu[b]):.1f}']
        if args.callgrind:
            row.append(f'{instructions(b, t):.1f}')
    if len(builds) == 2:
        identical = True
        for at in ('0', '50%', '100%'):
            outs = [os.path.join(folder, f'cmp{i}.png') for i in range(2)]
            for b, o in zip(builds, outs):
                still(b, t, o, '--at', at)
            with open(outs[0], 'rb') as x, open(outs[1], 'rb') as y:
                identical &= x.read() == y.read()
        same &= identical
        before, after = (statistics.median(wall[b]) for b in builds)
        row += [f'{after / before:.2f}', 'yes' if identical else '**no**']
    print('| ' + ' | '.join(row) + ' |', flush=True)
shutil.rmtree(folder)
if not same:
    sys.exit('some stills differ between the two builds')
