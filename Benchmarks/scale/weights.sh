#!/usr/bin/env bash
# Format weights of the shard cost model (FlickBatch's ShardBalance, docs/scale-out.md): the CPU
# of rasterising a clip (`flick render --null`) and, for each output format, what writing it adds
# (`flick render -o x.EXT` minus --null: the encoder, its pipe, Flick's conversions), per
# megapixel-frame, and each as a weight relative to the rasteriser.
# Usage: Benchmarks/scale/weights.sh [FLICK]   (default .build/release/flick)
# Environment: SCALE (default 1: 640×360 for hello), FRAMES (default 0..59), TEMPLATE (default
# hello), REPEAT (runs per figure, median; default 3). CPU from /usr/bin/time: user + sys of flick
# and its ffmpeg processes.
set -euo pipefail
cd "$(dirname "$0")/../.."
FLICK=${1:-$PWD/.build/release/flick}
SCALE=${SCALE:-1}
FRAMES=${FRAMES:-0..59}
TEMPLATE=${TEMPLATE:-hello}
REPEAT=${REPEAT:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-weights.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
common=(render "$TEMPLATE" --scale "$SCALE" --frames "$FRAMES" -q --jobs 1)
cpu() {
  local out="" _
  for _ in $(seq "$REPEAT"); do
    rm -rf "$WORK/out"; mkdir -p "$WORK/out"
    /usr/bin/time -f '%U %S' -o "$WORK/time" "$FLICK" "${common[@]}" "$@" >/dev/null 2>&1 \
      || { echo "failed: $FLICK ${common[*]} $*" >&2; exit 1; }
    out="$out $(awk '{ printf "%.3f", $1 + $2 }' "$WORK/time")"
  done
  echo "$out" | tr ' ' '\n' | awk 'NF' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
"$FLICK" "${common[@]}" -o "$WORK/frames.bgra" >/dev/null 2>&1
mpf=$(echo "$(stat -c %s "$WORK/frames.bgra") / 4 / 1000000" | bc -l)
echo "Format weights — $(date -u +%Y-%m-%dT%H:%MZ), $FLICK, $TEMPLATE --scale $SCALE --frames $FRAMES"
printf 'megapixel-frames: %.2f; load average: %s\n' "$mpf" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %8s %16s %8s\n' what "CPU s" "s per MPx-frame" weight
raster=$(cpu --null)
rw=$(echo "$raster / $mpf" | bc -l)
printf '%-8s %8s %16.4f %8.2f\n' raster "$raster" "$rw" 1
for ext in png mp4 gif webm mov apng webp; do
  target="$WORK/out/x.$ext"; [ "$ext" = png ] && target="$WORK/out/seq/"
  c=$(cpu -o "$target")
  w=$(echo "($c - $raster) / $mpf" | bc -l)
  printf '%-8s %8s %16.4f %8.2f\n' "$ext" "$c" "$w" "$(echo "$w / $rw" | bc -l)"
done
