#!/usr/bin/env bash
# The issue-32 acceptance benchmark (docs/scale-out.md, "Balance and overhead"): a 48-job plan
# (Examples/batch's 3 templates × 8 variants × 2 sizes, MP4 + GIF, all variants inline) and
#   (1) the CPU of each of 4 shards (`flick run --shard I/4`, one after another): max / mean,
#       against the estimate `flick plan --shards 4` prints;
#   (2) `flick run` of the whole plan against a plain shell loop of `flick render` over the same
#       jobs (same templates, values, sizes, formats), interleaved round by round: CPU ratio and
#       wall-time ratio per round, median reported.
# CPU is user + sys of the process and all its children (ffmpeg), from GNU time.
# Must run at full size on a quiet machine (the figures in docs come from that); for a check
# that it works: SIZES="0.25,0.125" REPEAT=1 Benchmarks/scale/plan48.sh
# Environment: FLICK (default: a release build, made first), REPEAT (rounds, default 3), SIZES
# (the two scales, default "1,0.5": 320×180 and 160×90), JOBS (raster threads per job, default 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-3}
SIZES=${SIZES:-1,0.5}
JOBS=${JOBS:-1}
if [ -z "${FLICK:-}" ]; then
  scripts/swift-release --product flick >/dev/null
  FLICK=$PWD/.build/release/flick
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-plan48.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cp -R Examples/batch/templates "$WORK/templates"
python3 - "$WORK" "$SIZES" "$FLICK" "$JOBS" <<'PY'
import json, shlex, sys
work, sizes, flick, jobs = sys.argv[1], [float(s) for s in sys.argv[2].split(",")], sys.argv[3], sys.argv[4]
locales = ["en", "de", "fr", "es", "it", "nl", "pt", "sv"]
colours = ["#F97316", "#8B5CF6", "#0EA5E9", "#10B981", "#EF4444", "#F59E0B", "#EC4899", "#14B8A6"]
templates = [
    ("promo", lambda i: {"title": "Title " + locales[i], "accent": colours[i]}, {}),
    ("badge", lambda i: {"count": str([1, 3, 12, 99, 7, 2, 5, 50][i]), "color": colours[i]}, {}),
    ("meter", lambda i: {"value": (i + 1) / 8, "color": colours[i]}, {"gifFps": 15}),
]
renders, loop = [], []
for name, values, encoding in templates:
    variants = [values(i) for i in range(8)]
    render = {"template": f"templates/{name}.json5", "variants": variants, "sizes": sizes, "formats": ["mp4", "gif"]}
    if encoding: render["encoding"] = encoding
    renders.append(render)
    for i, v in enumerate(variants):
        for s in sizes:
            out = f"loop/{name}-{i}-{s}"
            cmd = [flick, "render", f"templates/{name}.json5", "--scale", str(s), "--jobs", jobs, "-q",
                   "-o", out + ".mp4", "-o", out + ".gif"]
            for k, x in v.items(): cmd += ["--set", f"{k}={x}"]
            if "gifFps" in encoding: cmd += ["--gif-fps", str(encoding["gifFps"])]
            loop.append(" ".join(shlex.quote(c) for c in cmd))
json.dump({"flick": 1, "output": "out", "renders": renders}, open(f"{work}/batch.json5", "w"), indent=1)
open(f"{work}/loop.sh", "w").write("set -e\nmkdir -p loop\n" + "\n".join(loop) + "\n")
PY
cd "$WORK"
cpu() { # CMD… → "cpu wall"
  /usr/bin/time -f '%U %S %e' -o time.txt "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' time.txt
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "48-job plan benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $REPEAT rounds, sizes $SIZES, --jobs $JOBS"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$FLICK" plan batch.json5 -o plan.json --shards 4
echo

# (1) Shards: each shard's CPU, rounds interleaved; max / mean of the per-shard medians.
declare -A shard_cpu
for r in $(seq "$REPEAT"); do
  for i in 1 2 3 4; do
    read -r c _ < <(cpu "$FLICK" run plan.json --shard "$i/4" --force --jobs "$JOBS" -q)
    shard_cpu[$i]="${shard_cpu[$i]:-} $c"
  done
done
printf '%-8s %10s\n' shard "CPU s"
medians=()
for i in 1 2 3 4; do
  m=$(echo "${shard_cpu[$i]}" | tr ' ' '\n' | awk 'NF' | median)
  medians+=("$m")
  printf '%-8s %10s\n' "$i/4" "$m"
done
printf '%s\n' "${medians[@]}" | awk '{ s += $1; if ($1 > m) m = $1 } END { printf "max shard CPU / mean: %.3f (acceptance: ≤ 1.06)\n\n", m / (s / NR) }'

# (2) flick run against a plain loop of flick render, interleaved; ratios per round.
ratios=(); walls=()
printf '%-6s %12s %12s %12s %12s %9s %9s\n' round "run CPU s" "loop CPU s" "run wall s" "loop wall s" "CPU" "wall"
for r in $(seq "$REPEAT"); do
  read -r rc rw < <(cpu "$FLICK" run plan.json --force --jobs "$JOBS" -q)
  rm -rf loop
  read -r lc lw < <(cpu bash loop.sh)
  ratio=$(echo "$rc / $lc" | bc -l); wall=$(echo "$rw / $lw" | bc -l)
  ratios+=("$ratio"); walls+=("$wall")
  printf '%-6s %12s %12s %12s %12s %9.3f %9.3f\n' "$r" "$rc" "$lc" "$rw" "$lw" "$ratio" "$wall"
done
printf 'flick run / plain loop, median: CPU %.3f (acceptance: ≤ 1.05), wall %.3f\n' \
  "$(printf '%s\n' "${ratios[@]}" | median)" "$(printf '%s\n' "${walls[@]}" | median)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
