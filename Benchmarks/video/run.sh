#!/usr/bin/env bash
# FlickVideo benchmark: end-to-end render vs. its two halves, side by side (see docs/video.md).
#   (a) flick render → MP4 (x264 veryfast)       (b) flick render --null (rasterise only)
#   (c) ffmpeg alone encoding the same frames from a raw BGRA file with flick's own arguments
# Reports a/L with L = max(b, c, (CPU b + CPU c) / cores), a's CPU over b's + c's (the pipeline's own
# overhead, which does not depend on other load), raw pipe throughput into ffmpeg -f null,
# flick's peak memory for 10 s and 60 s 1080p renders, and the --jobs 2 / --jobs 1 speed-up.
# Environment: REPEAT (runs per measurement, median reported; default 3), JOBS (default: cores),
# SIZES (default "1280x720 1920x1080"), RAW_DIR (default /dev/shm), SKIP_LONG=1 skips the 60 s render.
set -euo pipefail
cd "$(dirname "$0")/../.."

REPEAT=${REPEAT:-3}
CORES=$(nproc)
JOBS=${JOBS:-$CORES}
SIZES=${SIZES:-"1280x720 1920x1080"}
RAW_DIR=${RAW_DIR:-/dev/shm}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/flick-bench.XXXXXX")
LONG=Benchmarks/video/.card-swap-60s-$$.json5  # beside photo.png: assets may not leave the folder
trap 'rm -rf "$WORK" "$RAW_DIR"/flick-bench-$$.bgra "$LONG"' EXIT

scripts/swift-release --product flick >/dev/null
FLICK=.build/release/flick
SCENE=Benchmarks/video/card-swap.json5
python3 Benchmarks/video/make-card-swap.py 60 "$LONG"

# measure NAME CMD... → appends "wall cpu maxrss_kib" to $WORK/NAME (cpu includes waited-for
# children, so a's includes its ffmpeg)
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/time" >>"$WORK/$name"
}
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }

echo "FlickVideo benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, --jobs $JOBS, $REPEAT runs each (median)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf "%-10s %9s %9s %9s %9s %9s %9s %9s %9s %7s %13s\n" size "a wall" "b wall" "c wall" "a cpu" "b cpu" "c cpu" "L" "a/L" "fps(a)" "a cpu/(b+c)"
for size in $SIZES; do
  raw="$RAW_DIR/flick-bench-$$.bgra"
  "$FLICK" render "$SCENE" --size "$size" -o "$raw" -q >/dev/null
  # ffmpeg's command for this output, exactly as flick runs it, reading the raw file instead of stdin.
  mapfile -t cmd < <("$FLICK" render "$SCENE" --size "$size" -o "$WORK/c.mp4" --dry-run | python3 -c \
    'import shlex, sys; [print(a) for a in shlex.split(sys.stdin.readline())]')
  for i in $(seq 1 "${#cmd[@]}"); do [ "${cmd[$i]:-}" = "pipe:0" ] && cmd[$i]=$raw; done
  rm -f "$WORK"/{a,b,c}
  for _ in $(seq "$REPEAT"); do
    measure a "$FLICK" render "$SCENE" --size "$size" -o "$WORK/a.mp4" --jobs "$JOBS" -q
    measure b "$FLICK" render "$SCENE" --size "$size" --null --jobs "$JOBS" -q
    measure c "${cmd[@]}"
  done
  a=$(median "$WORK/a" 1); b=$(median "$WORK/b" 1); c=$(median "$WORK/c" 1)
  ac=$(median "$WORK/a" 2); bc=$(median "$WORK/b" 2); cc=$(median "$WORK/c" 2)
  frames=$(( $(stat -c %s "$raw") / ( ${size%x*} * ${size#*x} * 4 ) ))
  python3 - "$size" "$a" "$b" "$c" "$ac" "$bc" "$cc" "$CORES" "$frames" <<'PY'
import sys
size, a, b, c, ac, bc, cc, cores, frames = sys.argv[1], *map(float, sys.argv[2:9]), int(sys.argv[9])
L = max(b, c, (bc + cc) / cores)
print(f"{size:<10} {a:8.2f}s {b:8.2f}s {c:8.2f}s {ac:8.2f}s {bc:8.2f}s {cc:8.2f}s {L:8.2f}s {a / L:9.2f} "
      f"{frames / a:7.1f} {ac / (bc + cc):13.2f}")
PY
  rm -f "$raw"
done

echo
for _ in $(seq "$REPEAT"); do "$FLICK" render --measure-pipe 1920x1080; done | sort -n | awk -v n="$REPEAT" \
  'NR == int((n + 1) / 2) { print "raw pipe throughput into ffmpeg -f null (1080p, median): " $1 " " $2 }'

echo
rm -f "$WORK"/{j1,j2}
for _ in $(seq "$REPEAT"); do
  measure j1 "$FLICK" render "$SCENE" --size 1920x1080 --null --jobs 1 -q
  measure j2 "$FLICK" render "$SCENE" --size 1920x1080 --null --jobs 2 -q
done
python3 - "$(median "$WORK/j1" 1)" "$(median "$WORK/j2" 1)" <<'PY'
import sys
j1, j2 = map(float, sys.argv[1:3])
print(f"render only, 1080p: --jobs 1 {j1:.2f}s, --jobs 2 {j2:.2f}s, speed-up {j1 / j2:.2f}x")
PY

echo
peak() { "$FLICK" render "$1" --size 1920x1080 -o "$WORK/p.mp4" --jobs "$2" --progress none 2>&1 >/dev/null |
  sed -n 's/.*peak memory \([0-9]*\) MiB.*/\1/p'; }
for jobs in 1 "$JOBS"; do
  p10=$(peak "$SCENE" "$jobs")
  if [ "${SKIP_LONG:-0}" = 1 ]; then
    echo "flick peak memory (without ffmpeg), 1080p MP4, --jobs $jobs: 10 s ${p10} MiB (60 s skipped)"
  else
    p60=$(peak "$LONG" "$jobs")
    echo "flick peak memory (without ffmpeg), 1080p MP4, --jobs $jobs: 10 s ${p10} MiB, 60 s ${p60} MiB"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
# Short clips: the bundled templates at their own sizes, a one-frame MP4 and GIFs (a/L each).
Benchmarks/video/templates.sh
