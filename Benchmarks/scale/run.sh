#!/usr/bin/env bash
# Scale-out benchmark (docs/scale-out.md, docs/video.md): side by side on this machine,
#   (1) the cost of x264's fixed thread count: flick's exact MP4 command encoding the same raw
#       frames with -threads 4 (what Flick uses) and -threads 0 (x264's own choice, 1.5 × CPUs),
#       on 1 and on 2 visible CPUs (taskset), with whether the bytes match;
#   (2) plan + shards + merge against one `flick render` of the same frames and outputs, at one
#       and at three shards (run one after another here: "3 machines" is the slowest shard plus
#       the merge), in wall time and bytes (outputs and chunk intermediates).
# Environment: REPEAT (runs per measurement, median reported; default 3), SCALE (default 2:
# 1280×720), CHUNK (frames per chunk, default 30).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-3}
SCALE=${SCALE:-2}
CHUNK=${CHUNK:-30}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench-scale.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
scripts/swift-release --product flick >/dev/null
FLICK=$PWD/.build/release/flick

seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; e=$(date +%s.%N); echo "$e - $s" | bc; }
median() { tr ' ' '\n' | awk 'NF' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
repeat() { local out=""; for _ in $(seq "$REPEAT"); do out="$out $(seconds "$@")"; done; echo "$out" | median; }
bytes() { du -sb "$@" | awk '{ s += $1 } END { print s }'; }

echo "Scale-out benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $REPEAT runs each (median)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# (1) x264 threads: flick's own command line (from --dry-run), frames from a raw file.
"$FLICK" render hello --scale "$SCALE" -o "$WORK/frames.bgra" -q >/dev/null
read -r -a cmd < <("$FLICK" render hello --scale "$SCALE" -o "$WORK/x.mp4" --dry-run)
encode() { # THREADS CPUS OUT
  local args=("${cmd[@]}") i
  for i in "${!args[@]}"; do
    [ "${args[$i]}" = "-threads" ] && args[$((i + 1))]=$1
    [ "${args[$i]}" = "pipe:0" ] && args[$i]="$WORK/frames.bgra"
    [ "${args[$i]}" = "$WORK/x.mp4" ] && args[$i]=$3
  done
  taskset -c "$2" "${args[@]}"
}
echo "(1) x264 threads, $(("$SCALE" * 640))×$(("$SCALE" * 360)), 90 frames, veryfast crf 18 (seconds)"
printf "%-8s %12s %12s %8s %s\n" CPUs "threads=4" "threads=0" "cost" "same bytes with 1 and 2 CPUs"
for cpus in 0 0,1; do
  fixed=$(repeat encode 4 "$cpus" "$WORK/fixed-$cpus.mp4")
  auto=$(repeat encode 0 "$cpus" "$WORK/auto-$cpus.mp4")
  printf "%-8s %12.2f %12.2f %7.0f%%\n" "$(echo "$cpus" | tr ',' ' ' | wc -w)" "$fixed" "$auto" "$(echo "($fixed / $auto - 1) * 100" | bc -l)"
done
cmp -s "$WORK/fixed-0.mp4" "$WORK/fixed-0,1.mp4" && echo "threads=4: identical" || echo "threads=4: DIFFERENT"
cmp -s "$WORK/auto-0.mp4" "$WORK/auto-0,1.mp4" && echo "threads=0: identical" || echo "threads=0: different"
echo

# (2) plan + shards + merge against one render: hello at SCALE, MP4 + GIF, CHUNK-frame chunks.
cat >"$WORK/batch.json5" <<JSON
{ flick: 1, output: "out", renders: [{ template: "hello", sizes: [$SCALE], formats: ["mp4", "gif"], chunk: $CHUNK }] }
JSON
single() { rm -rf "$WORK/single"; mkdir -p "$WORK/single"; "$FLICK" render hello --scale "$SCALE" -o "$WORK/single/a.mp4" -o "$WORK/single/a.gif" -q; }
batch() { # SHARDS → "plan run_total slowest_shard merge"
  rm -rf "$WORK/out"
  local plan runs=() total=0 slowest=0 merge t
  plan=$(seconds "$FLICK" plan "$WORK/batch.json5" -o "$WORK/plan.json")
  for i in $(seq "$1"); do
    t=$(seconds "$FLICK" run "$WORK/plan.json" --shard "$i/$1" -q)
    total=$(echo "$total + $t" | bc); slowest=$(echo "if ($t > $slowest) $t else $slowest" | bc)
  done
  merge=$(seconds "$FLICK" merge "$WORK/plan.json" -q)
  echo "$plan $total $slowest $merge"
}
one=$(repeat single)
echo "(2) hello at ${SCALE}×, 90 frames, MP4 + GIF, chunks of $CHUNK frames (seconds; bytes)"
echo "one flick render: $one s; outputs $(bytes "$WORK/single/a.mp4" "$WORK/single/a.gif") B"
printf "%-7s %8s %10s %10s %8s %12s %12s %14s %12s\n" shards plan "runs (sum)" "slowest" merge "1 machine" "N machines" "outputs (B)" "chunks (B)"
for n in 1 3; do
  rows=""
  for _ in $(seq "$REPEAT"); do rows="$rows$(batch "$n")"$'\n'; done
  pick() { echo "$rows" | awk -v k="$1" 'NF { print $k }' | median; }
  p=$(pick 1); r=$(pick 2); s=$(pick 3); m=$(pick 4)
  printf "%-7s %8.2f %10.2f %10.2f %8.2f %7.2f (%3.1f×) %7.2f (%3.1f×) %14s %12s\n" "$n" "$p" "$r" "$s" "$m" \
    "$(echo "$p + $r + $m" | bc)" "$(echo "($p + $r + $m) / $one" | bc -l)" \
    "$(echo "$p + $s + $m" | bc)" "$(echo "($p + $s + $m) / $one" | bc -l)" \
    "$(bytes "$WORK/out/hello/default/"*.mp4 "$WORK/out/hello/default/"*.gif)" "$(bytes "$WORK/out/.flick/chunks")"
done
cmp -s "$WORK/single/a.gif" "$WORK/out/hello/default/1280x720.gif" && echo "merged GIF: identical to the single render" || echo "merged GIF: differs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
