#!/usr/bin/env bash
# flick run against an older flick run on the same plan, interleaved round by round
# (docs/scale-out.md, "Jobs finish beside the next"): Examples/batch's 48 jobs (3 templates ×
# 8 variants × 2 sizes, MP4 + GIF). Per round and binary: wall time, CPU (user + sys of the
# process and its ffmpeg and gifsicle children, GNU time) and the machine's idle core-seconds
# (scripts/cpu-idle, /proc/stat); then the medians, the ratios baseline / new, and whether the two
# wrote the same bytes (every output and stamp).
#   BASELINE=/path/to/older/flick Benchmarks/scale/overlap.sh
# Environment: BASELINE (required), FLICK (default: a release build, made first), REPEAT (rounds,
# default 5), JOBS (raster threads per job, default: the number of cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
REPEAT=${REPEAT:-5}
JOBS=${JOBS:-$(nproc)}
: "${BASELINE:?set BASELINE to an older flick binary (e.g. a release build of the commit before)}"
if [ -z "${FLICK:-}" ]; then
  scripts/swift-release --product flick >/dev/null
  FLICK=$PWD/.build/release/flick
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-overlap.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for side in new baseline; do
  cp -R Examples/batch "$WORK/$side"
  rm -rf "$WORK/$side/out" "$WORK/$side/plan.json"
done
(cd "$WORK/new" && "$FLICK" plan batch.json5 -o plan.json >/dev/null)
(cd "$WORK/baseline" && "$BASELINE" plan batch.json5 -o plan.json >/dev/null)

# One run: "wall cpu idle".
measure() { # DIR FLICK
  local dir=$1 flick=$2
  rm -rf "$dir/out"
  (cd "$dir" && /usr/bin/time -f '%U %S' -o time.txt "$ROOT/scripts/cpu-idle" -- \
    "$flick" run plan.json --force --jobs "$JOBS" -q 2> idle.txt) || { cat "$dir/idle.txt" >&2; exit 1; }
  python3 - "$dir/time.txt" "$dir/idle.txt" <<'PY'
import re, sys
user, system = map(float, open(sys.argv[1]).read().split()[-2:])
m = re.search(r"([0-9.]+) s of wall time, ([0-9.]+) core-seconds busy, ([0-9.]+) idle", open(sys.argv[2]).read())
print(m.group(1), f"{user + system:.2f}", m.group(3))
PY
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "flick run overlap benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $REPEAT rounds, --jobs $JOBS"
echo "new: $FLICK"
echo "baseline: $BASELINE"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-9s %8s %8s %10s\n' round binary "wall s" "CPU s" "idle c-s"
declare -A col
for r in $(seq "$REPEAT"); do
  for side in baseline new; do
    flick=$FLICK; [ "$side" = baseline ] && flick=$BASELINE
    read -r wall cpu idle < <(measure "$WORK/$side" "$flick")
    col[$side.wall]+="$wall "; col[$side.cpu]+="$cpu "; col[$side.idle]+="$idle "
    printf '%-6s %-9s %8s %8s %10s\n' "$r" "$side" "$wall" "$cpu" "$idle"
  done
done
m() { echo "${col[$1]}" | tr ' ' '\n' | awk 'NF' | median; }
echo
printf '%-9s %8s %8s %10s\n' median "wall s" "CPU s" "idle c-s"
for side in baseline new; do printf '%-9s %8s %8s %10s\n' "$side" "$(m $side.wall)" "$(m $side.cpu)" "$(m $side.idle)"; done
printf 'baseline / new: wall %.2f, CPU %.2f\n' \
  "$(echo "$(m baseline.wall) / $(m new.wall)" | bc -l)" "$(echo "$(m baseline.cpu) / $(m new.cpu)" | bc -l)"
if diff -r -q -x .flick "$WORK/baseline/out" "$WORK/new/out" >/dev/null; then
  echo "same bytes: yes (every output and stamp)"
else
  echo "same bytes: NO"; diff -r -q -x .flick "$WORK/baseline/out" "$WORK/new/out" | head; exit 1
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
