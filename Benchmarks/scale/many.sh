#!/usr/bin/env bash
# Many small jobs (docs/scale-out.md, "A live report says running"): one plan of N one-frame PNG
# jobs (Examples/batch's badge template at 80×45, N variants), run whole by `flick run --force`,
# where the per-job costs outside the render show: the report written before every job, the
# stamps, the commits. Per round and binary: wall time and CPU (user + sys, GNU time); then the
# medians and, with BASELINE, the ratios baseline / new and whether the two wrote the same bytes.
#   N=2000 BASELINE=/path/to/older/flick Benchmarks/scale/many.sh
# Environment: N (jobs, default 500), REPEAT (rounds, default 3), FLICK (default: a release
# build, made first), BASELINE (optional).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-500}
REPEAT=${REPEAT:-3}
BASELINE=${BASELINE:-}
if [ -z "${FLICK:-}" ]; then
  scripts/swift-release --product flick >/dev/null
  FLICK=$PWD/.build/release/flick
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-many.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
sides=(new); [ -n "$BASELINE" ] && sides=(baseline new)
for side in "${sides[@]}"; do
  mkdir -p "$WORK/$side"
  cp -R Examples/batch/templates "$WORK/$side/templates"
  python3 - "$WORK/$side/m.json5" "$N" <<'PY'
import json, sys
variants = [{"count": str(i), "color": "#%06X" % (i * 2654435 % 0xFFFFFF)} for i in range(int(sys.argv[2]))]
render = {"template": "templates/badge.json5", "variants": variants, "sizes": [0.25], "formats": ["png"], "frames": [0, 0]}
json.dump({"flick": 1, "output": "out", "renders": [render]}, open(sys.argv[1], "w"))
PY
  flick=$FLICK; [ "$side" = baseline ] && flick=$BASELINE
  (cd "$WORK/$side" && "$flick" plan m.json5 -o plan.json >/dev/null)
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "many small jobs — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $N jobs, $REPEAT rounds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A col
for r in $(seq "$REPEAT"); do
  for side in "${sides[@]}"; do
    flick=$FLICK; [ "$side" = baseline ] && flick=$BASELINE
    (cd "$WORK/$side" && /usr/bin/time -f '%e %U %S' -o time.txt "$flick" run plan.json --force -q)
    read -r wall user system < "$WORK/$side/time.txt"
    cpu=$(echo "$user + $system" | bc)
    col[$side.wall]+="$wall "; col[$side.cpu]+="$cpu "
    printf '%-6s %-9s wall %6s s  CPU %6s s\n' "$r" "$side" "$wall" "$cpu"
  done
done
m() { echo "${col[$1]}" | tr ' ' '\n' | awk 'NF' | median; }
for side in "${sides[@]}"; do printf 'median %-9s wall %6s s  CPU %6s s\n' "$side" "$(m $side.wall)" "$(m $side.cpu)"; done
if [ -n "$BASELINE" ]; then
  printf 'baseline / new: wall %.2f, CPU %.2f\n' \
    "$(echo "$(m baseline.wall) / $(m new.wall)" | bc -l)" "$(echo "$(m baseline.cpu) / $(m new.cpu)" | bc -l)"
  if diff -r -q -x .flick "$WORK/baseline/out" "$WORK/new/out" >/dev/null; then
    echo "same bytes: yes (every frame and stamp)"
  else
    echo "same bytes: NO"; exit 1
  fi
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
